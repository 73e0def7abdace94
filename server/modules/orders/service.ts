import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { PayOnChainBody, PayOrder, PayOrderStatus, PayOrderType, PayTargets, PaymentState } from '../../../contract/orders.ts'
import type { LangCode } from '../../../contract/constants.ts'
import type { Ctx } from '../../context.ts'
import type { PayOrdersTable } from '../../db/schema.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { conflict, notFound } from '../../http/errors.ts'
import { translate } from '../../i18n.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import { FAIL_KEYS, payFromBalance, paymentStatusIn, receivingAddress, submitChainPayment, type ArrivalVerdict, type ChainArrival, type Payment } from '../payment/index.ts'
import { giveBackStock, retakeStock, stockToRetake } from '../goods/service.ts'
import { giveBackSeat, retakeSeat, seatToRetake } from '../node/seats.ts'
import { chainPaymentArrival, type Retake } from './holdRules.ts'
import { pickText } from '../goods/rules.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'

// Orders to be paid (SPEC §3, §4; /orders). A shop creates one with createPayOrder(); the user pays
// it from balance or on chain through server/modules/payment (order_ref `order:<id>`), or cancels it; one not
// paid by expires_at is cancelled by a job. Whether it is paid is the payment's word, so the state
// here is only what a payment cannot say: open, cancelled, completed.

export const ORDER_REF_PREFIX = 'order:'
export const orderRef = (id: number | bigint) => `${ORDER_REF_PREFIX}${id}`

type Row = Pick<Selectable<PayOrdersTable>, 'id' | 'order_no' | 'user_id' | 'type' | 'asset' | 'total' | 'state' | 'created_at' | 'expires_at' | 'ended_at'>

export interface NewPayOrder {
  userId: number
  type: PayOrderType
  asset: 'USDT' | 'NADI'
  /** Units of 1e-8. */
  total: bigint
  /** How long it may stay unpaid, ms; default config.orders.payWithinMs (NADI_ORDER_PAY_MS, 30 min). */
  payWithinMs?: number
  /** A product that ships, and the delivery address copied as it is now (JSON). */
  ships?: boolean
  shipTo?: string | null
  remark?: string
}

const INSERT_ORDER = 'INSERT INTO pay_orders (order_no, user_id, type, asset, total, created_at, expires_at, ships, ship_to, remark) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
type OrderValues = [orderNo: string, userId: number, type: PayOrderType, asset: string, total: bigint, createdAt: number, expiresAt: number, ships: number, shipTo: string | null, remark: string | null]
const CREATE = statements({ insert: statement<{ id: bigint }, OrderValues>(`${INSERT_ORDER} RETURNING id`) })

function orderValues(ctx: Pick<Ctx, 'now' | 'config'>, o: NewPayOrder): OrderValues {
  if (o.total <= 0n) throw new RangeError('an order costs something')
  const now = ctx.now()
  const orderNo = `${new Date(now).toISOString().slice(0, 10).replaceAll('-', '')}${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}`
  return [orderNo, o.userId, o.type, o.asset, o.total, now, now + (o.payWithinMs ?? ctx.config.orders.payWithinMs), o.ships ? 1 : 0, o.shipTo ?? null, o.remark || null]
}

/** An order the user is to pay, in a transaction of its own (the tools'; a shop creates its order in its own transaction with createPayOrderIn). */
export function createPayOrder(ctx: Pick<Ctx, 'sql' | 'now' | 'config'>, o: NewPayOrder): Promise<number> {
  return ctx.sql.transaction((tx) => createPayOrderIn(ctx, tx, o))
}

/** An order the user is to pay, in the shop's transaction. */
export async function createPayOrderIn(ctx: Pick<Ctx, 'now' | 'config'>, tx: Tx, o: NewPayOrder): Promise<number> {
  return Number((await tx.get(CREATE.insert, ...orderValues(ctx, o)))!.id)
}

const BY_ID = 'SELECT * FROM pay_orders WHERE id = ?'

// Asked once per order answered (a list answers many): prepared once per connection.
const LINE_SQL = { first: 'SELECT name, quantity FROM order_lines WHERE order_id = ? ORDER BY id LIMIT 1' } as const
type FirstLine = { name: string; quantity: bigint }

/** An order as the app sees it (what it is for is its product's name for a product order): through a transaction's tx (its writes seen), or outside any (ctx.sql). */
export async function payOrderWireIn(ctx: Pick<Ctx, 'db'>, q: Queryable, r: Row, lang: LangCode): Promise<PayOrder> {
  const [p, line] = await Promise.all([paymentStatusIn(ctx, q, orderRef(r.id)), q.get(READ.firstLine, r.id)])
  return payOrderOf(r, p, line, lang)
}

function payOrderOf(r: Row, p: Payment | null, line: FirstLine | undefined, lang: LangCode): PayOrder {
  return {
    id: Number(r.id),
    order_no: r.order_no,
    type: r.type,
    title: line ? `${pickText(line.name, lang)} × ${line.quantity}` : translate(lang, `orderTypes.${r.type}`),
    asset: r.asset,
    total: formatMoney(r.total),
    status: statusOf(r, p),
    // The expiry job cancels only past expires_at; a user cancels before it (no column needed).
    cancelled_by: statusOf(r, p) !== 'cancelled' ? null : r.ended_at !== null && r.ended_at >= r.expires_at ? 'expiry' : 'user',
    created_at: Number(r.created_at),
    expires_at: Number(r.expires_at),
    payment: paymentOf(p, lang),
  }
}

// The status of statusOf() in SQL (of an order aliased o), so a list is filtered and paged by the
// database: a user's page reads its page, not every order they ever had (issue 17). At most one
// payment of an order is not failed (payments_open_order), so "the payment" of statusOf is that one.
export const STATUS_SQL = `CASE WHEN EXISTS (SELECT 1 FROM payments p WHERE p.order_ref = '${ORDER_REF_PREFIX}' || o.id AND p.status = 'paid') THEN CASE WHEN o.state = 'completed' THEN 'completed' ELSE 'paid' END
  WHEN EXISTS (SELECT 1 FROM payments p WHERE p.order_ref = '${ORDER_REF_PREFIX}' || o.id AND p.status IN ('pending', 'confirming')) THEN 'processing'
  WHEN o.state = 'cancelled' THEN 'cancelled'
  ELSE 'pending_payment' END`
const LIST_SQL = {
  count: `SELECT count(*) AS n FROM pay_orders o WHERE o.user_id = @user AND (CAST(@status AS TEXT) IS NULL OR ${STATUS_SQL} = @status)`,
  page: `SELECT o.* FROM pay_orders o WHERE o.user_id = @user AND (CAST(@status AS TEXT) IS NULL OR ${STATUS_SQL} = @status) ORDER BY o.id DESC LIMIT @limit OFFSET @offset`,
} as const

type ListParams = { user: number; status: PayOrderStatus | null }

/** The reads of the list and the detail. */
const READ = statements({
  byId: statement<Row, [id: number | bigint]>(BY_ID),
  /** PostgreSQL only: the order's row held until the transaction ends (see lockOrder). */
  lock: statement<{ id: bigint }, [id: number | bigint]>('SELECT id FROM pay_orders WHERE id = ? FOR NO KEY UPDATE'),
  count: statement<{ n: bigint }, [ListParams]>(LIST_SQL.count),
  page: statement<Row, [ListParams & { limit: number; offset: number }]>(LIST_SQL.page),
  firstLine: statement<FirstLine, [orderId: bigint]>(LINE_SQL.first),
})

// A chain payment under way comes before the cancellation: its hash may come after the order ended,
// and the order is then reinstated and paid or the money credited (chainPaymentArrives) — processing.
function statusOf(r: Row, p: Payment | null): PayOrderStatus {
  if (p?.status === 'paid') return r.state === 'completed' ? 'completed' : 'paid'
  if (p && (p.status === 'pending' || p.status === 'confirming')) return 'processing'
  if (r.state === 'cancelled') return 'cancelled'
  return 'pending_payment'
}

function paymentOf(p: Payment | null, lang: LangCode): PaymentState | null {
  if (!p) return null
  return {
    method: p.method,
    status: p.status,
    chain: p.chain === 'bsc' || p.chain === 'nadi' ? p.chain : null,
    tx_hash: p.txHash,
    confirmations: p.confirmations,
    required: p.required,
    fail_msg: p.failReason ? translate(lang, FAIL_KEYS[p.failReason], p.failParams ?? undefined) : null,
  }
}

export interface OrdersService {
  list(userId: number, lang: LangCode, status: PayOrderStatus | undefined, page: number, pageSize: number): Promise<PagedList<PayOrder>>
  detail(userId: number, lang: LangCode, id: number): Promise<PayOrder>
  /** detail, read through a transaction's tx: it sees that transaction's writes (a keyed request's answer). */
  detailIn(tx: Queryable, userId: number, lang: LangCode, id: number): Promise<PayOrder>
  payTargets(userId: number, id: number): Promise<PayTargets>
  payByBalance(userId: number, lang: LangCode, id: number): Promise<PayOrder>
  payOnChain(userId: number, lang: LangCode, body: PayOnChainBody): Promise<PayOrder>
  cancel(userId: number, lang: LangCode, id: number): Promise<PayOrder>
}

export function createOrdersService(ctx: Ctx): OrdersService {
  async function ownIn(q: Queryable, userId: number, id: number): Promise<Row> {
    const r = await q.get(READ.byId, id)
    // Another user's order is as unknown to the caller as one that does not exist.
    if (!r || Number(r.user_id) !== userId) throw notFound('errors.orderNotFound')
    return r
  }

  /** The order as it is in `q`: a keyed request's answer, read in its effect's transaction, and the route's after it. */
  const wireIn = async (q: Queryable, id: number, lang: LangCode): Promise<PayOrder> => payOrderWireIn(ctx, q, (await q.get(READ.byId, id))!, lang)

  /** Inside a balance payment's transaction: the order must still be open and in time. */
  const payable = (id: number) => async (tx: Tx) => {
    await lockOrder(tx, id)
    const r = (await tx.get(READ.byId, id))!
    if (r.state === 'cancelled') throw conflict('errors.orderCancelled')
    if (r.state === 'completed') throw conflict('errors.orderAlreadyPaid')
    if (Number(r.expires_at) <= ctx.now()) throw conflict('errors.orderExpired')
  }

  return {
    async list(userId, lang, status, page, pageSize) {
      const args = { user: userId, status: status ?? null }
      const { n } = (await ctx.sql.get(READ.count, args))!
      const rows = await ctx.sql.all(READ.page, { ...args, limit: pageSize, offset: (page - 1) * pageSize })
      return { total: Number(n), list: await Promise.all(rows.map((r) => payOrderWireIn(ctx, ctx.sql, r, lang))) }
    },
    async detail(userId, lang, id) {
      return payOrderWireIn(ctx, ctx.sql, await ownIn(ctx.sql, userId, id), lang)
    },
    detailIn: async (tx, userId, lang, id) => payOrderWireIn(ctx, tx, await ownIn(tx, userId, id), lang),
    async payTargets(userId, id) {
      const r = await ownIn(ctx.sql, userId, id)
      const to = (() => {
        try {
          return receivingAddress(ctx)
        } catch {
          return null
        }
      })()
      const targets = ctx.chain
        .chains()
        .filter((c) => to && c.tokens[r.asset] && ctx.chain.missing(c.key, ['rpc', r.asset]).length === 0)
        .map((c) => ({ chain: c.key as 'bsc' | 'nadi', chain_id: c.id, token: c.tokens[r.asset]!, to: to!, confirmations: c.confirmations }))
      return { targets }
    },
    async payByBalance(userId, lang, id) {
      const r = await ownIn(ctx.sql, userId, id)
      answerKeyedIn((_, tx) => wireIn(tx, id, lang))
      await payFromBalance(ctx, { orderRef: orderRef(r.id), userId, asset: r.asset, amount: r.total, guard: payable(id) })
      return wireIn(ctx.sql, id, lang)
    },
    async payOnChain(userId, lang, body) {
      const r = await ownIn(ctx.sql, userId, body.id)
      answerKeyedIn((_, tx) => wireIn(tx, body.id, lang))
      // No time limit here: by the time a hash is submitted its tokens have left the wallet. Whether
      // the order is paid, reinstated or the money credited is chainPaymentArrives' word once it confirms.
      await submitChainPayment(ctx, { orderRef: orderRef(r.id), userId, asset: r.asset, amount: r.total, chain: body.chain, txHash: body.tx_hash })
      return wireIn(ctx.sql, body.id, lang)
    },
    async cancel(userId, lang, id) {
      await ownIn(ctx.sql, userId, id)
      answerKeyedIn((_, tx) => wireIn(tx, id, lang))
      await ctx.commits.write((tx) => cancelIfUnpaid(ctx, tx, id, 'user'))
      return wireIn(ctx.sql, id, lang)
    },
  }
}

/** What cancelling, reinstating and expiring run, in their transactions of the asynchronous way. */
const WRITE = statements({
  openPayment: statement<{ status: string }, [orderRef: string]>("SELECT status FROM payments WHERE order_ref = ? AND status <> 'failed' LIMIT 1"),
  cancel: statement<never, [at: number, id: number]>("UPDATE pay_orders SET state = 'cancelled', ended_at = ? WHERE id = ? AND state = 'open'"),
  reinstate: statement<never, [id: number]>("UPDATE pay_orders SET state = 'open', ended_at = NULL WHERE id = ? AND state = 'cancelled'"),
  // Orders paid, or with a chain payment under way, stay open while they are fulfilled: left out
  // here, else 500 of them would fill every pass and the ones really due would never be reached.
  due: statement<{ id: bigint }, [now: number]>(
    `SELECT o.id FROM pay_orders o WHERE o.state = 'open' AND o.expires_at <= ?
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_ref = '${ORDER_REF_PREFIX}' || o.id AND p.status <> 'failed')
     ORDER BY o.expires_at LIMIT 500`,
  ),
})

/**
 * Holds the order's row on PostgreSQL before a payment or a cancellation reads it: otherwise the
 * expiry job (or a cancel on another connection) reads it as open beside an uncommitted payment and
 * cancels a paid order, giving its stock back. SQLite's transactions take turns already.
 */
async function lockOrder(tx: Tx, id: number): Promise<void> {
  if (tx.dialect === 'postgres') await tx.get(READ.lock, id)
}

/**
 * Cancels an open order that has no payment paid or under way, in the caller's transaction. The user
 * is told why not; the expiry job simply skips it (a chain payment confirming may still pay it).
 */
async function cancelIfUnpaid(ctx: Ctx, tx: Tx, id: number, by: 'user' | 'expiry'): Promise<boolean> {
  await lockOrder(tx, id)
  const r = (await tx.get(READ.byId, id))!
  if (r.state === 'cancelled') {
    if (by === 'user') throw conflict('errors.orderCancelled')
    return false
  }
  const open = await tx.get(WRITE.openPayment, orderRef(id))
  if (open || r.state === 'completed') {
    if (by === 'user') throw open?.status === 'paid' || r.state === 'completed' ? conflict('errors.orderAlreadyPaid') : conflict('errors.orderPaymentPending')
    return false
  }
  if ((await tx.run(WRITE.cancel, ctx.now(), id)).changes === 1) {
    await giveBackStock(ctx, tx, id)
    await giveBackSeat(tx, id)
  }
  return true
}

/**
 * In the paying transaction of a confirmed chain payment (onChainArrival): pays an order still open,
 * reinstates one that ended when chainPaymentArrival allows it — its stock or seat taken again here,
 * in the same transaction as the payment's posting — or tells the payment to credit its payer.
 */
export async function chainPaymentArrives(ctx: Ctx, tx: Tx, e: ChainArrival): Promise<ArrivalVerdict> {
  const id = Number(e.orderRef.slice(ORDER_REF_PREFIX.length))
  const r = await tx.get(READ.byId, id)
  if (!r) throw new Error(`chain payment of ${e.orderRef}: no such order`)
  // Paid already: payments_open_order lets no second payment be open beside the paid one.
  if (r.state === 'completed') throw new Error(`chain payment of ${e.orderRef}: the order is completed`)
  const retake = async (): Promise<Retake> => {
    const kinds = [await stockToRetake(tx, id), await seatToRetake(tx, id)].filter((k) => k !== 'none')
    return kinds.includes('gone') ? 'gone' : kinds.includes('off_sale') ? 'off_sale' : kinds.length ? 'free' : 'none'
  }
  const outcome = chainPaymentArrival({
    state: r.state,
    expiresAt: Number(r.expires_at),
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    paidAt: e.paidAt,
    retake: r.state === 'cancelled' ? await retake() : 'none',
  })
  if (outcome.act === 'credit') return outcome.because === 'expired' ? 'order_expired' : 'order_cancelled'
  if (outcome.act === 'reinstate') {
    await tx.run(WRITE.reinstate, id)
    await retakeStock(ctx, tx, id)
    await retakeSeat(tx, id)
  }
  return 'pay'
}

/** One pass: cancels the open orders past their time with no payment paid or under way; returns how many. */
export async function expireOrders(ctx: Ctx): Promise<number> {
  const due = await ctx.sql.all(WRITE.due, ctx.now())
  let cancelled = 0
  for (const { id } of due) if (await ctx.sql.transaction((tx) => cancelIfUnpaid(ctx, tx, Number(id), 'expiry'))) cancelled++
  return cancelled
}

/** SPEC §4: unpaid orders are cancelled once their time is up. A pass a minute (a second on dev chains). */
export function startOrderExpiry(ctx: Ctx, everyMs = ctx.config.chain.devChains ? 1000 : 60_000): () => void {
  return startJobs(ctx, [{ name: 'order-expiry', everyMs, run: expireOrders }])
}
