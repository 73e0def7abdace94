import { BARS, type Bar, type BalanceUpdate, type BookData, type Candle, type MarketStatus, type PublicTrade, type Ticker } from '../../contract/trade.ts'
import type { Connection, StreamFamily } from '../ws/hub.ts'
import { candleToWire } from './marketData/index.ts'
import type { Exchange } from './exchange.ts'

// The market's socket streams (DESIGN §5). A subscription is answered with where things stand —
// the book's snapshot, the ticker, recent trades, the current candle, the caller's balances — and
// the exchange's pushes after each commit carry the rest. Where things stand is read from a view:
// the engine itself in its own process, a mirror of it in an API process (server/roles/marketMirror.ts).

const CANDLE_RE = /^candle(1m|5m|15m|30m|1h|4h|1d):(.+)$/

/** A market as its subscribers' snapshots read it. */
export interface MarketView {
  readonly instId: string
  /** Runs fn now if the view knows the market, else once it does (a mirror waiting for its base). */
  whenKnown(fn: () => void): void
  /** Whether the view knows the market now. */
  known(): boolean
  status(): MarketStatus | null
  book(): BookData
  ticker(): Ticker | null
  trades(): PublicTrade[]
  candle(bar: Bar): Candle | null
  /** Read from the ledger, awaited: the snapshot follows the subscription's ack once read. */
  tradeBalances(userId: number): Promise<BalanceUpdate[]>
}

/** The engine's own market: always known. */
export function exchangeView(exchange: Exchange): MarketView {
  return {
    instId: exchange.spec.instId,
    whenKnown: (fn) => fn(),
    known: () => true,
    status: () => exchange.status(),
    book: () => exchange.bookSnapshot(),
    ticker: () => exchange.ticker.toWire(exchange.now()),
    trades: () => exchange.trades.recent(50),
    candle: (bar) => {
      const c = exchange.candles.current(bar)
      return c ? candleToWire(c) : null
    },
    tradeBalances: (userId) => exchange.tradeBalances(userId),
  }
}

export function marketStreams(exchange: Exchange): StreamFamily[] {
  return marketStreamsOf(exchangeView(exchange))
}

export function marketStreamsOf(view: MarketView): StreamFamily[] {
  const inst = view.instId
  const one = (name: string, onSubscribe: (conn: Connection) => void): StreamFamily => ({
    private: false,
    matches: (s) => s === `${name}:${inst}`,
    onSubscribe: (conn) => view.whenKnown(() => onSubscribe(conn)),
    live: () => view.known(),
  })
  const listOf = <T>(v: T | null): T[] => (v === null ? [] : [v])
  return [
    one('status', (conn) => conn.send({ arg: { channel: 'status', instId: inst }, action: 'snapshot', data: listOf(view.status()) })),
    one('books', (conn) => conn.send({ arg: { channel: 'books', instId: inst }, action: 'snapshot', data: [view.book()] })),
    one('tickers', (conn) => conn.send({ arg: { channel: 'tickers', instId: inst }, action: 'snapshot', data: listOf(view.ticker()) })),
    one('trades', (conn) => conn.send({ arg: { channel: 'trades', instId: inst }, action: 'snapshot', data: view.trades() })),
    {
      private: false,
      matches: (s) => {
        const m = CANDLE_RE.exec(s)
        return !!m && m[2] === inst && (BARS as readonly string[]).includes(m[1]!)
      },
      live: () => view.known(),
      onSubscribe(conn, stream) {
        const bar = CANDLE_RE.exec(stream)![1] as Bar // matches() accepted it
        view.whenKnown(() => conn.send({ arg: { channel: `candle${bar}`, instId: inst }, action: 'snapshot', data: listOf(view.candle(bar)) }))
      },
    },
    { private: true, matches: (s) => s === 'user@update_order' },
    {
      private: true,
      matches: (s) => s === 'user@balance',
      onSubscribe: (conn) => {
        if (!conn.user) return
        // A read that fails sends no snapshot: the next push after a commit carries the balances.
        void view.tradeBalances(conn.user.id).then(
          (data) => conn.send({ arg: { channel: 'user@balance' }, action: 'snapshot', data }),
          () => {},
        )
      },
    },
  ]
}
