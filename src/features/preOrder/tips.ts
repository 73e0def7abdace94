// When home reads the unpaid-order reminder again. Pure: tested in tests/unit/preOrder/tips.test.ts.
import type { PreOrderTips } from '../../../contract/preOrder.ts'

/** The reminder is read again at least this often while home is open. */
export const TIPS_POLL_MS = 60_000

/**
 * Just after its first order's payment time is up (the server cancels it then and the next one takes
 * its place), at most every TIPS_POLL_MS; not at all with nothing unpaid.
 */
export function tipsRefetchMs(tips: PreOrderTips | undefined, now: number): number | false {
  if (!tips?.next) return false
  return Math.min(TIPS_POLL_MS, Math.max(2_000, tips.next.expires_at - now + 1_000))
}
