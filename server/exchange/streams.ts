import { BARS, type Bar } from '../../contract/trade.ts'
import type { Connection, StreamFamily } from '../ws/hub.ts'
import { candleToWire } from './marketData/index.ts'
import type { Exchange } from './exchange.ts'

// The market's socket streams (DESIGN §5). A subscription is answered with where things stand —
// the book's snapshot, the ticker, recent trades, the current candle, the caller's balances — and
// the exchange's pushes after each commit carry the rest.

const CANDLE_RE = /^candle(1m|5m|15m|30m|1h|4h|1d):(.+)$/

export function marketStreams(exchange: Exchange): StreamFamily[] {
  const inst = exchange.spec.instId
  const one = (name: string, onSubscribe: (conn: Connection) => void): StreamFamily => ({
    private: false,
    matches: (s) => s === `${name}:${inst}`,
    onSubscribe: (conn) => onSubscribe(conn),
  })
  return [
    one('status', (conn) => conn.send({ arg: { channel: 'status', instId: inst }, action: 'snapshot', data: [exchange.status()] })),
    one('books', (conn) => conn.send({ arg: { channel: 'books', instId: inst }, action: 'snapshot', data: [exchange.bookSnapshot()] })),
    one('tickers', (conn) => conn.send({ arg: { channel: 'tickers', instId: inst }, action: 'snapshot', data: [exchange.ticker.toWire(exchange.now())] })),
    one('trades', (conn) => conn.send({ arg: { channel: 'trades', instId: inst }, action: 'snapshot', data: exchange.trades.recent(50) })),
    {
      private: false,
      matches: (s) => {
        const m = CANDLE_RE.exec(s)
        return !!m && m[2] === inst && (BARS as readonly string[]).includes(m[1]!)
      },
      onSubscribe(conn, stream) {
        const bar = CANDLE_RE.exec(stream)![1] as Bar // matches() accepted it
        const c = exchange.candles.current(bar)
        conn.send({ arg: { channel: `candle${bar}`, instId: inst }, action: 'snapshot', data: c ? [candleToWire(c)] : [] })
      },
    },
    { private: true, matches: (s) => s === 'user@update_order' },
    {
      private: true,
      matches: (s) => s === 'user@balance',
      onSubscribe: (conn) => {
        if (conn.user) conn.send({ arg: { channel: 'user@balance' }, action: 'snapshot', data: exchange.tradeBalances(conn.user.id) })
      },
    },
  ]
}
