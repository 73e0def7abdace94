// A node order's seat, given back when its unpaid order is cancelled (by the user or the expiry job),
// and taken again when a late chain payment reinstates it. Its own small module so the orders service
// can call it without importing the node service.
import { statement, statements, type Tx } from '../../db/query/types.ts'
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

type Tier = { tier_id: bigint }
const S = statements({
  cancel: statement<Tier, [payOrderId: number | bigint]>(SQL.cancel),
  seat: statement<never, [tierId: bigint]>(SQL.seat),
  retakeOf: statement<{ seats_left: bigint; active: bigint; limit_num: bigint; held: bigint }, [payOrderId: number | bigint]>(SQL.retakeOf),
  reopen: statement<Tier, [payOrderId: number | bigint]>(SQL.reopen),
  takeSeat: statement<never, [tierId: bigint]>(SQL.takeSeat),
})

/** In the cancelling transaction: the node order ends cancelled and its tier gets the seat back. */
export async function giveBackSeat(tx: Tx, payOrderId: number | bigint): Promise<void> {
  const r = await tx.get(S.cancel, payOrderId)
  if (r) await tx.run(S.seat, r.tier_id)
}

/** What taking an ended node order's seat again would find now (the buyer's limit counts); 'none' for another order. */
export async function seatToRetake(tx: Tx, payOrderId: number | bigint): Promise<Retake> {
  const r = await tx.get(S.retakeOf, payOrderId)
  if (!r) return 'none'
  if (r.seats_left <= 0n || r.held >= r.limit_num) return 'gone'
  return r.active === 1n ? 'free' : 'off_sale'
}

/** In the paying transaction of a reinstated order: the node order is pending again and holds a seat; throws (undoing it all) when none is left. */
export async function retakeSeat(tx: Tx, payOrderId: number | bigint): Promise<void> {
  const r = await tx.get(S.reopen, payOrderId)
  if (r && (await tx.run(S.takeSeat, r.tier_id)).changes !== 1) throw new Error(`order ${payOrderId}: its seat was taken meanwhile`)
}
