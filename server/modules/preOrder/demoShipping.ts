// The demo's own shipper (issue 33): with nobody at the operator's CLI, a paid order would wait for
// shipment for ever and a visitor could never confirm receipt or activate a device. In the demo (never
// in production: config.commerce.demoShipAfterMs is null there) a job ships each paid order pending
// shipment once it has been paid for the configured delay, through the same shipOrder the CLI's `ship`
// uses, with a demo carrier and tracking number; a device order's activation codes are kept for the
// buyer's order detail (./demoCodes.ts).
import type { Ctx } from '../../context.ts'
import { statement } from '../../db/query/types.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import { keepDemoCodes } from './demoCodes.ts'
import { ShipRefused, shipOrder } from './service.ts'

export const DEMO_EXPRESS_COMPANY = 'NADI Demo Express'

export interface AwaitingShipment {
  id: number
  paidAt: number
}

/** The orders due to ship at `now`: those paid at least `afterMs` ago, oldest payment first. */
export function dueToShip(orders: readonly AwaitingShipment[], now: number, afterMs: number): number[] {
  return orders
    .filter((o) => o.paidAt + afterMs <= now)
    .sort((a, b) => a.paidAt - b.paidAt)
    .map((o) => o.id)
}

/** A plausible tracking number, the order number's digits behind the carrier's prefix (4–40 letters, digits or dashes). */
export function demoTrackingNo(orderNo: string): string {
  return `ND-${orderNo.replace(/[^A-Za-z0-9]/g, '').slice(-24)}`
}

const AWAITING = statement<{ id: bigint; order_no: string; paid_at: bigint }, []>(
  "SELECT id, order_no, paid_at FROM pay_orders WHERE fulfilment = 'pending_shipment' AND paid_at IS NOT NULL ORDER BY paid_at LIMIT 500",
)

/** One pass: ships what is due. Returns how many orders it shipped; nothing outside the demo. */
export async function shipDemoOrders(ctx: Ctx): Promise<number> {
  const afterMs = ctx.config.commerce.demoShipAfterMs
  // Checked here too, not only at start: a pass must never ship a production order, whoever calls it.
  if (afterMs === null || ctx.config.env === 'production') return 0
  const rows = await ctx.sql.all(AWAITING)
  const noOf = new Map(rows.map((r) => [Number(r.id), r.order_no]))
  let shipped = 0
  for (const id of dueToShip(rows.map((r) => ({ id: Number(r.id), paidAt: Number(r.paid_at) })), ctx.now(), afterMs)) {
    try {
      await shipOrder(ctx, id, DEMO_EXPRESS_COMPANY, demoTrackingNo(noOf.get(id)!), (tx, codes) => keepDemoCodes(tx, id, codes))
      shipped++
    } catch (err) {
      // The operator (or another pass) shipped it meanwhile: nothing left to do for this one.
      if (!(err instanceof ShipRefused)) throw err
    }
  }
  return shipped
}

/** A pass a second: the delay is seconds, and the pass reads only the orders pending shipment. */
export function startDemoShipping(ctx: Ctx, everyMs = 1000): () => void {
  if (ctx.config.commerce.demoShipAfterMs === null || ctx.config.env === 'production') return () => {}
  return startJobs(ctx, [{ name: 'demo-shipping', everyMs, run: shipDemoOrders }])
}
