// Holds (README "Holds"): an unpaid order of a product or a node seat holds stock nobody else can buy
// until it is paid, cancelled or expires. checkHoldIn() runs in the ordering transaction, before the
// stock or seat is taken, and refuses the hold that would make hoarding free:
//   - a user whose holds ended unpaid (expired, or cancelled by them) `cooldownAfter` times within
//     the window waits (cool-down): else cancel and order again renews a hold forever;
//   - a user holds at most `maxOpen` unpaid orders, and `maxPerItem` of one product or tier;
//   - unpaid holds of an item take at most `sharePpm` of it, unless the buyer's fund balance pays
//     this and all their other holds now. Accounts are free to make, so the per-user rules alone do
//     not stop fifty fresh accounts; the share does, and the balance keeps buying open to who pays.
import { formatMoney } from '../../../contract/money.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { all, get, runOn, type Steps } from '../../db/steps.ts'
import { conflict, type ApiError } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { cooldownUntil, holdCap, holdEndedAt, minutesUntil } from './holdRules.ts'
import { ORDER_REF_PREFIX } from './service.ts'

/** The order types that take stock or a seat while unpaid. */
export const HOLD_TYPES = ['device', 'gold', 'car', 'node'] as const
const TYPES = HOLD_TYPES.map((t) => `'${t}'`).join(', ')
/**
 * The orders still holding (as o): open, not paid, and in time or with a chain payment under way.
 * The expiry job never cancels the latter, however late, so they keep their stock or seat; left out,
 * a tx hash submitted just before the expiry would hold past the caps until the payment fails. Read
 * from the open orders in time and the payments under way, each by its index (pay_orders_expiring,
 * payments_checking), then each order by its id: few rows, whatever the history (SQLite's CROSS JOIN
 * keeps h the outer loop; `o.state || ''` keeps the planner off pay_orders_expiring for that lookup, an
 * index of every open order, those still to ship too — SQLite's unary + did, PostgreSQL has none for text).
 */
const HOLDS = `(SELECT id FROM pay_orders WHERE state = 'open' AND expires_at > @now
    UNION SELECT CAST(substr(order_ref, ${ORDER_REF_PREFIX.length + 1}) AS INTEGER) FROM payments
      WHERE status IN ('pending', 'confirming') AND substr(order_ref, 1, ${ORDER_REF_PREFIX.length}) = '${ORDER_REF_PREFIX}') h
  CROSS JOIN pay_orders o`
/** The join of HOLDS, in each WHERE: PostgreSQL's CROSS JOIN takes no ON. */
const HELD = `o.id = h.id AND o.state || '' = 'open' AND o.paid_at IS NULL`

/** holdEndedAt in SQL (min of two columns, written the same on SQLite and PostgreSQL). */
const ENDED = 'CASE WHEN o.ended_at < o.expires_at THEN o.ended_at ELSE o.expires_at END'

const SQL = {
  /** The user's holds that ended unpaid, by the user or the clock, newest end first (holdEndedAt). */
  ended: `SELECT o.expires_at, o.ended_at FROM pay_orders o WHERE o.user_id = @user AND o.type IN (${TYPES}) AND o.state = 'cancelled'
            AND o.ended_at IS NOT NULL AND ${ENDED} > @since ORDER BY ${ENDED} DESC LIMIT @limit`,
  open: `SELECT o.asset, count(*) AS n, sum(o.total) AS total FROM ${HOLDS} WHERE ${HELD} AND o.user_id = @user AND o.type IN (${TYPES}) GROUP BY o.asset`,
  mineOfProduct: `SELECT count(DISTINCT o.id) AS n FROM ${HOLDS} JOIN order_lines l ON l.order_id = o.id
                    WHERE ${HELD} AND o.user_id = @user AND l.product_id = @item`,
  mineOfTier: `SELECT count(*) AS n FROM ${HOLDS} JOIN node_orders n ON n.order_id = o.id
                 WHERE ${HELD} AND o.user_id = @user AND n.tier_id = @item`,
  heldOfSpec: `SELECT coalesce(sum(l.quantity), 0) AS n, min(o.expires_at) AS next FROM ${HOLDS} JOIN order_lines l ON l.order_id = o.id
                 WHERE ${HELD} AND l.spec_id = @item`,
  heldOfTier: `SELECT count(*) AS n, min(o.expires_at) AS next FROM ${HOLDS} JOIN node_orders n ON n.order_id = o.id
                 WHERE ${HELD} AND n.tier_id = @item`,
} as const

export type HoldItem =
  /** A product's specification: the stock is the specification's, the per-item limit the product's. */
  | { kind: 'spec'; specId: bigint; productId: bigint }
  | { kind: 'tier'; tierId: bigint }

export interface HoldRequest {
  userId: number
  item: HoldItem
  /** Units the order takes (a node: one seat). */
  quantity: bigint
  /** What is left of the item before this order takes its units. */
  left: bigint
  asset: 'USDT' | 'NADI'
  /** The order's total, units of 1e-8. */
  total: bigint
}

type Held = { n: bigint; next: bigint | null }
type UserAt = { user: number; now: number }
const S = statements({
  ended: statement<{ expires_at: bigint; ended_at: bigint }, [{ user: number; since: number; limit: number }]>(SQL.ended),
  open: statement<{ asset: string; n: bigint; total: bigint }, [UserAt]>(SQL.open),
  mineOfProduct: statement<{ n: bigint }, [UserAt & { item: bigint }]>(SQL.mineOfProduct),
  mineOfTier: statement<{ n: bigint }, [UserAt & { item: bigint }]>(SQL.mineOfTier),
  heldOfSpec: statement<Held, [{ now: number; item: bigint }]>(SQL.heldOfSpec),
  heldOfTier: statement<Held, [{ now: number; item: bigint }]>(SQL.heldOfTier),
})

/** Past the share, what the buyer's fund balance must cover for the hold to be allowed, and the refusal if it does not. */
interface PastShare {
  needed: bigint
  refusal: ApiError
}

/** The rules up to the share, written once for both ways (server/db/steps.ts); null when the hold is allowed outright. */
function* holdRules(ctx: Pick<Ctx, 'config' | 'now'>, r: HoldRequest): Steps<PastShare | null> {
  const rules = ctx.config.orders.holds
  const now = ctx.now()
  const user = r.userId

  if (rules.cooldownAfter > 0) {
    const rows = yield* all(S.ended, { user, since: now - rules.cooldownWindowMs, limit: rules.cooldownAfter })
    const ends = rows.map((e) => holdEndedAt(Number(e.expires_at), Number(e.ended_at)))
    const until = cooldownUntil(ends, now, rules.cooldownAfter, rules.cooldownWindowMs)
    if (until !== null) throw conflict('errors.holdCooldown', { count: ends.length, hours: Math.round(rules.cooldownWindowMs / 360_000) / 10, minutes: minutesUntil(until, now) })
  }

  const open = yield* all(S.open, { user, now })
  if (open.reduce((n, o) => n + Number(o.n), 0) >= rules.maxOpen) throw conflict('errors.holdLimitOpen', { max: rules.maxOpen })

  const itemId = r.item.kind === 'spec' ? r.item.productId : r.item.tierId
  const mine = (yield* get(r.item.kind === 'spec' ? S.mineOfProduct : S.mineOfTier, { user, now, item: itemId }))!
  if (Number(mine.n) >= rules.maxPerItem) throw conflict('errors.holdLimitItem', { max: rules.maxPerItem })

  const held = (r.item.kind === 'spec' ? yield* get(S.heldOfSpec, { now, item: r.item.specId }) : yield* get(S.heldOfTier, { now, item: r.item.tierId }))!
  const cap = holdCap(r.left, held.n, rules.sharePpm)
  if (held.n + r.quantity <= cap) return null
  // Past the share, a hold is for who pays now: the fund balance covers this and every other hold.
  const needed = r.total + (open.find((o) => o.asset === r.asset)?.total ?? 0n)
  const pay = { amount: formatMoney(needed), asset: r.asset }
  if (r.quantity > cap) return { needed, refusal: conflict('errors.holdTooMany', { ...pay, max: Number(cap) }) }
  // Others' holds fill the share: the first of them ends (paid or given back) by its expiry.
  return { needed, refusal: conflict('errors.holdShareFull', { ...pay, minutes: minutesUntil(Number(held.next), now) }) }
}

/** Throws the refusal (409, localized) when the hold is not allowed; writes nothing. In the ordering transaction. */
export async function checkHoldIn(ctx: Pick<Ctx, 'config' | 'now'>, tx: Tx, r: HoldRequest): Promise<void> {
  const past = await runOn(tx, holdRules(ctx, r))
  if (past && (await ledger.balance(tx, ledger.fund(r.userId), r.asset)).available < past.needed) throw past.refusal
}
