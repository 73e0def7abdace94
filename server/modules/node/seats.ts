// A node order's seat, given back when its unpaid order is cancelled (by the user or the expiry job).
// Its own small module so the orders service can call it without importing the node service.
import type { Ctx } from '../../context.ts'
import { preparedOnce } from '../../db/index.ts'

const SQL = {
  cancel: "UPDATE node_orders SET status = 'cancelled' WHERE order_id = ? AND status = 'pending' RETURNING tier_id",
  seat: 'UPDATE node_tiers SET seats_left = seats_left + 1 WHERE id = ?',
} as const

/** In the cancelling transaction: the node order ends cancelled and its tier gets the seat back. */
export function giveBackSeat(ctx: Pick<Ctx, 'sqlite'>, payOrderId: number | bigint): void {
  const s = preparedOnce(ctx.sqlite, SQL)
  const r = s.cancel.get(payOrderId) as { tier_id: bigint } | undefined
  if (r) s.seat.run(r.tier_id)
}
