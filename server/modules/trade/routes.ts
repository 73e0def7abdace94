import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { Envelope, Paged, PageQuery } from '../../../contract/envelope.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import {
  BarSchema,
  CancelOrderBody,
  CandleSchema,
  Deal,
  Depth,
  InstId,
  KlineQuery,
  MarketInfo,
  MarketStatus,
  Order,
  OrderListQuery,
  PlaceOrderBody,
  PublicTrade,
  Ticker,
} from '../../../contract/trade.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { TradeService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

const InstQuery = Type.Object({ inst_id: InstId })
const DepthQuery = Type.Object({ inst_id: InstId, size: Type.Optional(Type.Integer({ minimum: 1, maximum: 400, default: 20 })) })
const TradesQuery = Type.Object({ inst_id: InstId, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) })

export function tradeRoutes(app: App, trade: TradeService) {
  const tags = ['trade']

  app.get('/api/v1/trade/market', { schema: { tags, summary: 'The market’s rules: steps, minimums, fees', response: { 200: Envelope(MarketInfo) } } }, async (req) => ok(req, trade.market()))
  app.get(
    '/api/v1/trade/status',
    { schema: { tags, summary: 'Whether the market is live or halted (trading paused after a fault, until an operator repairs it)', querystring: InstQuery, response: { 200: Envelope(MarketStatus) } } },
    async (req) => ok(req, trade.status()),
  )
  app.get(
    '/api/v1/trade/ticker',
    { schema: { tags, summary: 'Last price and the 24 h change, high, low and volume', querystring: InstQuery, response: { 200: Envelope(Ticker) } } },
    async (req) => ok(req, trade.ticker()),
  )
  app.get(
    '/api/v1/trade/depth',
    { schema: { tags, summary: 'The order book’s top levels (asks ascending, bids descending)', querystring: DepthQuery, response: { 200: Envelope(Depth) } } },
    async (req) => ok(req, trade.depth(req.query.size ?? 20)),
  )
  app.get(
    '/api/v1/trade/recentTrades',
    { schema: { tags, summary: 'Recent public trades, newest first', querystring: TradesQuery, response: { 200: Envelope(Type.Object({ list: Type.Array(PublicTrade) })) } } },
    async (req) => ok(req, trade.recentTrades(req.query.limit ?? 50)),
  )
  app.get(
    '/api/v1/trade/klines',
    {
      schema: {
        tags,
        summary: 'Candles of one bar, oldest first; `before` (exclusive, ms) pages back',
        querystring: KlineQuery,
        response: { 200: Envelope(Type.Object({ bar: BarSchema, list: Type.Array(CandleSchema) })) },
      },
    },
    async (req) => ok(req, { bar: req.query.bar, ...(await trade.klines(req.query.bar, req.query.before, req.query.limit ?? 300)) }),
  )

  app.post(
    '/api/v1/trade/placeOrder',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Place a limit or market order; funds are frozen in the trade account; client_order_id makes it idempotent',
        body: PlaceOrderBody,
        response: { 200: Envelope(Order) },
      },
    },
    async (req) => ok(req, await trade.place(uid(req), req.body)),
  )
  app.post(
    '/api/v1/trade/cancelOrder',
    { preHandler: requireAuth, schema: { tags, summary: 'Cancel an open order; what it still holds is released', body: CancelOrderBody, response: { 200: Envelope(Order) } } },
    async (req) => ok(req, await trade.cancel(uid(req), req.body)),
  )
  app.get(
    '/api/v1/trade/orderList',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'The caller’s orders: open (pending, partially filled) or history (filled, cancelled)', querystring: OrderListQuery, response: { 200: Envelope(Paged(Order)) } },
    },
    async (req) => ok(req, await trade.orders(uid(req), req.query.state, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/trade/dealList',
    { preHandler: requireAuth, schema: { tags, summary: 'The caller’s fills, newest first', querystring: PageQuery, response: { 200: Envelope(Paged(Deal)) } } },
    async (req) => ok(req, await trade.deals(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
