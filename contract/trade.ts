import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// The spot market NADI/USDT (DESIGN §5, §8). Prices are USDT per NADI, sizes are NADI, quote amounts
// are USDT — all decimal strings on the wire, integers in units of 1e-8 inside.

export const INST_ID = 'NADI-USDT'
export const InstId = Type.Literal(INST_ID)
export type InstId = Static<typeof InstId>

/** The seven candle intervals of SPEC §9, UTC-aligned. */
export const BARS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const
export type Bar = (typeof BARS)[number]
export const BarSchema = Type.Union(BARS.map((b) => Type.Literal(b)))
export const BAR_MS: Record<Bar, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
}

export const Side = Type.Union([Type.Literal('buy'), Type.Literal('sell')])
export type Side = Static<typeof Side>
export const OrderType = Type.Union([Type.Literal('limit'), Type.Literal('market')])
export type OrderType = Static<typeof OrderType>
/** SPEC §4: pending, partially filled, filled, cancelled. */
export const OrderStatus = Type.Union([Type.Literal('pending'), Type.Literal('partially_filled'), Type.Literal('filled'), Type.Literal('cancelled')])
export type OrderStatus = Static<typeof OrderStatus>
/**
 * Why an order was cancelled when its owner did not cancel it: its owner's own incoming order reached
 * it (self-trade prevention), a market order's rest found no opposite orders, a market buy's rest
 * buys not one lot, or the market's repair cancelled it.
 */
export const CancelReason = Type.Union([Type.Literal('self_trade'), Type.Literal('no_liquidity'), Type.Literal('budget'), Type.Literal('repair')])
export type CancelReason = Static<typeof CancelReason>
export const OPEN_STATUSES: readonly OrderStatus[] = ['pending', 'partially_filled']

/** GET /api/v1/trade/market — the rules an order must meet. */
export const MarketInfo = Type.Object({
  inst_id: InstId,
  base: Type.Literal('NADI'),
  quote: Type.Literal('USDT'),
  /** Prices are multiples of this (USDT). */
  price_step: Money,
  /** Sizes are multiples of this (NADI). */
  size_step: Money,
  min_size: Money,
  /** Smallest price × size (USDT) of a limit order, and smallest quote amount of a market buy. */
  min_notional: Money,
  max_price: Money,
  max_size: Money,
  /** Fee rates as decimals, e.g. "0.001" = 0.1 %. A buyer pays the fee in NADI, a seller in USDT. */
  maker_fee: Type.String(),
  taker_fee: Type.String(),
})
export type MarketInfo = Static<typeof MarketInfo>

/**
 * POST /api/v1/trade/placeOrder. A limit order names price and size; a market buy spends quote_amount
 * USDT; a market sell sells size NADI. client_order_id makes the call idempotent per user.
 */
export const PlaceOrderBody = Type.Object({
  inst_id: InstId,
  side: Side,
  type: OrderType,
  price: Type.Optional(Money),
  size: Type.Optional(Money),
  quote_amount: Type.Optional(Money),
  client_order_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' }),
})
export type PlaceOrderBody = Static<typeof PlaceOrderBody>

/** POST /api/v1/trade/cancelOrder */
export const CancelOrderBody = Type.Object({ order_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) })
export type CancelOrderBody = Static<typeof CancelOrderBody>

export const Order = Type.Object({
  id: Type.Integer(),
  client_order_id: Type.String(),
  inst_id: InstId,
  side: Side,
  type: OrderType,
  /** null for market orders. */
  price: Type.Union([Money, Type.Null()]),
  /** NADI asked for; null for a market buy. */
  size: Type.Union([Money, Type.Null()]),
  /** USDT a market buy spends; null otherwise. */
  quote_amount: Type.Union([Money, Type.Null()]),
  filled: Money,
  filled_quote: Money,
  /** filled_quote / filled, null before the first fill. */
  avg_price: Type.Union([Money, Type.Null()]),
  fee: Money,
  fee_asset: Type.Union([Type.Literal('NADI'), Type.Literal('USDT')]),
  status: OrderStatus,
  /** Set only on a cancelled order its owner did not cancel; null otherwise. */
  cancel_reason: Type.Union([CancelReason, Type.Null()]),
  created_at: Millis,
  updated_at: Millis,
})
export type Order = Static<typeof Order>

/** GET /api/v1/trade/orderList — state=open: pending and partially filled; history: filled and cancelled. */
export const OrderListQuery = Type.Object({
  state: Type.Union([Type.Literal('open'), Type.Literal('history')]),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
})
export type OrderListQuery = Static<typeof OrderListQuery>

/** One of the user's own fills (GET /api/v1/trade/dealList). */
export const Deal = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  side: Side,
  role: Type.Union([Type.Literal('maker'), Type.Literal('taker')]),
  price: Money,
  size: Money,
  quote: Money,
  fee: Money,
  fee_asset: Type.Union([Type.Literal('NADI'), Type.Literal('USDT')]),
  created_at: Millis,
})
export type Deal = Static<typeof Deal>

/** A public trade (trades:<instId> and GET /api/v1/trade/recentTrades). side is the taker's. */
export const PublicTrade = Type.Object({ trade_id: Type.Integer(), inst_id: InstId, price: Money, size: Money, side: Side, ts: Millis })
export type PublicTrade = Static<typeof PublicTrade>

/**
 * status:<instId> and GET /api/v1/trade/status. A market is live, or halted after a fault it could not
 * recover from by itself: every order and cancel is then refused with "trading is paused" until an
 * operator repairs it, while the rest of the service keeps working.
 */
export const MarketStatus = Type.Object({
  inst_id: InstId,
  state: Type.Union([Type.Literal('live'), Type.Literal('halted')]),
  /** When it halted; null while live. */
  since: Type.Union([Millis, Type.Null()]),
  /** The journal row where the fault was found, for support; null while live or when unknown. */
  journal_seq: Type.Union([Type.Integer(), Type.Null()]),
})
export type MarketStatus = Static<typeof MarketStatus>

/** tickers:<instId> and GET /api/v1/trade/ticker. Over the last 24 h. change24h is a decimal ratio ("-0.0125"). */
export const Ticker = Type.Object({
  inst_id: InstId,
  last: Type.Union([Money, Type.Null()]),
  open24h: Type.Union([Money, Type.Null()]),
  high24h: Type.Union([Money, Type.Null()]),
  low24h: Type.Union([Money, Type.Null()]),
  vol24h: Money,
  vol_quote24h: Money,
  change24h: Type.String(),
  ts: Millis,
})
export type Ticker = Static<typeof Ticker>

/** [price, size] */
export type BookLevel = [string, string]
/** books:<instId> push data and GET /api/v1/trade/depth. asks ascending, bids descending. */
export interface BookData {
  asks: BookLevel[]
  bids: BookLevel[]
  ts: number
  /** Sequence of this book message; prevSeqId -1 on a snapshot. */
  seqId: number
  prevSeqId: number
  /** CRC32 (signed 32-bit) of the top 25 levels after applying this message (contract/bookChecksum.ts). */
  checksum: number
}
export const Depth = Type.Object({
  asks: Type.Array(Type.Tuple([Money, Money])),
  bids: Type.Array(Type.Tuple([Money, Money])),
  ts: Millis,
  seqId: Type.Integer(),
})
export type Depth = Static<typeof Depth>

/** [ts, open, high, low, close, volume (NADI), volume (USDT)] — candle<bar>:<instId> and the history call. */
export type Candle = [number, string, string, string, string, string, string]
export const CandleSchema = Type.Tuple([Millis, Money, Money, Money, Money, Money, Money])

/** GET /api/v1/trade/klines — oldest first; `before` (exclusive, ms) pages back in time. */
export const KlineQuery = Type.Object({
  inst_id: InstId,
  bar: BarSchema,
  before: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 300 })),
})
export type KlineQuery = Static<typeof KlineQuery>

/** user@update_order push data: the order as it is now. user@balance: the user's trade-account balances. */
export type OrderUpdate = Order
export interface BalanceUpdate {
  asset: 'NADI' | 'USDT'
  account: 'trade' | 'fund'
  available: string
  frozen: string
}

/** Stream names (DESIGN §5). */
export const streams = {
  /** Live or halted (MarketStatus): a snapshot on subscribe, an update when it changes. */
  status: (inst: string) => `status:${inst}`,
  books: (inst: string) => `books:${inst}`,
  tickers: (inst: string) => `tickers:${inst}`,
  trades: (inst: string) => `trades:${inst}`,
  candle: (bar: Bar, inst: string) => `candle${bar}:${inst}`,
  order: 'user@update_order',
  balance: 'user@balance',
  deposit: 'user@deposit',
  withdraw: 'user@withdraw',
} as const
