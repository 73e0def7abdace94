// What the savings screens compute beside the server's figures (src/features/pledge/view.ts).
import { describe, expect, it } from 'vitest'
import { estimateIncome, offeredModes, pledgeQuote, takenPercent, termPercent } from '../../../src/features/pledge/view.ts'

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

  it('quote a pledge made now as the server will record it: the term from tomorrow, the principal back the day after its last day', () => {
    const now = Date.UTC(2026, 10, 26, 17, 30)
    const q = pledgeQuote({ day: 30, day_rate: '0.1', month_rate: '3' }, 'day', 200n * U, now)
    expect(new Date(q.startAt).toISOString()).toBe('2026-11-27T00:00:00.000Z')
    expect(new Date(q.lastAt).toISOString()).toBe('2026-12-26T00:00:00.000Z')
    expect(new Date(q.returnAt).toISOString()).toBe('2026-12-27T00:00:00.000Z')
    expect(q).toMatchObject({ amount: 200n * U, mode: 'day', rate: '0.1', days: 30, income: 6n * U })
    expect(pledgeQuote({ day: 90, day_rate: '0.15', month_rate: '4.8' }, 'month', 1_000n * U, now)).toMatchObject({ rate: '4.8', income: 144n * U })
  })
})
