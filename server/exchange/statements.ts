import type { SqlConnection } from '../db/connection.ts'
import { preparedOnce, type Prepared } from '../db/index.ts'
import type { Side } from '../../contract/trade.ts'
import { statement, statements } from '../db/query/types.ts'

// The exchange's SQL: prepared once on the synchronous connection (replay at start, the reads not yet
// moved), typed in EXCHANGE for the asynchronous way; plain and portable like the ledger's. A batch's
// writes are multi-row statements of their own (./batchWrites.ts).

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
  upsertCandle: `INSERT INTO trade_candles (inst_id, bar, ts, open, high, low, close, vol, vol_quote) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (inst_id, bar, ts) DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, vol = excluded.vol, vol_quote = excluded.vol_quote`,
  openOrdersOfUser: "SELECT * FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled') ORDER BY id DESC LIMIT ? OFFSET ?",
  countOpenOfUser: "SELECT COUNT(*) FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled')",
  doneOrdersOfUser: "SELECT * FROM trade_orders WHERE user_id = ? AND status IN ('filled', 'cancelled') ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
  countDoneOfUser: "SELECT COUNT(*) FROM trade_orders WHERE user_id = ? AND status IN ('filled', 'cancelled')",
  dealsOfUser: 'SELECT * FROM trade_deals WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
  countDealsOfUser: 'SELECT COUNT(*) FROM trade_deals WHERE user_id = ?',
} as const

export type ExchangeStatements = Prepared<typeof SQL>

/** The same SQL for the asynchronous way, typed (the market's writer and its pushes). */
export const EXCHANGE = statements({
  insertSnapshot: statement<never, [instId: string, body: string, at: number]>(SQL.insertSnapshot),
  orderById: statement<OrderRow, [id: number]>(SQL.orderById),
  upsertCandle: statement<never, [instId: string, bar: string, ts: number, open: bigint, high: bigint, low: bigint, close: bigint, vol: bigint, volQuote: bigint]>(SQL.upsertCandle),
})

export function exchangeStatements(sqlite: SqlConnection): ExchangeStatements {
  return preparedOnce(sqlite, SQL)
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
