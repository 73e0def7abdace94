// Node screen helpers. Pure; tested in tests/unit/node/view.test.ts.
import type { NodeTier } from '../../../contract/node.ts'

/** Share of the seats taken, whole percent (0 with no seats). */
export function seatsTakenPercent(t: Pick<NodeTier, 'total' | 'seats_left'>): number {
  if (t.total <= 0) return 0
  return Math.min(100, Math.max(0, Math.round(((t.total - t.seats_left) / t.total) * 100)))
}

export type BuyBlock = 'soldOut' | 'limit' | null

/** Why a tier cannot be bought now, if it cannot (the server says the same, in the user's words). */
export function buyBlock(t: Pick<NodeTier, 'seats_left' | 'held' | 'limit_num'>): BuyBlock {
  if (t.seats_left <= 0) return 'soldOut'
  if (t.held >= t.limit_num) return 'limit'
  return null
}
