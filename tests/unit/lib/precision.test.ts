import { describe, expect, it } from 'vitest'
import { DISPLAY_DECIMALS } from '../../../contract/constants.ts'
import { DISPLAY_PRECISION, decimalsOfStep, precisionOf, showFigure } from '../../../src/lib/precision.ts'

describe('display precision', () => {
  it('no measure shows more than SPEC §5 allows (6 decimals)', () => {
    for (const d of Object.values(DISPLAY_PRECISION)) expect(d).toBeLessThanOrEqual(DISPLAY_DECIMALS)
  })

  it('USDT shows 2 decimals, NADI 4, power 2, a price 4 (the market tick), each truncated, never rounded up', () => {
    expect(showFigure('1009.70592512', 'USDT')).toBe('1,009.7')
    expect(showFigure('0.999', 'USDT')).toBe('0.99')
    expect(showFigure('2551.22639', 'NADI')).toBe('2,551.2263')
    expect(showFigure('1082.234042', 'power')).toBe('1,082.23')
    expect(showFigure('0.12349999', 'price')).toBe('0.1234')
  })

  it('an asset the table does not know shows at most 6 decimals', () => {
    expect(precisionOf('BNB')).toBe(DISPLAY_DECIMALS)
    expect(showFigure('1.123456789', 'BNB')).toBe('1.123456')
    expect(precisionOf('toString')).toBe(DISPLAY_DECIMALS)
  })

  it('empty shows 0, a negative keeps its sign, and a figure truncated to nothing is 0 (never -0)', () => {
    expect(showFigure(null, 'USDT')).toBe('0')
    expect(showFigure('', 'NADI')).toBe('0')
    expect(showFigure('-1234.567', 'USDT')).toBe('-1,234.56')
    expect(showFigure('-0.001', 'USDT')).toBe('0')
  })
})

describe('a step’s decimals', () => {
  it('are the digits a step uses: 0.0001 → 4, 0.01 → 2, 1 → 0; not a decimal → none', () => {
    expect([decimalsOfStep('0.0001'), decimalsOfStep('0.01'), decimalsOfStep('1'), decimalsOfStep('0.00010')]).toEqual([4, 2, 0, 4])
    expect(decimalsOfStep('abc')).toBeNull()
    expect(decimalsOfStep(undefined)).toBeNull()
  })
})
