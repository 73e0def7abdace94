// When a stored price quote (an exchange's, or joint mining's locked NADI price) may be confirmed:
// server/modules/wallet/exchange.ts quoteRefusal, the one rule both confirms apply.
import { describe, expect, it } from 'vitest'
import { quoteRefusal } from '../../../server/modules/wallet/exchange.ts'

const issued = { user_id: 7n, expires_at: 30_000n, used_at: null }

describe('a quote is confirmed once, by its user, while it is valid', () => {
  it('is honoured by its user up to the last millisecond before it expires', () => {
    expect(quoteRefusal(issued, 7, 0)).toBeNull()
    expect(quoteRefusal(issued, 7, 29_999)).toBeNull()
  })

  it('has expired at its expiry time and after', () => {
    expect(quoteRefusal(issued, 7, 30_000)).toBe('expired')
    expect(quoteRefusal(issued, 7, 90_000)).toBe('expired')
  })

  it('is used once: a second confirm is refused, even within its validity', () => {
    expect(quoteRefusal({ ...issued, used_at: 1_000n }, 7, 2_000)).toBe('used')
  })

  it('answers another user exactly as if the quote did not exist, so quote ids cannot be probed', () => {
    expect(quoteRefusal(issued, 8, 0)).toBe('missing')
    expect(quoteRefusal(undefined, 7, 0)).toBe('missing')
    expect(quoteRefusal({ ...issued, used_at: 1_000n }, 8, 40_000)).toBe('missing')
  })
})
