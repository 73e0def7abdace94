// What the savings screens compute beside the server's figures (src/features/pledge/view.ts).
import { describe, expect, it } from 'vitest'
import { estimateIncome, offeredModes, takenPercent, termPercent } from '../../../src/features/pledge/view.ts'

const U = 100_000_000n

describe('savings screens', () => {
  it('offer the modes the product pays, the day first', () => {
    expect(offeredModes({ day_periods: 30, month_periods: 1 })).toEqual(['day', 'month'])
    expect(offeredModes({ day_periods: 7, month_periods: 0 })).toEqual(['day'])
    expect(offeredModes({ day_periods: 0, month_periods: 3 })).toEqual(['month'])
  })

  it('estimate the income of the whole term as the settlement will pay it', () => {
    const p = { day: 90, day_rate: '0.15', month_rate: '4.8' }
    expect(estimateIncome(p, 'day', 1_000n * U)).toBe(135n * U)
    expect(estimateIncome(p, 'month', 1_000n * U)).toBe(144n * U)
    expect(estimateIncome({ ...p, day_rate: 'x' }, 'day', U)).toBe(0n)
  })

  it('show the capacity taken and the term run on integer units, within 0–100', () => {
    expect(takenPercent({ pledged: '0', total_pledge: '100' })).toBe(0)
    expect(takenPercent({ pledged: '33.33333333', total_pledge: '100' })).toBe(33.33)
    expect(takenPercent({ pledged: '200', total_pledge: '100' })).toBe(100)
    expect(takenPercent({ pledged: '1', total_pledge: '0' })).toBe(0)
    expect(termPercent({ day: 30, remaining_days: 30 })).toBe(0)
    expect(termPercent({ day: 30, remaining_days: 15 })).toBe(50)
    expect(termPercent({ day: 30, remaining_days: 0 })).toBe(100)
  })
})
