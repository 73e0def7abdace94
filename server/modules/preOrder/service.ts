// Product orders (DESIGN §10): `preOrder/preOrder` turns a product, a specification and a quantity into
// an order to pay (server/modules/orders), taking the stock in the same transaction; payment fulfils
// it (fulfil(), run inside the payment's transaction); an operator ships what ships; the user (or the
// clock) confirms receipt. Payment status lives in payments/pay_orders, fulfilment in its own column.
import type { Selectable } from 'kysely'
import { checkText, maskPhone, trimText } from '../../../contract/addressRules.ts'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { Area } from '../../../contract/goods.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { REMARK_MAX, type PreOrderBody, type PreOrderResult, type PreOrderTips, type ShipTo, type ShopOrder, type ShopOrderTab } from '../../../contract/preOrder.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import type { PayOrdersTable } from '../../db/schema.ts'
import { badRequest, conflict, notFound } from '../../http/errors.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import { createPayOrderIn, payOrderWireIn, type OrdersService } from '../orders/service.ts'
import { checkHoldIn } from '../orders/holds.ts'
import { goldPriceIn, goldPricesQuotedIn, productIn, specIn, takeStockIn, type ProductRow } from '../goods/service.ts'
import { pickText, specUnitPrice } from '../goods/rules.ts'
import { dayOf } from '../release/schedule.ts'
import { createReleasePlan, planWireIn, type PlanRow } from '../release/service.ts'
import { addPerformanceIn } from '../user/performance.ts'
import { scorePurchase } from '../activity/scores.ts'
import { createDevices, issueCodes, type IssuedCode } from '../device/service.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'
import { demoCodesOf } from './demoCodes.ts'

type OrderRow = Selectable<PayOrdersTable>

/** Which order type each catalog area creates, and back. */
export const TYPE_OF: Record<Area, 'device' | 'gold' | 'car'> = { machine: 'device', gold: 'gold', car: 'car' }
const AREA_OF: Record<string, Area | undefined> = { device: 'machine', gold: 'gold', car: 'car' }

const EXPRESS_NO_RE = /^[A-Za-z0-9-]{4,40}$/

const SQL = {
  order: 'SELECT * FROM pay_orders WHERE id = ?',
  lines: 'SELECT * FROM order_lines WHERE order_id = ? ORDER BY id',
  address: 'SELECT * FROM addresses WHERE id = ? AND user_id = ?',
  insertLine: 'INSERT INTO order_lines (order_id, product_id, spec_id, quantity, unit_price, power, name, spec_name, cover) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  paid: "UPDATE pay_orders SET paid_at = ?, fulfilment = ?, state = CASE WHEN ? = 'completed' THEN 'completed' ELSE state END, ended_at = CASE WHEN ? = 'completed' THEN ? ELSE ended_at END WHERE id = ? AND fulfilment IS NULL",
  ship: "UPDATE pay_orders SET fulfilment = 'pending_receipt', express_company = ?, express_no = ?, shipped_at = ? WHERE id = ? AND fulfilment = 'pending_shipment'",
  receive: "UPDATE pay_orders SET fulfilment = 'completed', state = 'completed', received_at = ?, received_by = ?, ended_at = ? WHERE id = ? AND fulfilment = 'pending_receipt'",
  dueReceipts: "SELECT id FROM pay_orders WHERE fulfilment = 'pending_receipt' AND shipped_at <= ? ORDER BY shipped_at LIMIT 500",
  releaseOf: 'SELECT * FROM release_plans WHERE order_id = ?',
  // One intent, one order: the caller's order of this specification and quantity still waiting for payment.
  sameIntent: `SELECT o.id FROM pay_orders o JOIN order_lines l ON l.order_id = o.id
                 WHERE o.user_id = ? AND l.spec_id = ? AND l.quantity = ? AND o.state = 'open' AND o.paid_at IS NULL AND o.expires_at > ?
                   AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_ref = 'order:' || o.id AND p.status = 'paid')
                 ORDER BY o.id DESC LIMIT 1`,
  resume: 'UPDATE pay_orders SET ship_to = ?, remark = ? WHERE id = ?',
  unpaid: `SELECT o.* FROM pay_orders o WHERE o.user_id = ? AND o.state = 'open' AND o.expires_at > ?
             AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_ref = 'order:' || o.id AND p.status = 'paid')
           ORDER BY o.expires_at`,
} as const

type Fulfilment = 'pending_shipment' | 'completed'
type LineRow = { product_id: bigint; spec_id: bigint; name: string; spec_name: string; cover: string; quantity: bigint; unit_price: bigint; power: bigint }
type Address = { name: string; phone: string; area: string; address: string }
type ListArgs = { user: number; type: string }
type TabArgs = ListArgs & { tab: ShopOrderTab }
type Page = { limit: number; offset: number }
// A tab's orders: `all` is every paid one (fulfilment set), any other tab that fulfilment.
const ALL = 'user_id = @user AND type = @type AND fulfilment IS NOT NULL'
const TAB = 'user_id = @user AND type = @type AND fulfilment = @tab'
const S = statements({
  order: statement<OrderRow, [id: number | bigint]>(SQL.order),
  lines: statement<LineRow, [orderId: number | bigint]>(SQL.lines),
  firstLine: statement<{ product_id: bigint }, [orderId: number]>('SELECT product_id FROM order_lines WHERE order_id = ? ORDER BY id LIMIT 1'),
  product: statement<ProductRow, [id: bigint]>('SELECT * FROM products WHERE id = ?'),
  address: statement<Address, [id: number, userId: number]>(SQL.address),
  insertLine: statement<never, [order: number, product: bigint, spec: bigint, quantity: bigint, unit: bigint, power: bigint, name: string, specName: string, cover: string]>(SQL.insertLine),
  paid: statement<never, [paidAt: number, status: Fulfilment, s1: Fulfilment, s2: Fulfilment, endedAt: number, id: number]>(SQL.paid),
  ship: statement<never, [company: string, number: string, at: number, id: number]>(SQL.ship),
  receive: statement<never, [at: number, by: 'user' | 'auto', endedAt: number, id: number | bigint]>(SQL.receive),
  dueReceipts: statement<{ id: bigint }, [shippedBy: number]>(SQL.dueReceipts),
  releaseOf: statement<PlanRow, [orderId: bigint]>(SQL.releaseOf),
  sameIntent: statement<{ id: bigint }, [userId: number, specId: bigint, quantity: bigint, now: number]>(SQL.sameIntent),
  resume: statement<never, [shipTo: string | null, remark: string, id: bigint]>(SQL.resume),
  unpaid: statement<OrderRow, [userId: number, now: number]>(SQL.unpaid),
  countAll: statement<{ n: bigint }, [ListArgs]>(`SELECT count(*) AS n FROM pay_orders WHERE ${ALL}`),
  countTab: statement<{ n: bigint }, [TabArgs]>(`SELECT count(*) AS n FROM pay_orders WHERE ${TAB}`),
  pageAll: statement<OrderRow, [ListArgs & Page]>(`SELECT * FROM pay_orders WHERE ${ALL} ORDER BY id DESC LIMIT @limit OFFSET @offset`),
  pageTab: statement<OrderRow, [TabArgs & Page]>(`SELECT * FROM pay_orders WHERE ${TAB} ORDER BY id DESC LIMIT @limit OFFSET @offset`),
})

/** The remark as kept: trimmed, one line, at most REMARK_MAX characters; "" when left out. */
export function cleanRemark(raw: string | undefined): string {
  if (raw === undefined) return ''
  const problem = checkText(raw, REMARK_MAX)
  if (problem === 'required') return ''
  if (problem === 'tooLong') throw badRequest('errors.remarkTooLong', { max: REMARK_MAX })
  if (problem) throw badRequest('errors.remarkInvalid')
  return trimText(raw)
}

export interface FulfilDeps {
  /** The NADI price (USDT, units of 1e-8) a release is converted at: the market's last, else the reference. */
  nadiPrice(): bigint
}

/**
 * Runs inside the payment's transaction, once, when an order of a product is paid: the fulfilment
 * starts (pending shipment, or completed for what does not ship), the release plan is created, and
 * the value is added to the buyer's and their ancestors' performance (DESIGN §10, §12).
 */
export async function fulfil(ctx: Ctx, tx: Tx, deps: FulfilDeps, orderId: number, paidAt: number): Promise<void> {
  const o = await tx.get(S.order, orderId)
  const area = o ? AREA_OF[o.type] : undefined
  // Only an order of products (it has lines) is fulfilled here; other orders have their own handlers.
  const line = await tx.get(S.firstLine, orderId)
  if (!o || !area || !line) return
  const status = o.ships === 1n ? 'pending_shipment' : 'completed'
  if ((await tx.run(S.paid, paidAt, status, status, status, paidAt, orderId)).changes !== 1) return
  await scorePurchase(tx, o, paidAt)
  const usdt = o.asset === 'USDT' ? o.total : (o.total * deps.nadiPrice()) / 100_000_000n
  const product = await tx.get(S.product, line.product_id)
  if (product && product.release_days > 0n) {
    await createReleasePlan(tx, {
      userId: o.user_id,
      orderId: o.id,
      area,
      value: usdt,
      ppm: product.release_ppm,
      days: Number(product.release_days),
      price: deps.nadiPrice(),
      startDay: dayOf(paidAt) + 1,
      at: paidAt,
    })
  }
  await addPerformanceIn(tx, ctx.sql, o.user_id, usdt)
  // A device order: one device per unit, pending activation with the code shipped with it.
  await createDevices(tx, o.id, paidAt)
}

/**
 * The unit price an order is charged: the price now, or — when the confirm screen showed another —
 * the one it showed, if the gold price behind it was in force within the quote's validity. A total
 * shown that no such price makes is refused with the total of now, so the user sees it before paying.
 */
async function chargedUnitPrice(ctx: Ctx, tx: Tx, spec: Parameters<typeof specUnitPrice>[0], gold: boolean, quantity: bigint, expected: string | undefined): Promise<bigint> {
  const now = specUnitPrice(spec, gold ? await goldPriceIn(ctx, tx) : null)
  if (expected === undefined) return now
  const shown = parseMoney(expected)
  if (shown === now * quantity) return now
  const quoted = gold ? (await goldPricesQuotedIn(ctx, tx)).map((g) => specUnitPrice(spec, g)).find((u) => u * quantity === shown) : undefined
  if (quoted !== undefined) return quoted
  throw conflict('errors.priceChanged', { total: formatMoney(now * quantity) })
}

export type PreOrderService = ReturnType<typeof createPreOrderService>

export function createPreOrderService(ctx: Ctx, orders: OrdersService) {
  /** An order as the shop screens show it, read through `q`: a transaction's tx (its writes seen), or the database. */
  async function shopWire(q: Queryable, o: OrderRow, lang: LangCode): Promise<ShopOrder> {
    const [lines, plan, pay, codes] = await Promise.all([
      q.all(S.lines, o.id),
      q.get(S.releaseOf, o.id),
      payOrderWireIn(ctx, q, o, lang),
      o.type === 'device' ? demoCodesOf(ctx, q, Number(o.id)) : [],
    ])
    let shipTo: ShipTo | null = null
    if (o.ship_to) {
      const a = JSON.parse(o.ship_to) as ShipTo
      shipTo = { ...a, phone: maskPhone(a.phone) }
    }
    return {
      id: Number(o.id),
      order_no: o.order_no,
      area: AREA_OF[o.type] as Area,
      status: o.fulfilment,
      pay_status: pay.status,
      lines: lines.map((l) => ({
        goods_id: Number(l.product_id),
        spec_id: Number(l.spec_id),
        name: pickText(l.name, lang),
        spec_name: pickText(l.spec_name, lang),
        cover: l.cover,
        quantity: Number(l.quantity),
        unit_price: formatMoney(l.unit_price),
        power: formatMoney(l.power),
      })),
      total_price: formatMoney(o.total),
      asset: o.asset,
      ship_to: shipTo,
      remark: o.remark ?? '',
      express_company: o.express_company,
      express_no: o.express_no,
      create_time: Number(o.created_at),
      pay_time: o.paid_at === null ? null : Number(o.paid_at),
      ship_time: o.shipped_at === null ? null : Number(o.shipped_at),
      confirm_time: o.received_at === null ? null : Number(o.received_at),
      auto_confirm_at: o.fulfilment === 'pending_receipt' && o.shipped_at !== null ? Number(o.shipped_at) + ctx.config.commerce.autoReceiptMs : null,
      release: plan ? await planWireIn(q, plan, lang) : null,
      ...(codes.length > 0 ? { activation_codes: codes } : {}),
    }
  }

  const shopWireOf = async (q: Queryable, id: number, lang: LangCode) => shopWire(q, (await q.get(S.order, id))!, lang)

  /** The caller's order of this area; anything else (another user's, another area's) is unknown. */
  async function own(userId: number, area: Area, id: number): Promise<OrderRow> {
    const o = await ctx.sql.get(S.order, id)
    if (!o || Number(o.user_id) !== userId || AREA_OF[o.type] !== area) throw notFound('errors.orderNotFound')
    return o
  }

  return {
    async create(userId: number, lang: LangCode, body: PreOrderBody): Promise<PreOrderResult> {
      const remark = cleanRemark(body.remark)
      let resumed = false
      // Read inside the order's transaction, where `resumed` is known: the order as this request left
      // it. Read after the commit, a resumed order could already be paid by the request that made it,
      // and a keyed request's kept answer would not be the one sent.
      const answer = async (q: Queryable, id: number): Promise<PreOrderResult> => {
        const [order, shop] = await Promise.all([orders.detailIn(q, userId, lang, id), shopWireOf(q, id, lang)])
        return { order, shop_order: shop, resumed }
      }
      return ctx.commits.write(async (tx) => answer(tx, await placeIn(tx)))

      async function placeIn(tx: Tx): Promise<number> {
        const p = await productIn(tx, body.goods_id)
        if (!p || p.area !== body.area || p.active !== 1n) throw notFound('errors.goodsNotFound')
        const spec = await specIn(tx, body.spec_id)
        if (!spec || spec.product_id !== p.id) throw badRequest('errors.specNotOfGoods')
        if (spec.active !== 1n) throw conflict('errors.specUnavailable')
        let shipTo: string | null = null
        if (p.ships === 1n) {
          if (body.address_id === undefined) throw badRequest('errors.addressRequiredForOrder')
          const a = await tx.get(S.address, body.address_id, userId)
          if (!a) throw notFound('errors.addressNotFound')
          shipTo = JSON.stringify({ name: a.name, phone: a.phone, area: a.area, address: a.address })
        }
        const quantity = BigInt(body.quantity)
        // The same product, specification and quantity again while its order waits for payment (the
        // dialog closed, the screen reloaded, another phone) is that order, resumed — at the price it
        // holds, to the address and with the remark chosen now — never a second one.
        const same = await tx.get(S.sameIntent, userId, spec.id, quantity, ctx.now())
        if (same) {
          await tx.run(S.resume, shipTo, remark, same.id)
          resumed = true
          return Number(same.id)
        }
        const unit = await chargedUnitPrice(ctx, tx, spec, p.area === 'gold', quantity, body.expected_total)
        if (spec.stock < quantity) throw conflict('errors.outOfStock', { stock: Number(spec.stock) })
        await checkHoldIn(ctx, tx, { userId, item: { kind: 'spec', specId: spec.id, productId: p.id }, quantity, left: spec.stock, asset: 'USDT', total: unit * quantity })
        // Another process's order took the stock since it was read: the refusal names what is left now.
        if (!(await takeStockIn(ctx, tx, spec.id, quantity))) throw conflict('errors.outOfStock', { stock: Number((await specIn(tx, body.spec_id))?.stock ?? 0n) })
        const orderId = await createPayOrderIn(ctx, tx, {
          userId,
          type: TYPE_OF[body.area],
          asset: 'USDT',
          total: unit * quantity,
          payWithinMs: ctx.config.orders.holds.holdMs,
          ships: p.ships === 1n,
          shipTo,
          remark,
        })
        await tx.run(S.insertLine, orderId, p.id, spec.id, quantity, unit, spec.power, p.name, spec.name, p.cover)
        return orderId
      }
    },

    async tips(userId: number, lang: LangCode): Promise<PreOrderTips> {
      const rows = await ctx.sql.all(S.unpaid, userId, ctx.now())
      return { count: rows.length, next: rows[0] ? await payOrderWireIn(ctx, ctx.sql, rows[0], lang) : null }
    },

    async list(userId: number, area: Area, lang: LangCode, tab: ShopOrderTab, page: number, pageSize: number): Promise<PagedList<ShopOrder>> {
      const args = { user: userId, type: TYPE_OF[area] }
      const at = { limit: pageSize, offset: (page - 1) * pageSize }
      const { n } = (tab === 'all' ? await ctx.sql.get(S.countAll, args) : await ctx.sql.get(S.countTab, { ...args, tab }))!
      const rows = tab === 'all' ? await ctx.sql.all(S.pageAll, { ...args, ...at }) : await ctx.sql.all(S.pageTab, { ...args, tab, ...at })
      return { total: Number(n), list: await Promise.all(rows.map((o) => shopWire(ctx.sql, o, lang))) }
    },

    async detail(userId: number, area: Area, lang: LangCode, id: number): Promise<ShopOrder> {
      return shopWire(ctx.sql, await own(userId, area, id), lang)
    },

    /** SPEC §4: confirming receipt moves an order from pending receipt to completed. */
    async receipt(userId: number, area: Area, lang: LangCode, id: number): Promise<ShopOrder> {
      await own(userId, area, id)
      answerKeyedIn((_, tx) => shopWireOf(tx, id, lang))
      await ctx.commits.write(async (tx) => {
        const o = (await tx.get(S.order, id))!
        if (o.fulfilment !== 'pending_receipt') throw conflict(o.fulfilment === 'completed' ? 'errors.receiptAlreadyConfirmed' : 'errors.receiptNotPending')
        const now = ctx.now()
        await tx.run(S.receive, now, 'user', now, id)
      })
      return shopWireOf(ctx.sql, id, lang)
    },
  }
}

export class ShipRefused extends Error {
  override name = 'ShipRefused'
}

/** The operator ships a paid order: pending shipment → pending receipt, with the carrier and tracking number. */
export async function shipOrder(
  ctx: Pick<Ctx, 'sql' | 'now'>,
  id: number,
  company: string,
  number: string,
  /** Runs in the shipping's transaction with the codes issued (the demo keeps them to show the buyer). */
  withCodes: (tx: Tx, codes: IssuedCode[]) => Promise<void> = async () => {},
): Promise<OrderRow & { device_codes: IssuedCode[] }> {
  const c = company.trim()
  if (checkText(c, 40) !== null) throw new ShipRefused('the express company is 1–40 characters of one line')
  if (!EXPRESS_NO_RE.test(number)) throw new ShipRefused('the tracking number is 4–40 letters, digits or dashes')
  return ctx.sql.transaction(async (tx) => {
    const o = await tx.get(S.order, id)
    if (!o || !AREA_OF[o.type]) throw new ShipRefused(`no product order ${id}`)
    if (o.fulfilment !== 'pending_shipment') throw new ShipRefused(`order ${id} is ${o.fulfilment ?? (o.state === 'cancelled' ? 'cancelled' : 'not paid')}, not pending shipment`)
    // Conditional on pending shipment: another process's `ship` of the same order may have won since the read.
    if ((await tx.run(S.ship, c, number, ctx.now(), id)).changes !== 1) throw new ShipRefused(`order ${id} was shipped meanwhile`)
    // A device order: each device's activation code is issued now, to be shipped with it.
    const deviceCodes = o.type === 'device' ? await issueCodes(tx, id, ctx.now()) : []
    await withCodes(tx, deviceCodes)
    return { ...(await tx.get(S.order, id))!, device_codes: deviceCodes }
  })
}

/** One pass: receipt is confirmed for orders shipped longer ago than the configured days. Returns how many. */
export async function autoConfirmReceipts(ctx: Ctx): Promise<number> {
  const now = ctx.now()
  const due = await ctx.sql.all(S.dueReceipts, now - ctx.config.commerce.autoReceiptMs)
  if (due.length === 0) return 0
  return ctx.sql.transaction(async (tx) => {
    let n = 0
    for (const { id } of due) n += (await tx.run(S.receive, now, 'auto', now, id)).changes
    return n
  })
}

export function startReceiptJob(ctx: Ctx, everyMs = 60_000): () => void {
  return startJobs(ctx, [{ name: 'auto-receipt', everyMs, run: autoConfirmReceipts }])
}

