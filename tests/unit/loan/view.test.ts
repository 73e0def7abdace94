// The borrow confirm's terms (src/features/loan/view.ts): what the user agrees to is what the server records.
import { describe, expect, it } from 'vitest'
import { loanQuote } from '../../../src/features/loan/view.ts'

const U = 100_000_000n

describe('the borrow confirm', () => {
  it('quotes the due date the server shows: a 30-day loan taken 11/26 is due 12/26 (contract/term.ts)', () => {
    const now = Date.UTC(2026, 10, 26, 17, 30)
    const q = loanQuote({ daily_rate: '0.05', max_days: 30 }, 5_000n * U, 1_000n * U, now)
    expect(new Date(q.dueAt).toISOString()).toBe('2026-12-26T00:00:00.000Z')
    expect(q).toMatchObject({ amount: 1_000n * U, dailyRate: '0.05', days: 30, stake: 5_000n * U })
  })

  it("quotes a day's interest floored to the unit, as the settlement adds it", () => {
    expect(loanQuote({ daily_rate: '0.05', max_days: 30 }, 0n, 1_000n * U, 0).dailyInterest).toBe(U / 2n)
    // 0.0333 % of 0.00000299 USDT is below one unit: nothing.
    expect(loanQuote({ daily_rate: '0.0333', max_days: 7 }, 0n, 299n, 0).dailyInterest).toBe(0n)
    expect(loanQuote({ daily_rate: '0.0333', max_days: 7 }, 0n, 3_000_000n * U, 0).dailyInterest).toBe(999n * U)
  })
})
