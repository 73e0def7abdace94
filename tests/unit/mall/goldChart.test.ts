import { describe, expect, it } from 'vitest'
import { signedPercent, sparkline, toneOf } from '../../../src/features/mall/goldChart.ts'
import { categoryOfShelf } from '../../../src/features/mall/shelves.ts'

describe('the gold price sparkline', () => {
  it('spreads the points over the box by time, the highest price at the top', () => {
    const s = sparkline(
      [
        { at: 0, price: '100' },
        { at: 50, price: '110' },
        { at: 100, price: '105' },
      ],
      104,
      24,
      2,
    )
    expect(s.line).toBe('M2 22 L52 2 L102 12')
    expect(s.area).toBe('M2 22 L52 2 L102 12 L102 24 L2 24 Z')
    expect(s.last).toEqual({ x: 102, y: 12 })
  })

  it('draws a flat day across the middle, and nothing for fewer than two points', () => {
    expect(sparkline([{ at: 0, price: '98.5' }, { at: 10, price: '98.5' }], 100, 20, 0).line).toBe('M0 10 L100 10')
    expect(sparkline([{ at: 0, price: '98.5' }], 100, 20)).toEqual({ line: '', area: '', last: null })
    expect(sparkline([], 100, 20).last).toBeNull()
  })
})

describe('the 24 h change', () => {
  it('reads with its sign and a percent, coloured by direction', () => {
    expect(signedPercent('-0.35')).toBe('-0.35%')
    expect(signedPercent('1.20')).toBe('+1.20%')
    expect(signedPercent('0.00')).toBe('0.00%')
    expect(signedPercent('junk')).toBe('0.00%')
    expect([toneOf('-0.35'), toneOf('0.01'), toneOf('0.00'), toneOf('')]).toEqual(['down', 'up', 'flat', 'flat'])
  })
})

describe('the mall shelves', () => {
  it('a category shelf leads to its category; hot and new lead nowhere', () => {
    expect(categoryOfShelf('category:3')).toBe(3)
    expect(categoryOfShelf('hot')).toBeNull()
    expect(categoryOfShelf('category:x')).toBeNull()
  })
})
