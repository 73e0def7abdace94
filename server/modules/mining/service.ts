// Destroy and joint mining (issue 11 part 3; SPEC §1, §4, §5): an order to pay of type destroy
// (NADI, burned once paid) or joint (USDT, to the treasury) becomes power — amount × the configured
// multiplier, plus gift power — released daily as NADI by the settlement until exhausted. A newcomer
// gets trial power at registration. The mining page reads the caller's positions and lines.
import crypto from 'node:crypto'
import type { Selectable, Transaction } from 'kysely'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { DestroyRecord, MiningInfo, MiningJointBody, MiningJointQuote, PowerLogItem } from '../../../contract/mining.ts'
import { formatMoney, parseAmount, parseMoney } from '../../../contract/money.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import type { Ctx } from '../../context.ts'
import type { Config } from '../../config.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import type { DB, PositionsTable } from '../../db/schema.ts'
import { badRequest, conflict, invalidField, notFound } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { createPayOrderIn, type OrdersService } from '../orders/service.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { settlementHalt } from '../settlement/service.ts'
import { addPerformanceIn } from '../user/performance.ts'
import { quoteRefusal, type QuoteUse } from '../wallet/exchange.ts'
import { scoreMiningBuy } from '../activity/scores.ts'
import { boughtPower, destroyStatus, miningPause, periodAmount, positionStatus, powerFits, ppmPercent, ppmTimes, usdtValue } from './rules.ts'
import { answerKeyedIn } from '../../db/keyedEffect.ts'

type PositionRow = Selectable<PositionsTable>
const MINING_KINDS = ['device', 'destroy', 'joint', 'trial', 'node'] as const

const SQL = {
  order: 'SELECT * FROM pay_orders WHERE id = ?',
  heldPrice: 'SELECT price FROM joint_order_prices WHERE order_id = ?',
  holdPrice: 'INSERT INTO joint_order_prices (order_id, price) VALUES (?, ?)',
  quote: 'SELECT * FROM joint_quotes WHERE id = ?',
  issueQuote: 'INSERT INTO joint_quotes (id, user_id, price, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
  useQuote: 'UPDATE joint_quotes SET used_at = ? WHERE id = ? AND used_at IS NULL',
  // Unused quotes are kept a while past expiry, so a confirm racing the expiry still hears "expired".
  dropQuotes: 'DELETE FROM joint_quotes WHERE user_id = ? AND used_at IS NULL AND expires_at < ?',
  position: `INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, gift, start_day, end_day, source, created_at)
             VALUES (@user, @kind, 'NADI', @base, @rate, 1, @remaining, @gift, @start, @end, @source, @at)`,
  buy: `INSERT INTO mining_buys (user_id, kind, order_id, position_id, asset, amount, price, usdt_value, power, gift, created_at)
        VALUES (@user, @kind, @order, @position, @asset, @amount, @price, @usdt, @power, @gift, @at)`,
  done: "UPDATE pay_orders SET state = 'completed', fulfilment = 'completed', paid_at = ?, ended_at = ? WHERE id = ? AND state = 'open'",
} as const

/** What placing a joint order and issuing its quote run, in their group-commit actions. */
const PLACE = statements({
  quote: statement<QuoteUse & { id: string; price: bigint }, [id: string]>(SQL.quote),
  useQuote: statement<never, [at: number, id: string]>(SQL.useQuote),
  holdPrice: statement<never, [orderId: number, price: bigint]>(SQL.holdPrice),
  dropQuotes: statement<never, [userId: number, before: number]>(SQL.dropQuotes),
  issueQuote: statement<never, [id: string, userId: number, price: bigint, at: number, expiresAt: number]>(SQL.issueQuote),
})

type PaidOrder = { id: bigint; user_id: bigint; type: string; asset: string; total: bigint; state: string }
type PositionArgs = { user: bigint; kind: string; base: bigint; rate: number; remaining: bigint; gift: bigint; start: number; end: number | null; source: string; at: number }
type BuyArgs = { user: bigint; kind: string; order: bigint; position: bigint; asset: string; amount: bigint; price: bigint; usdt: bigint; power: bigint; gift: bigint; at: number }
/** What fulfilMining runs, in the paying transaction of the asynchronous way. */
const FULFIL = statements({
  order: statement<PaidOrder, [id: number]>(SQL.order),
  heldPrice: statement<{ price: bigint }, [orderId: bigint]>(SQL.heldPrice),
  position: statement<{ id: bigint }, [PositionArgs]>(`${SQL.position} RETURNING id`),
  buy: statement<never, [BuyArgs]>(SQL.buy),
  done: statement<never, [paidAt: number, endedAt: number, id: bigint]>(SQL.done),
})

const KINDS_IN = `kind IN (${MINING_KINDS.map((k) => `'${k}'`).join(', ')})`
type Sum = { s: bigint }
type Page = [userId: number, limit: number, offset: number]
type BuyRow = { id: bigint; kind: 'destroy' | 'joint' | 'trial'; asset: string; amount: bigint; price: bigint; usdt_value: bigint; created_at: bigint; pstatus: PositionRow['status'] }

/** What the mining page reads, outside any transaction. */
const READS = statements({
  positions: statement<PositionRow, [userId: number]>(`SELECT * FROM positions WHERE user_id = ? AND ${KINDS_IN} ORDER BY id DESC`),
  // SPEC §3 flow pool: NADI in circulation, what users hold (available and frozen, fund and trade).
  circulating: statement<Sum, []>("SELECT coalesce(sum(available + frozen), 0) AS s FROM ledger_accounts WHERE user_id IS NOT NULL AND asset = 'NADI'"),
  yesterday: statement<Sum, [userId: number, day: number]>(
    `SELECT coalesce(sum(l.amount), 0) AS s FROM settlement_lines l JOIN positions p ON p.id = l.position_id
     WHERE p.user_id = ? AND p.${KINDS_IN} AND l.day = ?`,
  ),
  buyCount: statement<{ n: bigint }, [userId: number]>('SELECT count(*) AS n FROM mining_buys WHERE user_id = ?'),
  buys: statement<BuyRow, Page>(
    `SELECT b.*, p.status AS pstatus FROM mining_buys b JOIN positions p ON p.id = b.position_id
     WHERE b.user_id = ? ORDER BY b.id DESC LIMIT ? OFFSET ?`,
  ),
  positionCount: statement<{ n: bigint }, [userId: number]>(`SELECT count(*) AS n FROM positions WHERE user_id = ? AND ${KINDS_IN}`),
  positionPage: statement<PositionRow, Page>(`SELECT * FROM positions WHERE user_id = ? AND ${KINDS_IN} ORDER BY id DESC LIMIT ? OFFSET ?`),
})

export interface MiningDeps {
  /** The NADI price (USDT, units of 1e-8): the market's last, else the reference. */
  nadiPrice(): bigint
}

/**
 * Runs inside the payment's transaction when a destroy or joint order is paid: the NADI is burned
 * (from the treasury the payment paid), the power starts tomorrow, and the order is completed. The
 * order's USDT value counts as the buyer's performance, as a shop order's does (DESIGN §12).
 */
export async function fulfilMining(ctx: Pick<Ctx, 'sql' | 'config'>, tx: Tx, deps: MiningDeps, orderId: number, paidAt: number): Promise<void> {
  const o = await tx.get(FULFIL.order, orderId)
  if (!o || (o.type !== 'destroy' && o.type !== 'joint') || o.state !== 'open') return
  const cfg = ctx.config.mining
  // A joint order pays at the price it was placed at; one placed before prices were held, at today's.
  const held = o.type === 'joint' ? await tx.get(FULFIL.heldPrice, o.id) : undefined
  const price = held?.price ?? deps.nadiPrice()
  const { power, gift } = boughtPower(o.type, o.total, price, cfg)
  const usdt = o.type === 'destroy' ? usdtValue(o.total, price) : o.total
  if (o.type === 'destroy') {
    // SPEC §1: destroyed NADI leaves circulation; the audit shows it under `burned`.
    await ledger.transfer(tx, { ref: `destroy:${o.id}`, reason: 'destroy', userId: null, from: ledger.TREASURY, to: ledger.BURNED, asset: 'NADI', amount: o.total, at: paidAt, meta: { order: o.id } })
  }
  const position = (await tx.get(FULFIL.position, { user: o.user_id, kind: o.type, base: power + gift, rate: cfg.releasePpm, remaining: power + gift, gift, start: dayOf(paidAt) + 1, end: null, source: `order:${o.id}`, at: paidAt }))!
  await tx.run(FULFIL.buy, { user: o.user_id, kind: o.type, order: o.id, position: position.id, asset: o.asset, amount: o.total, price, usdt, power, gift, at: paidAt })
  await scoreMiningBuy(tx, o.type, o.user_id, o.total, paidAt)
  await tx.run(FULFIL.done, paidAt, paidAt, o.id)
  await addPerformanceIn(tx, ctx.sql, o.user_id, usdt)
}

/** At registration, in its transaction: the newcomer's trial power, released over the trial days. */
export async function grantTrial(trx: Transaction<DB>, config: Pick<Config, 'mining' | 'nadiReferencePrice'>, userId: bigint, now: number): Promise<void> {
  const power = config.mining.trialPower
  if (power <= 0n) return
  const days = config.mining.trialDays
  const start = dayOf(now) + 1
  const { id } = await trx
    .insertInto('positions')
    .values({
      user_id: userId,
      kind: 'trial',
      asset: 'NADI',
      base: power,
      // The whole trial power over its days: ceil(1e6 / days) millionths a day, capped by what remains.
      rate_ppm: BigInt(Math.ceil(1_000_000 / days)),
      remaining: power,
      start_day: BigInt(start),
      end_day: BigInt(start + days),
      source: `trial:${userId}`,
      created_at: BigInt(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .insertInto('mining_buys')
    .values({ user_id: userId, kind: 'trial', order_id: null, position_id: id, asset: 'NADI', amount: 0n, price: 0n, usdt_value: 0n, power, gift: 0n, created_at: BigInt(now) })
    .execute()
}

export type MiningService = ReturnType<typeof createMiningService>

/** Unused joint quotes are kept this long after they expire (a confirm racing the expiry still hears why). */
const QUOTE_KEEP_MS = 3_600_000

/** How long the flow pool figure is reused: it sums every user's NADI, and a minute old is exact enough for a headline. */
export const FLOW_POOL_TTL_MS = 60_000

export function createMiningService(ctx: Ctx, orders: OrdersService, deps: MiningDeps) {
  const cfg = ctx.config.mining
  const pause = async () => miningPause(await settlementHalt(ctx), dayStart)
  let flow: { at: number; amount: bigint } | null = null
  async function flowPool(): Promise<bigint> {
    const now = ctx.now()
    if (!flow || now - flow.at >= FLOW_POOL_TTL_MS || now < flow.at) flow = { at: now, amount: (await ctx.sql.get(READS.circulating))!.s }
    return flow.amount
  }

  /** How a joint order is priced: at a quote's locked price, or (app versions before quotes) at a previewed price that must still be current. */
  type Pricing = { quoteId: string } | { previewed: bigint }

  /** The price a joint order is placed at, read in the transaction that places it; throws the refusal. */
  async function placedPrice(tx: Tx, userId: number, pricing: Pricing): Promise<bigint> {
    const now = ctx.now()
    if ('previewed' in pricing) {
      const price = deps.nadiPrice()
      if (pricing.previewed !== price) throw conflict('errors.jointPriceMoved', { now: formatMoney(price), previewed: formatMoney(pricing.previewed) })
      return price
    }
    const q = await tx.get(PLACE.quote, pricing.quoteId)
    const refusal = quoteRefusal(q, userId, now)
    const gone = { now: formatMoney(deps.nadiPrice()) }
    if (refusal === 'missing') throw notFound('errors.jointQuoteGone', gone)
    // Conditional on unused: a confirm of the same quote in another process may have used it since the read.
    if (refusal !== null || (await tx.run(PLACE.useQuote, now, pricing.quoteId)).changes !== 1) throw conflict('errors.jointQuoteGone', gone)
    return q!.price
  }

  async function order(userId: number, lang: LangCode, type: 'destroy' | 'joint', amountText: string, pricing?: Pricing): Promise<PayOrder> {
    // The schema checked the format; what is left to refuse is more than the ledger holds.
    const amount = parseAmount(amountText)
    if (amount === null || !powerFits(type, amount, deps.nadiPrice(), cfg)) throw invalidField('amount')
    const min = type === 'destroy' ? cfg.destroyMin : cfg.jointMin
    if (amount < min) throw badRequest(type === 'destroy' ? 'errors.destroyMin' : 'errors.jointMin', { amount: formatMoney(min) })
    answerKeyedIn((orderId: number, tx) => orders.detailIn(tx, userId, lang, orderId))
    const id = await ctx.commits.write(async (tx) => {
      // Priced in the transaction that places the order, so the price held is the price checked, and a
      // refused order leaves its quote unused.
      const price = pricing === undefined ? null : await placedPrice(tx, userId, pricing)
      const orderId = await createPayOrderIn(ctx, tx, { userId, type, asset: type === 'destroy' ? 'NADI' : 'USDT', total: amount })
      if (price !== null) await tx.run(PLACE.holdPrice, orderId, price)
      return orderId
    })
    return orders.detail(userId, lang, id)
  }

  return {
    async info(userId: number): Promise<MiningInfo> {
      const rows = await ctx.sql.all(READS.positions, userId)
      const today = dayOf(ctx.now())
      let power = 0n
      let trial = 0n
      let estimate = 0n
      for (const p of rows) {
        if (p.status !== 'active') continue
        power += p.remaining ?? p.base
        if (p.kind === 'trial') trial += p.remaining ?? p.base
        const due = Number(p.start_day) <= today && (p.end_day === null || today < Number(p.end_day)) && (today - Number(p.start_day) + 1) % Number(p.period_days) === 0
        if (due) estimate += periodAmount(p.base, p.rate_ppm, p.remaining)
      }
      const yesterday = (await ctx.sql.get(READS.yesterday, userId, today - 1))!.s
      return {
        power: formatMoney(power),
        trial_power: formatMoney(trial),
        today_estimate: formatMoney(estimate),
        yesterday: formatMoney(yesterday),
        nadi_price: formatMoney(deps.nadiPrice()),
        destroy_min: formatMoney(cfg.destroyMin),
        joint_min: formatMoney(cfg.jointMin),
        destroy_multiplier: ppmTimes(cfg.destroyMultiplierPpm),
        joint_multiplier: ppmTimes(cfg.jointMultiplierPpm),
        gift_percent: ppmPercent(cfg.giftPpm),
        release_percent: ppmPercent(BigInt(cfg.releasePpm)),
        pause: await pause(),
        // The destroy pool is maintained by the ledger: destroy mining is the only thing that burns.
        destroy_pool: formatMoney((await ledger.balance(ctx.sql, ledger.BURNED, 'NADI')).available),
        flow_pool: formatMoney(await flowPool()),
      }
    },

    destroy: (userId: number, lang: LangCode, amount: string) => order(userId, lang, 'destroy', amount),
    /** A joint order priced by exactly one of a quote id or (app versions before quotes) a previewed price. */
    joint(userId: number, lang: LangCode, body: MiningJointBody): Promise<PayOrder> {
      if ((body.quote_id === undefined) === (body.price === undefined)) throw badRequest('errors.jointQuoteRequired')
      return order(userId, lang, 'joint', body.amount, body.quote_id !== undefined ? { quoteId: body.quote_id } : { previewed: parsePrice(body.price!) })
    },

    /** A NADI price locked for the caller's joint mining for NADI_JOINT_QUOTE_TTL_MS. */
    async jointQuote(userId: number): Promise<MiningJointQuote> {
      const now = ctx.now()
      const id = crypto.randomBytes(18).toString('base64url')
      const price = deps.nadiPrice()
      const expiresAt = now + cfg.jointQuoteTtlMs
      await ctx.commits.write(async (tx) => {
        await tx.run(PLACE.dropQuotes, userId, now - QUOTE_KEEP_MS)
        await tx.run(PLACE.issueQuote, id, userId, price, now, expiresAt)
      })
      return { quote_id: id, price: formatMoney(price), expires_at: expiresAt }
    },

    async destroyList(userId: number, page: number, pageSize: number): Promise<PagedList<DestroyRecord>> {
      const { n } = (await ctx.sql.get(READS.buyCount, userId))!
      const rows = await ctx.sql.all(READS.buys, userId, pageSize, (page - 1) * pageSize)
      const paused = await pause()
      return {
        total: Number(n),
        list: rows.map((r) => {
          const status = destroyStatus(r.kind, positionStatus(r.pstatus, paused))
          return {
            id: Number(r.id),
            type: r.kind,
            price: formatMoney(r.price),
            amount: formatMoney(r.amount),
            asset: r.asset,
            usdt_value: formatMoney(r.usdt_value),
            created_at: Number(r.created_at),
            status,
            pause: status === 2 ? paused : null,
          }
        }),
      }
    },

    async powerLog(userId: number, page: number, pageSize: number): Promise<PagedList<PowerLogItem>> {
      const { n } = (await ctx.sql.get(READS.positionCount, userId))!
      const rows = await ctx.sql.all(READS.positionPage, userId, pageSize, (page - 1) * pageSize)
      const paused = await pause()
      return {
        total: Number(n),
        list: rows.map((p) => {
          const status = positionStatus(p.status, paused)
          return {
            id: Number(p.id),
            type: p.kind as PowerLogItem['type'],
            buy_power: formatMoney(p.base - p.gift),
            gift_power: formatMoney(p.gift),
            released: formatMoney(p.paid),
            remaining: p.remaining === null ? null : formatMoney(p.remaining),
            daily: formatMoney(p.status === 'active' ? periodAmount(p.base, p.rate_ppm, p.remaining) : 0n),
            release_percent: ppmPercent(p.rate_ppm),
            days: p.kind === 'trial' && p.end_day !== null ? Number(p.end_day) - Number(p.start_day) : null,
            status,
            pause: status === 'paused' ? paused : null,
            start_date: dayStart(Number(p.start_day)),
            settled_date: p.settled_day === null ? null : dayStart(Number(p.settled_day)),
          }
        }),
      }
    },
  }
}

/** The NADI price a joint preview used: a positive decimal; else the field's 400. Only compared, never stored as sent. */
function parsePrice(text: string): bigint {
  const price = parseMoney(text)
  if (price === null || price <= 0n) throw badRequest('errors.priceInvalid')
  return price
}
