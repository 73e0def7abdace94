// The market mirror of an API process (server/roles/marketMirror.ts), fed by a real BookFeed (the
// engine's book stream): it follows every update to the same book the engine shows, levels deep in
// the book included; it skips what its base already holds, and anything out of step makes it forget
// the market and ask again.

import { describe, expect, it } from 'vitest'
import type { BookData, MarketStatus, PublicTrade, Ticker } from '../../../contract/trade.ts'
import { BookFeed, SNAPSHOT_DEPTH } from '../../../server/exchange/marketData/index.ts'
import { MarketMirror, RECENT_KEPT, type MarketBase } from '../../../server/roles/marketMirror.ts'

const INST = 'NADI-USDT'
const U = 100_000_000n

const status: MarketStatus = { inst_id: INST, state: 'live', since: null, journal_seq: null }
const ticker = (last: string): Ticker => ({ inst_id: INST, last, open24h: '1', high24h: '2', low24h: '0.5', vol24h: '10', vol_quote24h: '12', change24h: '0.1', ts: 5 })
const trade = (n: number): PublicTrade => ({ trade_id: n, inst_id: INST, price: '1.5', size: '2', side: 'buy', ts: n })
const booksFrame = (d: BookData, action = 'update') => ({ arg: { channel: 'books', instId: INST }, action, data: [d] })

function baseOf(feed: BookFeed, extra: Partial<MarketBase> = {}): MarketBase {
  return { book: feed.snapshot(1, Number.MAX_SAFE_INTEGER), status, ticker: ticker('1.5'), trades: [], candles: [], ...extra }
}

/** A mirror and the number of times it asked for a base. */
function mirror(): { m: MarketMirror; asks: () => number } {
  let n = 0
  return { m: new MarketMirror(INST, () => n++), asks: () => n }
}

/** A deterministic pseudo-random sequence (xorshift), so a failure replays. */
function rng(seed: number) {
  let x = seed
  return (n: number) => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return Math.abs(x) % n
  }
}

/** A book 600 levels deep on each side around a price of 1,000. */
function deepFeed(): BookFeed {
  const feed = new BookFeed({ startSeqId: 40 })
  for (let i = 1; i <= 600; i++) {
    feed.change('sell', (1000n + BigInt(i)) * U, BigInt(i) * U)
    feed.change('buy', (1000n - BigInt(i)) * U, BigInt(i) * U)
  }
  feed.flush(1)
  return feed
}

describe('MarketMirror', () => {
  it('follows the engine update by update to the book it shows, levels deep in the book surfacing as the top is eaten', () => {
    const feed = deepFeed()
    const { m, asks } = mirror()
    expect(m.base(baseOf(feed))).toBe(true)
    const r = rng(7)
    for (let batch = 0; batch < 200; batch++) {
      // Eat the top of a side (levels beyond the 400 a subscriber's snapshot shows come up), or change a level anywhere.
      for (let k = 0; k < 1 + r(4); k++) {
        const side = r(2) ? 'sell' : 'buy'
        const offset = BigInt(1 + r(700))
        const price = side === 'sell' ? (1000n + offset) * U : (1000n - offset) * U
        feed.change(side, price, r(3) === 0 ? 0n : BigInt(1 + r(50)) * U)
      }
      if (batch % 2 === 0) for (let i = 0; i < 3; i++) feed.change('sell', (1001n + BigInt(batch + i)) * U, 0n)
      const d = feed.flush(batch)
      if (!d) continue
      m.push(`books:${INST}`, booksFrame(d))
      // Every update's checksum is checked by the mirror (it would ask again); the whole book now and then.
      if (batch % 10 === 0) expect(m.book(batch)).toEqual(feed.snapshot(batch))
    }
    expect(m.book(1)).toEqual(feed.snapshot(1))
    expect(feed.asks.size).toBeGreaterThan(0)
    expect(m.book(0).asks.length).toBe(Math.min(SNAPSHOT_DEPTH, feed.asks.size))
    expect(asks()).toBe(0)
  })

  it('skips the updates its base already holds and ignores updates before any base', () => {
    const feed = deepFeed()
    const { m } = mirror()
    feed.change('sell', 1001n * U, 0n)
    const early = feed.flush(2)!
    m.push(`books:${INST}`, booksFrame(early))
    expect(m.known).toBe(false)
    m.base(baseOf(feed))
    // Published before the base was taken, arriving after it: already inside.
    m.push(`books:${INST}`, booksFrame(early))
    feed.change('buy', 999n * U, 0n)
    m.push(`books:${INST}`, booksFrame(feed.flush(3)!))
    expect(m.book(3)).toEqual(feed.snapshot(3))
  })

  it('an update that does not follow makes it forget the market and ask again; subscribers wait for the new base', () => {
    const feed = deepFeed()
    const { m, asks } = mirror()
    m.base(baseOf(feed))
    feed.change('sell', 1001n * U, 0n)
    feed.flush(2) // lost on the way
    feed.change('sell', 1002n * U, 0n)
    m.push(`books:${INST}`, booksFrame(feed.flush(3)!))
    expect(m.known).toBe(false)
    expect(asks()).toBe(1)
    const sent: BookData[] = []
    m.whenKnown(() => sent.push(m.book(4)))
    expect(sent).toEqual([])
    m.base(baseOf(feed))
    expect(sent).toEqual([{ ...feed.snapshot(4) }])
    expect(m.book(4).seqId).toBe(feed.seqId)
  })

  it('a checksum that differs, an unreadable book or a snapshot on the stream (an engine that rebuilt) are out of step too', () => {
    const cases: [string, (d: BookData) => unknown][] = [
      ['checksum', (d) => booksFrame({ ...d, checksum: d.checksum + 1 })],
      ['unreadable', (d) => booksFrame({ ...d, asks: [['x', '1']] })],
      ['snapshot', (d) => booksFrame(d, 'snapshot')],
    ]
    for (const [name, bad] of cases) {
      const feed = deepFeed()
      const { m, asks } = mirror()
      m.base(baseOf(feed))
      feed.change('sell', 1001n * U, 0n)
      m.push(`books:${INST}`, bad(feed.flush(2)!) as { action: string; data: unknown[] })
      expect(m.known, name).toBe(false)
      expect(asks(), name).toBe(1)
    }
  })

  it('refuses a base that is not one, and keeps what it had', () => {
    const feed = deepFeed()
    const { m } = mirror()
    const good = baseOf(feed)
    expect(m.base({ ...good, book: { ...good.book, checksum: good.book.checksum + 1 } })).toBe(false)
    expect(m.base({ ...good, book: { ...good.book, prevSeqId: 3 } })).toBe(false)
    expect(m.base({ ...good, status: { ...status, inst_id: 'BTC-USDT' } })).toBe(false)
    expect(m.base({ ...good, ticker: { last: 'a lot' } })).toBe(false)
    expect(m.base({ ...good, trades: Array.from({ length: RECENT_KEPT + 1 }, (_, i) => trade(i)) })).toBe(false)
    expect(m.base({ ...good, candles: [['2m', [1, '1', '1', '1', '1', '1', '1']]] })).toBe(false)
    expect(m.base('{}')).toBe(false)
    expect(m.known).toBe(false)
    expect(m.base(good)).toBe(true)
  })

  it("keeps the ticker, the status, the newest trades and each bar's current candle from their pushes", () => {
    const feed = deepFeed()
    const { m, asks } = mirror()
    m.base(baseOf(feed, { trades: [trade(2), trade(1)], candles: [['1m', [60_000, '1', '1', '1', '1', '1', '1']]] }))
    expect(m.trades().map((t) => t.trade_id)).toEqual([2, 1])
    for (let n = 3; n <= 130; n++) m.push(`trades:${INST}`, { action: 'update', data: [trade(n)] })
    expect(m.trades().map((t) => t.trade_id)).toEqual(Array.from({ length: RECENT_KEPT }, (_, i) => 130 - i))
    m.push(`tickers:${INST}`, { action: 'update', data: [ticker('2.25')] })
    expect(m.ticker()?.last).toBe('2.25')
    m.push(`status:${INST}`, { action: 'update', data: [{ ...status, state: 'halted', since: 9, journal_seq: 4 }] })
    expect(m.status()?.state).toBe('halted')
    m.push(`candle1h:${INST}`, { action: 'update', data: [[3_600_000, '2', '3', '1', '2', '5', '10']] })
    expect(m.candle('1h')).toEqual([3_600_000, '2', '3', '1', '2', '5', '10'])
    expect(m.candle('1m')).toEqual([60_000, '1', '1', '1', '1', '1', '1'])
    expect(m.candle('1d')).toBeNull()
    expect(asks()).toBe(0)
    // A push it cannot read: what it holds may be wrong from here on.
    m.push(`trades:${INST}`, { action: 'update', data: [{ trade_id: 'x' }] })
    expect(m.known).toBe(false)
    expect(asks()).toBe(1)
  })
})
