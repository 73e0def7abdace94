// Savings arithmetic and rules (contract/pledgeRules.ts): interest floored as the settlement floors
// it, the periods of each mode and the order in which a pledge is refused (its term: contract/term.ts).
import { describe, expect, it } from 'vitest'
import {
  capacityLeft,
  checkPledge,
  modeRate,
  percentToPpm,
  periodDays,
  periodIncome,
  periodsOf,
  ppmToPercent,
  termIncome,
  type PledgeTerms,
} from '../../../contract/pledgeRules.ts'

const U = 100_000_000n
const product: PledgeTerms = { day: 90, minPledge: 500n * U, dayRatePpm: 1_500n, monthRatePpm: 48_000n, totalPledge: 2_000n * U, pledged: 1_000n * U }

describe('interest', () => {
  it('one period is floor(principal × rate / 1e6), as the settlement computes it', () => {
    expect(periodIncome(500n * U, 1_000n)).toBe(U / 2n) // 0.1 % of 500
    expect(periodIncome(333n, 333_333n)).toBe(110n) // the floor; the rest is the settlement's dust
    expect(periodIncome(0n, 1_000n)).toBe(0n)
  })

  it('the day mode pays every day of the term, the month mode every full 30 days', () => {
    expect([periodDays('day'), periodDays('month')]).toEqual([1, 30])
    expect(periodsOf(30, 'day')).toBe(30)
    expect(periodsOf(90, 'month')).toBe(3)
    expect(periodsOf(45, 'month')).toBe(1)
    expect(periodsOf(29, 'month')).toBe(0)
    expect(termIncome(500n * U, 1_000n, 30, 'day')).toBe(15n * U)
    expect(termIncome(1_000n * U, 48_000n, 90, 'month')).toBe(144n * U)
  })

  it('rates are percents with up to 4 decimals, at most 100 %', () => {
    expect(percentToPpm('0.1')).toBe(1_000n)
    expect(percentToPpm('0.0001')).toBe(1n)
    expect(percentToPpm('4.8')).toBe(48_000n)
    expect(percentToPpm('100')).toBe(1_000_000n)
    for (const bad of ['100.0001', '101', '0.00001', '-1', '1e2', '', '01']) expect(percentToPpm(bad)).toBeNull()
    for (const ppm of [0n, 1n, 1_000n, 1_500n, 48_000n, 1_000_000n]) expect(percentToPpm(ppmToPercent(ppm))).toBe(ppm)
    expect(ppmToPercent(1_500n)).toBe('0.15')
  })
})

describe('rules', () => {
  it('a mode with no rate, or a month on a term shorter than 30 days, is not offered', () => {
    expect(modeRate(product, 'day')).toBe(1_500n)
    expect(modeRate({ ...product, day: 20 }, 'month')).toBe(0n)
    expect(modeRate({ ...product, dayRatePpm: 0n }, 'day')).toBe(0n)
  })

  it('refuses in order: the amount, the mode, the minimum, the capacity left, then the balance', () => {
    const lots = 10_000n * U
    expect(checkPledge(product, 'day', 0n, lots)).toEqual({ reason: 'amountZero' })
    expect(checkPledge({ ...product, day: 20 }, 'month', 1n, lots)).toEqual({ reason: 'modeUnavailable' })
    expect(checkPledge(product, 'day', 500n * U - 1n, lots)).toEqual({ reason: 'belowMin', min: 500n * U })
    expect(checkPledge(product, 'day', 1_000n * U + 1n, lots)).toEqual({ reason: 'capacity', left: 1_000n * U })
    expect(checkPledge(product, 'day', 600n * U, 599n * U)).toEqual({ reason: 'insufficient', current: 599n * U, required: 600n * U })
    expect(checkPledge(product, 'month', 1_000n * U, 1_000n * U)).toBeNull()
    expect(capacityLeft({ totalPledge: 5n, pledged: 9n })).toBe(0n)
  })
})
