// A node order's seat, given back when its unpaid order is cancelled (by the user or the expiry job),
// and taken again when a late chain payment reinstates it. Its own small module so the orders service
// can call it without importing the node service.
import type { Ctx } from '../../context.ts'
import { preparedOnce } from '../../db/index.ts'
import type { Retake } from '../orders/holdRules.ts'

const SQL = {
  cancel: "UPDATE node_orders SET status = 'cancelled' WHERE order_id = ? AND status = 'pending' RETURNING tier_id",
  seat: 'UPDATE node_tiers SET seats_left = seats_left + 1 WHERE id = ?',
  retakeOf: `SELECT t.seats_left, t.active, t.limit_num,
               (SELECT count(*) FROM node_orders m WHERE m.user_id = n.user_id AND m.tier_id = n.tier_id AND m.status IN ('pending', 'active')) AS held
             FROM node_orders n JOIN node_tiers t ON t.id = n.tier_id WHERE n.order_id = ? AND n.status = 'cancelled'`,
  reopen: "UPDATE node_orders SET status = 'pending' WHERE order_id = ? AND status = 'cancelled' RETURNING tier_id",
  takeSeat: 'UPDATE node_tiers SET seats_left = seats_left - 1 WHERE id = ? AND seats_left > 0',
} as const

/** In the cancelling transaction: the node order ends cancelled and its tier gets the seat back. */
export function giveBackSeat(ctx: Pick<Ctx, 'sqlite'>, payOrderId: number | bigint): void {
  const s = preparedOnce(ctx.sqlite, SQL)
  const r = s.cancel.get(payOrderId) as { tier_id: bigint } | undefined
  if (r) s.seat.run(r.tier_id)
}

/** What taking an ended node order's seat again would find now (the buyer's limit counts); 'none' for another order. */
export function seatToRetake(ctx: Pick<Ctx, 'sqlite'>, payOrderId: number | bigint): Retake {
  const r = preparedOnce(ctx.sqlite, SQL).retakeOf.get(payOrderId) as { seats_left: bigint; active: bigint; limit_num: bigint; held: bigint } | undefined
  if (!r) return 'none'
  if (r.seats_left <= 0n || r.held >= r.limit_num) return 'gone'
  return r.active === 1n ? 'free' : 'off_sale'
}

/** In the paying transaction of a reinstated order: the node order is pending again and holds a seat; throws (undoing it all) when none is left. */
export function retakeSeat(ctx: Pick<Ctx, 'sqlite'>, payOrderId: number | bigint): void {
  const s = preparedOnce(ctx.sqlite, SQL)
  const r = s.reopen.get(payOrderId) as { tier_id: bigint } | undefined
  if (r && s.takeSeat.run(r.tier_id).changes !== 1) throw new Error(`order ${payOrderId}: its seat was taken meanwhile`)
}
