import { parseAmount, formatMoney } from '../../../contract/money.ts'
import type { Bar, Candle, CancelOrderBody, Deal, Depth, MarketInfo, MarketStatus, Order, PlaceOrderBody, PublicTrade, Ticker } from '../../../contract/trade.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { CODE } from '../../../contract/constants.ts'
import { ApiError, badRequest, conflict, notFound } from '../../http/errors.ts'
import { insufficient } from '../payment/index.ts'
import { candleToWire } from '../../exchange/marketData/index.ts'
import { Exchange, TradeRejected, toWireOrder, type PlaceInput } from '../../exchange/exchange.ts'
import { lotsOf, marketInfo, maxQuote, priceUnits, quoteUnits, sizeUnits, tickLotsOf, ticksOf, type Fees, type MarketSpec } from '../../exchange/engine/index.ts'
import type { Queryable, Statement } from '../../db/query/types.ts'
import { TradeOutcomeUnknown } from '../../roles/tradeCommands.ts'
import { EXCHANGE, type DealRow, type OrderRow } from '../../exchange/statements.ts'
import { answerKeyedAs } from '../../db/keyedEffect.ts'

// HTTP ⇄ the exchange: decimal strings in, the engine's integers through, localized refusals out.

export interface TradeService {
  market(): MarketInfo
  status(): MarketStatus
  ticker(): Ticker
  depth(size: number): Depth
  recentTrades(limit: number): { list: PublicTrade[] }
  klines(bar: Bar, before: number | undefined, limit: number): Promise<{ list: Candle[] }>
  place(userId: number, body: PlaceOrderBody): Promise<Order>
  cancel(userId: number, body: CancelOrderBody): Promise<Order>
  orders(userId: number, state: 'open' | 'history', page: number, pageSize: number): Promise<PagedList<Order>>
  deals(userId: number, page: number, pageSize: number): Promise<PagedList<Deal>>
}

/** The body of a place, in the engine's integers, or the refusal that names what is wrong with it. */
export function toPlaceInput(spec: MarketSpec, body: PlaceOrderBody): PlaceInput {
  const step = (units: bigint) => formatMoney(units)
  // The schema checked the format, so a present value parseAmount refuses is above AMOUNT_MAX: out of range.
  const priceRange = () => badRequest('errors.tradePriceRange', { max: step(priceUnits(spec, spec.maxPriceTicks)) })
  const sizeRange = () => badRequest('errors.tradeSizeRange', { min: step(sizeUnits(spec, spec.minLots)), max: step(sizeUnits(spec, spec.maxLots)) })
  const amountRange = () => badRequest('errors.tradeAmountRange', { max: step(quoteUnits(spec, maxQuote(spec))) })
  const price = () => {
    if (body.price === undefined) throw badRequest('errors.tradePriceRequired')
    const units = parseAmount(body.price)
    if (units === null) throw priceRange()
    if (units === 0n) throw badRequest('errors.tradePriceRequired')
    const ticks = ticksOf(spec, units)
    if (ticks === null) throw badRequest('errors.tradePriceStep', { step: step(spec.priceStep) })
    if (ticks > spec.maxPriceTicks) throw priceRange()
    return ticks
  }
  const lots = () => {
    if (body.size === undefined) throw badRequest('errors.tradeSizeRequired')
    const units = parseAmount(body.size)
    if (units === null) throw sizeRange()
    if (units === 0n) throw badRequest('errors.tradeSizeRequired')
    const n = lotsOf(spec, units)
    if (n === null) throw badRequest('errors.tradeSizeStep', { step: step(spec.sizeStep) })
    if (n < spec.minLots || n > spec.maxLots) throw sizeRange()
    return n
  }
  const minNotional = () => badRequest('errors.tradeMinNotional', { min: step(quoteUnits(spec, spec.minNotional)) })
  if (body.type === 'limit') {
    const p = price()
    const l = lots()
    if (p * l < spec.minNotional) throw minNotional()
    return { side: body.side, type: 'limit', price: p, lots: l, clientOrderId: body.client_order_id }
  }
  if (body.side === 'sell') return { side: 'sell', type: 'market', lots: lots(), clientOrderId: body.client_order_id }
  if (body.quote_amount === undefined) throw badRequest('errors.tradeAmountRequired')
  const units = parseAmount(body.quote_amount)
  if (units === null) throw amountRange()
  if (units === 0n) throw badRequest('errors.tradeAmountRequired')
  const quote = tickLotsOf(spec, units)
  if (quote === null) throw badRequest('errors.tradeAmountStep', { step: step(quoteUnits(spec, 1)) })
  if (quote < spec.minNotional) throw minNotional()
  if (quote > maxQuote(spec)) throw amountRange()
  return { side: 'buy', type: 'market', quote, clientOrderId: body.client_order_id }
}

/** An engine refusal in the user's words. */
export function refusal(spec: MarketSpec, e: TradeRejected): ApiError {
  switch (e.reason) {
    case 'halted':
      // 503 and never stored under the Idempotency-Key: the same request may be sent again once trading resumes.
      return new ApiError(503, CODE.UNAVAILABLE, 'errors.tradingPaused')
    case 'insufficient_funds':
      return insufficient(e.detail.asset ?? '', e.detail.current ?? 0n, e.detail.required ?? 0n)
    case 'open_orders_limit':
      return conflict('errors.tradeOpenOrdersLimit', { max: e.detail.max ?? 0 })
    case 'unknown_order':
    case 'not_owner':
      // Another user's order is as unknown to the caller as one that never existed.
      return notFound('errors.tradeOrderNotOpen')
    case 'bad_price':
      return badRequest('errors.tradePriceRange', { max: formatMoney(priceUnits(spec, spec.maxPriceTicks)) })
    case 'bad_lots':
      return badRequest('errors.tradeSizeRange', { min: formatMoney(sizeUnits(spec, spec.minLots)), max: formatMoney(sizeUnits(spec, spec.maxLots)) })
    case 'bad_quote':
      return badRequest('errors.tradeAmountRange', { max: formatMoney(quoteUnits(spec, maxQuote(spec))) })
    case 'min_notional':
      return badRequest('errors.tradeMinNotional', { min: formatMoney(quoteUnits(spec, spec.minNotional)) })
    default:
      return badRequest('errors.tradeOrderInvalid')
  }
}

const toWireDeal = (r: DealRow): Deal => ({
  id: Number(r.id),
  order_id: Number(r.order_id),
  side: r.side,
  role: r.role,
  price: formatMoney(r.price),
  size: formatMoney(r.size),
  quote: formatMoney(r.quote),
  fee: formatMoney(r.fee),
  fee_asset: r.fee_asset,
  created_at: Number(r.created_at),
})

/**
 * The market as the trade routes read and trade it: the engine itself where it runs in this process
 * (--role all), or its mirror and the engine process's command table (--role api, server/roles/remoteMarket.ts).
 */
export interface TradeMarket {
  readonly spec: MarketSpec
  readonly fees: Fees
  /** Where the orders and deals are read (the one database). */
  readonly sql: Queryable
  status(): MarketStatus
  ticker(): Ticker
  depth(size: number): Depth
  recentTrades(limit: number): PublicTrade[]
  klines(bar: Bar, before: number | undefined, limit: number): Promise<Candle[]>
  place(userId: number, input: PlaceInput): Promise<OrderRow>
  cancel(userId: number, orderId: number): Promise<OrderRow>
}

export function exchangeMarket(exchange: Exchange): TradeMarket {
  return {
    spec: exchange.spec,
    fees: exchange.fees,
    sql: exchange.conn.sql,
    status: () => exchange.status(),
    ticker: () => exchange.ticker.toWire(exchange.now()),
    depth: (size) => exchange.depth(size),
    recentTrades: (limit) => exchange.trades.recent(limit),
    klines: async (bar, before, limit) => (await exchange.history(bar, before, limit)).map(candleToWire),
    place: (userId, input) => exchange.place(userId, input),
    cancel: (userId, orderId) => exchange.cancel(userId, orderId),
  }
}

export function createTradeService(market: TradeMarket): TradeService {
  const spec = market.spec
  const sql = market.sql
  const count = async (s: Statement<{ n: bigint }, [userId: number]>, userId: number) => Number((await sql.get(s, userId))?.n ?? 0n)
  const guard = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p
    } catch (e) {
      if (e instanceof TradeRejected) throw refusal(spec, e)
      if (e instanceof TradeOutcomeUnknown) throw new ApiError(503, CODE.UNAVAILABLE, 'errors.tradeOutcomeUnknown')
      throw e
    }
  }
  return {
    market: () => marketInfo(spec, market.fees),
    status: () => market.status(),
    ticker: () => market.ticker(),
    depth: (size) => market.depth(size),
    recentTrades: (limit) => ({ list: market.recentTrades(limit) }),
    klines: async (bar, before, limit) => ({ list: await market.klines(bar, before, limit) }),
    // The answer a keyed request keeps beside its order's commit is the order's wire form, as sent.
    place: async (userId, body) => {
      answerKeyedAs(toWireOrder)
      return toWireOrder(await guard(market.place(userId, toPlaceInput(spec, body))))
    },
    cancel: async (userId, body) => {
      answerKeyedAs(toWireOrder)
      return toWireOrder(await guard(market.cancel(userId, body.order_id)))
    },
    async orders(userId, state, page, pageSize) {
      const [list, total] =
        state === 'open' ? [EXCHANGE.openOrdersOfUser, EXCHANGE.countOpenOfUser] : [EXCHANGE.doneOrdersOfUser, EXCHANGE.countDoneOfUser]
      const rows = await sql.all(list, userId, pageSize, (page - 1) * pageSize)
      return { list: rows.map(toWireOrder), total: await count(total, userId) }
    },
    async deals(userId, page, pageSize) {
      const rows = await sql.all(EXCHANGE.dealsOfUser, userId, pageSize, (page - 1) * pageSize)
      return { list: rows.map(toWireDeal), total: await count(EXCHANGE.countDealsOfUser, userId) }
    },
  }
}
