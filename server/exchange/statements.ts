import type { Side } from '../../contract/trade.ts'
import { statement, statements } from '../db/query/types.ts'

// The exchange's SQL, typed in EXCHANGE; plain and portable like the ledger's. A batch's writes are
// multi-row statements of their own (./batchWrites.ts).

const SQL = {
  journalAfter: 'SELECT seq, command FROM exchange_journal WHERE inst_id = ? AND seq > ? ORDER BY seq',
  latestSnapshot: 'SELECT seq, body FROM exchange_snapshots WHERE inst_id = ? ORDER BY seq DESC LIMIT 1',
  insertSnapshot: 'INSERT INTO exchange_snapshots (seq, inst_id, body, created_at) SELECT MAX(seq), ?, ?, ? FROM exchange_journal HAVING MAX(seq) IS NOT NULL',
  maxOrderId: 'SELECT MAX(id) AS id FROM trade_orders',
  maxFillId: 'SELECT MAX(id) AS id FROM trade_fills',
  openOrders: "SELECT id, filled FROM trade_orders WHERE inst_id = ? AND status IN ('pending', 'partially_filled')",
  orderById: 'SELECT * FROM trade_orders WHERE id = ?',
  fillsSince: 'SELECT id, price, size, quote, taker_side, created_at FROM trade_fills WHERE inst_id = ? AND created_at >= ? ORDER BY id',
  recentFills: 'SELECT id, price, size, quote, taker_side, created_at FROM trade_fills WHERE inst_id = ? ORDER BY id DESC LIMIT ?',
  lastCandles: 'SELECT ts, open, high, low, close, vol, vol_quote FROM trade_candles WHERE inst_id = ? AND bar = ? ORDER BY ts DESC LIMIT ?',
  candlesBefore: 'SELECT ts, open, high, low, close, vol, vol_quote FROM trade_candles WHERE inst_id = ? AND bar = ? AND ts < ? ORDER BY ts DESC LIMIT ?',
  openOrdersOfUser: "SELECT * FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled') ORDER BY id DESC LIMIT ? OFFSET ?",
  countOpenOfUser: "SELECT COUNT(*) AS n FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled')",
  doneOrdersOfUser: "SELECT * FROM trade_orders WHERE user_id = ? AND status IN ('filled', 'cancelled') ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
  countDoneOfUser: "SELECT COUNT(*) AS n FROM trade_orders WHERE user_id = ? AND status IN ('filled', 'cancelled')",
  dealsOfUser: 'SELECT * FROM trade_deals WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
  countDealsOfUser: 'SELECT COUNT(*) AS n FROM trade_deals WHERE user_id = ?',
} as const

type Count = { n: bigint }
type Page = [userId: number, limit: number, offset: number]

/** The same SQL for the asynchronous way, typed. */
export const EXCHANGE = statements({
  journalAfter: statement<{ seq: bigint; command: string }, [instId: string, after: bigint]>(SQL.journalAfter),
  latestSnapshot: statement<{ seq: bigint; body: string }, [instId: string]>(SQL.latestSnapshot),
  insertSnapshot: statement<never, [instId: string, body: string, at: number]>(SQL.insertSnapshot),
  maxOrderId: statement<{ id: bigint | null }, []>(SQL.maxOrderId),
  maxFillId: statement<{ id: bigint | null }, []>(SQL.maxFillId),
  openOrders: statement<{ id: bigint; filled: bigint }, [instId: string]>(SQL.openOrders),
  orderById: statement<OrderRow, [id: number]>(SQL.orderById),
  fillsSince: statement<FillRow, [instId: string, since: number]>(SQL.fillsSince),
  /** Whether the market has a fill since then: the first of fillsSince only. */
  anyFillSince: statement<{ id: bigint }, [instId: string, since: number]>('SELECT id FROM trade_fills WHERE inst_id = ? AND created_at >= ? LIMIT 1'),
  recentFills: statement<FillRow, [instId: string, limit: number]>(SQL.recentFills),
  lastCandles: statement<CandleRow, [instId: string, bar: string, limit: number]>(SQL.lastCandles),
  candlesBefore: statement<CandleRow, [instId: string, bar: string, edge: number, limit: number]>(SQL.candlesBefore),
  openOrdersOfUser: statement<OrderRow, Page>(SQL.openOrdersOfUser),
  countOpenOfUser: statement<Count, [userId: number]>(SQL.countOpenOfUser),
  doneOrdersOfUser: statement<OrderRow, Page>(SQL.doneOrdersOfUser),
  countDoneOfUser: statement<Count, [userId: number]>(SQL.countDoneOfUser),
  dealsOfUser: statement<DealRow, Page>(SQL.dealsOfUser),
  countDealsOfUser: statement<Count, [userId: number]>(SQL.countDealsOfUser),
})

export interface CandleRow {
  ts: bigint
  open: bigint
  high: bigint
  low: bigint
  close: bigint
  vol: bigint
  vol_quote: bigint
}

export interface FillRow {
  id: bigint
  price: bigint
  size: bigint
  quote: bigint
  taker_side: Side
  created_at: bigint
}

export interface OrderRow {
  id: bigint
  user_id: bigint
  client_order_id: string
  inst_id: string
  side: Side
  type: 'limit' | 'market'
  price: bigint | null
  size: bigint | null
  quote_amount: bigint | null
  filled: bigint
  filled_quote: bigint
  fee: bigint
  fee_asset: 'NADI' | 'USDT'
  frozen: bigint
  status: string
  cancel_reason: string | null
  created_at: bigint
  updated_at: bigint
}

export interface DealRow {
  id: bigint
  fill_id: bigint
  order_id: bigint
  user_id: bigint
  side: Side
  role: 'maker' | 'taker'
  price: bigint
  size: bigint
  quote: bigint
  fee: bigint
  fee_asset: 'NADI' | 'USDT'
  created_at: bigint
}
