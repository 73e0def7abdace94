// A market as an API process without its engine knows it (issue 19): the engine's pushes arrive
// through the bus, and a socket that subscribes here must first get where things stand — the book
// with the seqId the next update follows, the ticker, the last trades, the current candles, the
// status. The mirror keeps them from the same pushes the sockets get, after a base the engine sends
// on request (marketwant:<instId> → marketbase:<instId>): the whole book, every level, so levels deep
// in the book are known when the top is eaten. Both sides publish on one bus session each, so the
// base arrives among the updates in the order they were sent: updates already inside it are skipped
// by seqId, the next one must follow it.
//
// Out of step — a book update that does not follow (prevSeqId), a checksum that differs, a push the
// bus lost (its onGap), a snapshot from an engine that rebuilt — the mirror forgets the market and
// asks again; subscribers meanwhile wait (whenKnown) and get the new state once it arrives.

import { Compile } from 'typebox/compile'
import { Type } from 'typebox'
import { isBookData } from '../../contract/bookChecksum.ts'
import { parseMoney } from '../../contract/money.ts'
import { BARS, BarSchema, CandleSchema, MarketStatus, PublicTrade, streams, Ticker, type BalanceUpdate, type Bar, type BookData, type Candle, type Depth } from '../../contract/trade.ts'
import { BookLevels, candleToWire, levelsChecksum, SNAPSHOT_DEPTH } from '../exchange/marketData/index.ts'
import type { Exchange } from '../exchange/exchange.ts'
import type { MarketView } from '../exchange/streams.ts'
import { pushRefusal } from '../ws/frames.ts'
import type { Bus } from './bus.ts'

/** The trades a subscriber gets on subscribe (trades:<instId> snapshot). */
export const RECENT_ON_SUBSCRIBE = 50
/** The trades a mirror keeps: as many as GET /trade/trades may ask for. */
export const RECENT_KEPT = 100

/** Where the market stands, as the engine sends it. candles: the current candle of each bar that has one. */
export interface MarketBase {
  book: BookData
  status: MarketStatus
  ticker: Ticker
  trades: PublicTrade[]
  candles: [Bar, Candle][]
}

const baseCheck = Compile(
  Type.Object({
    book: Type.Unknown(),
    status: MarketStatus,
    ticker: Ticker,
    trades: Type.Array(PublicTrade, { maxItems: RECENT_KEPT }),
    candles: Type.Array(Type.Tuple([BarSchema, CandleSchema]), { maxItems: BARS.length }),
  }),
)
const tickerCheck = Compile(Ticker)
const statusCheck = Compile(MarketStatus)
const tradeCheck = Compile(PublicTrade)
const candleCheck = Compile(CandleSchema)

/** The bus topics between a market's engine and its mirrors. */
export const baseTopics = (instId: string) => ({ want: `marketwant:${instId}`, base: `marketbase:${instId}` })

/** The engine's market as a base: the whole book (every level), the rest as a subscriber gets it. */
export function marketBase(exchange: Exchange): MarketBase {
  const candles: [Bar, Candle][] = []
  for (const bar of BARS) {
    const c = exchange.candles.current(bar)
    if (c) candles.push([bar, candleToWire(c)])
  }
  return {
    book: exchange.bookSnapshot(Number.MAX_SAFE_INTEGER),
    status: exchange.status(),
    ticker: exchange.ticker.toWire(exchange.now()),
    trades: exchange.trades.recent(RECENT_KEPT),
    candles,
  }
}

/**
 * The engine's side: answers every request for a base on the bus. Requests of one tick (several API
 * processes starting together) get one answer. Returns the unsubscribe.
 */
export function serveMarketBase(bus: Bus, exchange: Exchange): () => void {
  const topics = baseTopics(exchange.spec.instId)
  let pending = false
  return bus.subscribe(topics.want, () => {
    if (pending) return
    pending = true
    setImmediate(() => {
      pending = false
      bus.publish(topics.base, marketBase(exchange))
    })
  })
}

export class MarketMirror {
  private readonly asks = new BookLevels('asks')
  private readonly bids = new BookLevels('bids')
  /** The book's seqId; null while the mirror does not know the market. */
  private seq: number | null = null
  private lastStatus: MarketStatus | null = null
  private lastTicker: Ticker | null = null
  private recent: PublicTrade[] = []
  private readonly candles = new Map<Bar, Candle>()
  private waiting: (() => void)[] = []

  /** ask: sends a request for a base (the caller repeats it while the mirror does not know the market). */
  constructor(
    readonly instId: string,
    private readonly ask: () => void,
  ) {}

  get known(): boolean {
    return this.seq !== null
  }

  /** Runs fn now if the market is known, else once it is. */
  whenKnown(fn: () => void): void {
    if (this.known) fn()
    else this.waiting.push(fn)
  }

  /** A base from the engine; false (and nothing changed) when it is not one. */
  base(v: unknown): boolean {
    if (!baseCheck.Check(v)) return false
    const b = v as MarketBase
    if (!isBookData(b.book) || b.book.prevSeqId !== -1 || b.status.inst_id !== this.instId) return false
    const asks = new BookLevels('asks')
    const bids = new BookLevels('bids')
    load(asks, b.book.asks)
    load(bids, b.book.bids)
    if (levelsChecksum(bids, asks) !== b.book.checksum) return false
    this.asks.clear()
    this.bids.clear()
    load(this.asks, b.book.asks)
    load(this.bids, b.book.bids)
    this.seq = b.book.seqId
    this.lastStatus = b.status
    this.lastTicker = b.ticker
    this.recent = b.trades.slice()
    this.candles.clear()
    for (const [bar, c] of b.candles) this.candles.set(bar, c)
    const run = this.waiting
    this.waiting = []
    for (const fn of run) fn()
    return true
  }

  /** Messages may have been missed: forget the market and ask for it again. */
  lost(): void {
    if (this.seq === null) return
    this.seq = null
    this.ask()
  }

  /**
   * One push of the market's streams, as the hub relays it (already checked against its stream by
   * server/ws/frames.ts). Ignored while the market is not known: the base will hold its effect.
   */
  push(stream: string, frame: { action: string; data: unknown[] }): void {
    if (this.seq === null) return
    const channel = stream.slice(0, stream.indexOf(':'))
    if (channel === 'books') return this.books(frame)
    for (const item of frame.data) {
      if (channel === 'tickers' && tickerCheck.Check(item)) this.lastTicker = item
      else if (channel === 'status' && statusCheck.Check(item)) this.lastStatus = item
      else if (channel === 'trades' && tradeCheck.Check(item)) this.recent = [item, ...this.recent].slice(0, RECENT_KEPT)
      else if (channel.startsWith('candle') && candleCheck.Check(item)) this.candles.set(channel.slice('candle'.length) as Bar, item)
      else return this.lost()
    }
  }

  private books(frame: { action: string; data: unknown[] }): void {
    // A snapshot on the stream is an engine that rebuilt its book (a new sequence): only the top of
    // the book, so the whole one is asked for.
    if (frame.action !== 'update') return this.lost()
    for (const item of frame.data) {
      if (!isBookData(item)) return this.lost()
      if (item.seqId <= this.seq!) continue // inside the base already
      if (item.prevSeqId !== this.seq) return this.lost()
      load(this.asks, item.asks)
      load(this.bids, item.bids)
      if (levelsChecksum(this.bids, this.asks) !== item.checksum) return this.lost()
      this.seq = item.seqId
    }
  }

  // Reads, for subscribers: only while known (whenKnown).

  book(ts: number): BookData {
    return { asks: this.asks.topWire(SNAPSHOT_DEPTH), bids: this.bids.topWire(SNAPSHOT_DEPTH), ts, seqId: this.seq ?? -1, prevSeqId: -1, checksum: levelsChecksum(this.bids, this.asks) }
  }

  /** The top n levels of each side, as GET /trade/depth answers. */
  depth(n: number, ts: number): Depth {
    return { asks: this.asks.topWire(n), bids: this.bids.topWire(n), ts, seqId: this.seq ?? -1 }
  }

  status(): MarketStatus | null {
    return this.lastStatus
  }

  ticker(): Ticker | null {
    return this.lastTicker
  }

  trades(): PublicTrade[] {
    return this.recent.slice()
  }

  candle(bar: Bar): Candle | null {
    return this.candles.get(bar) ?? null
  }
}

/** Levels checked by isBookData: every price and size parses. */
function load(side: BookLevels, levels: readonly [string, string][]): void {
  for (const [p, s] of levels) side.set(parseMoney(p) as bigint, parseMoney(s) as bigint)
}

export interface FollowedMarket {
  mirror: MarketMirror
  close(): void
}

/**
 * An API process's mirror of a market, fed by the bus: subscribed to every stream of the market and
 * to its bases, asking for a base at once and every retryMs (1 s) while it does not know the market (no
 * engine leads yet, or a base was lost). log hears of bases refused.
 */
export function followMarket(bus: Bus, instId: string, opts: { retryMs?: number; log?: { warn(obj: unknown, msg?: string): void } } = {}): FollowedMarket {
  const topics = baseTopics(instId)
  const ask = () => bus.publish(topics.want, {})
  const mirror = new MarketMirror(instId, ask)
  const offs: (() => void)[] = []
  offs.push(
    bus.subscribe(topics.base, (v) => {
      if (!mirror.base(v)) opts.log?.warn({ instId }, 'market base refused')
    }),
  )
  const marketStreams = [streams.books(instId), streams.tickers(instId), streams.trades(instId), streams.status(instId), ...BARS.map((bar) => streams.candle(bar, instId))]
  for (const stream of marketStreams) {
    offs.push(
      bus.subscribe(
        stream,
        (frame) => {
          // Checked as the hub checks what it relays: a push of exactly this stream.
          if (pushRefusal(stream, frame) === null) mirror.push(stream, frame as { action: string; data: unknown[] })
          else mirror.lost()
        },
        () => mirror.lost(),
      ),
    )
  }
  const retry = setInterval(() => {
    if (!mirror.known) ask()
  }, opts.retryMs ?? 1_000)
  retry.unref()
  ask()
  return {
    mirror,
    close() {
      clearInterval(retry)
      for (const off of offs) off()
    },
  }
}

/** A mirror as the market streams read it (server/exchange/streams.ts); balances come from the ledger. */
export function mirrorView(mirror: MarketMirror, opts: { now: () => number; tradeBalances(userId: number): Promise<BalanceUpdate[]> }): MarketView {
  return {
    instId: mirror.instId,
    whenKnown: (fn) => mirror.whenKnown(fn),
    known: () => mirror.known,
    status: () => mirror.status(),
    book: () => mirror.book(opts.now()),
    ticker: () => mirror.ticker(),
    trades: () => mirror.trades().slice(0, RECENT_ON_SUBSCRIBE),
    candle: (bar) => mirror.candle(bar),
    tradeBalances: opts.tradeBalances,
  }
}
