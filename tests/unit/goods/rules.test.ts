import { describe, expect, it } from 'vitest'
import { formatGrams, goldUnitPrice, parseGrams, percentChange, percentToPpm, pickText, ppmToPercent, specUnitPrice } from '../../../server/modules/goods/rules.ts'

const u = (n: number) => BigInt(Math.round(n * 1e8))

describe('gold pricing', () => {
  it('is weight × the price per gram + the craft fee, rounded up to the cent USDT is charged in', () => {
    expect(goldUnitPrice(10_000n, u(98.5), u(12))).toBe(u(985) + u(12))
    // 31.103 g × 98.5 = 3063.6455 exactly: charged 3063.65, never the six decimals it reads as.
    expect(goldUnitPrice(31_103n, u(98.5), 0n)).toBe(u(3063.65))
    // 10 g at 100.8262599 per gram + 0 fee = 1008.262599 → 1008.27 (issue 33).
    expect(goldUnitPrice(10_000n, 10_082_625_990n, 0n)).toBe(u(1008.27))
    // 1 mg × 0.00000001 is still a cent: nothing is sold for less than one.
    expect(goldUnitPrice(1n, 1n, 0n)).toBe(1_000_000n)
    // Already whole cents stay as they are.
    expect(goldUnitPrice(5_000n, u(100), u(10.5))).toBe(u(510.5))
  })
  it('refuses nonsense inputs rather than pricing at zero', () => {
    expect(() => goldUnitPrice(0n, u(1), 0n)).toThrow(RangeError)
    expect(() => goldUnitPrice(1n, 0n, 0n)).toThrow(RangeError)
    expect(() => goldUnitPrice(1n, 1n, -1n)).toThrow(RangeError)
  })
  it('a specification with a price keeps it; gold needs the reference price', () => {
    expect(specUnitPrice({ price: u(399), weight_mg: null, craft_fee: null }, null)).toBe(u(399))
    expect(specUnitPrice({ price: null, weight_mg: 5_000n, craft_fee: u(10) }, u(100))).toBe(u(510))
    expect(() => specUnitPrice({ price: null, weight_mg: 5_000n, craft_fee: u(10) }, null)).toThrow(RangeError)
  })
})

describe('grams, percents and texts', () => {
  it('grams round-trip with up to 3 decimals and refuse the rest', () => {
    expect(parseGrams('31.103')).toBe(31_103n)
    expect(parseGrams('10')).toBe(10_000n)
    expect(formatGrams(31_103n)).toBe('31.103')
    expect(formatGrams(10_500n)).toBe('10.5')
    for (const bad of ['', '1.2345', '-1', '01', 'abc', '1e3']) expect(parseGrams(bad)).toBeNull()
  })
  it('percents are parts per million and back', () => {
    expect(percentToPpm('30')).toBe(300_000n)
    expect(percentToPpm('12.5')).toBe(125_000n)
    expect(ppmToPercent(125_000n)).toBe('12.5')
    expect(ppmToPercent(1_000_000n)).toBe('100')
    expect(() => percentToPpm('1.234')).toThrow(RangeError)
  })
  it('the change over a day is truncated to two decimals, signed', () => {
    expect(percentChange(u(100), u(99.65))).toBe('-0.35')
    expect(percentChange(u(100), u(101))).toBe('1.00')
    expect(percentChange(0n, u(1))).toBe('0')
  })
  it('a text is in the asked language, else the default (TW), else any', () => {
    expect(pickText('{"TW":"黃金","EN":"Gold"}', 'EN')).toBe('Gold')
    expect(pickText('{"TW":"黃金","EN":"Gold"}', 'JP')).toBe('黃金')
    expect(pickText('{"EN":"Gold"}', 'JP')).toBe('Gold')
    expect(pickText('not json', 'EN')).toBe('')
  })
})
