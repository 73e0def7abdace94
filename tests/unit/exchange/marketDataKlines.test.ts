import { describe, expect, it } from 'vitest'
import { BARS, type Bar } from '../../../contract/trade.ts'
import { CandleBook, fromWire, toWire, type CandleState } from '../../../server/exchange/marketData/klines.ts'

const U = 100_000_000n
/** "1.5" → units */
const u = (text: string) => {
  const [w, f = ''] = text.split('.')
  return BigInt(w as string) * U + BigInt((f + '00000000').slice(0, 8))
}
const MIN = 60_000
const HOUR = 3_600_000

/** For each bar, an instant just before a boundary and the boundary itself, written out in UTC. */
const BOUNDARIES: Record<Bar, { before: number; bucketBefore: number; boundary: number }> = {
  '1m': { before: Date.UTC(2024, 2, 10, 13, 6, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 13, 6), boundary: Date.UTC(2024, 2, 10, 13, 7) },
  '5m': { before: Date.UTC(2024, 2, 10, 13, 9, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 13, 5), boundary: Date.UTC(2024, 2, 10, 13, 10) },
  '15m': { before: Date.UTC(2024, 2, 10, 13, 44, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 13, 30), boundary: Date.UTC(2024, 2, 10, 13, 45) },
  '30m': { before: Date.UTC(2024, 2, 10, 13, 59, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 13, 30), boundary: Date.UTC(2024, 2, 10, 14, 0) },
  '1h': { before: Date.UTC(2024, 2, 10, 13, 59, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 13, 0), boundary: Date.UTC(2024, 2, 10, 14, 0) },
  '4h': { before: Date.UTC(2024, 2, 10, 15, 59, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 12, 0), boundary: Date.UTC(2024, 2, 10, 16, 0) },
  '1d': { before: Date.UTC(2024, 2, 10, 23, 59, 59, 999), bucketBefore: Date.UTC(2024, 2, 10, 0, 0), boundary: Date.UTC(2024, 2, 11, 0, 0) },
}

describe('candle bucketing', () => {
  for (const bar of BARS) {
    it(`a ${bar} candle holds trades up to the last millisecond before its UTC boundary, and the boundary opens the next`, () => {
      const { before, bucketBefore, boundary } = BOUNDARIES[bar]
      const book = new CandleBook()
      const first = book.onTrade(before, u('2'), u('1'), u('2')).find((c) => c.bar === bar)
      const second = book.onTrade(boundary, u('3'), u('1'), u('3')).find((c) => c.bar === bar)
      expect(first?.candle.ts).toBe(bucketBefore)
      expect(first?.opened).toBe(true)
      expect(second?.candle.ts).toBe(boundary)
      expect(second?.opened).toBe(true)
      expect(book.history(bar).map((c) => c.ts)).toEqual([bucketBefore, boundary])
    })
  }

  it('4h candles open at 00, 04, 08, 12, 16 and 20 UTC and days at 00:00 UTC', () => {
    const book = new CandleBook()
    const day = Date.UTC(2023, 11, 31)
    for (let h = 0; h < 24; h++) book.onTrade(day + h * HOUR + 17 * MIN, u('1'), u('1'), u('1'))
    book.onTrade(Date.UTC(2024, 0, 1, 0, 0, 0, 1), u('1'), u('1'), u('1'))
    expect(book.history('4h').map((c) => new Date(c.ts).toISOString())).toEqual([
      '2023-12-31T00:00:00.000Z',
      '2023-12-31T04:00:00.000Z',
      '2023-12-31T08:00:00.000Z',
      '2023-12-31T12:00:00.000Z',
      '2023-12-31T16:00:00.000Z',
      '2023-12-31T20:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
    ])
    expect(book.history('1d').map((c) => new Date(c.ts).toISOString())).toEqual(['2023-12-31T00:00:00.000Z', '2024-01-01T00:00:00.000Z'])
    expect(book.history('1d')[0]?.vol).toBe(u('24'))
  })

  it('every bar reports one change per trade, and only the trade that starts a bucket opens a candle', () => {
    const book = new CandleBook()
    const t0 = Date.UTC(2024, 0, 1, 0, 0, 30)
    expect(book.onTrade(t0, u('1'), u('1'), u('1')).map((c) => [c.bar, c.opened])).toEqual(BARS.map((b) => [b, true]))
    const next = book.onTrade(t0 + MIN, u('1'), u('1'), u('1'))
    expect(next.map((c) => [c.bar, c.opened])).toEqual(BARS.map((b) => [b, b === '1m']))
  })
})

describe('candle values', () => {
  it('open, high, low, close and both volumes are exact sums of the trades in the bucket', () => {
    const book = new CandleBook()
    const t0 = Date.UTC(2024, 4, 1, 9, 15)
    const trades: Array<[string, string]> = [
      ['1.23456789', '0.1'],
      ['1.3', '2.00000001'],
      ['0.99999999', '0.5'],
      ['1.1', '0.00000001'],
    ]
    let vol = 0n
    let volQuote = 0n
    for (const [i, [p, s]] of trades.entries()) {
      const quote = (u(p) * u(s)) / U
      vol += u(s)
      volQuote += quote
      book.onTrade(t0 + i * 1000, u(p), u(s), quote)
    }
    const c = book.current('1m') as CandleState
    expect(c).toEqual({ ts: t0, open: u('1.23456789'), high: u('1.3'), low: u('0.99999999'), close: u('1.1'), vol, volQuote })
    expect(toWire(c)).toEqual([t0, '1.23456789', '1.3', '0.99999999', '1.1', '2.60000002', '3.22345679'])
    // The quote passed in is summed as given, not recomputed from price × size.
    expect(volQuote).toBe(u('0.12345678') + u('2.60000001') + u('0.49999999') + u('0.00000001'))
  })

  it('a candle after a quiet spell opens at its own first price and the quiet minutes stay empty', () => {
    const book = new CandleBook()
    const t0 = Date.UTC(2024, 4, 1, 9, 0)
    book.onTrade(t0 + 5_000, u('10'), u('1'), u('10'))
    book.onTrade(t0 + 50_000, u('11'), u('1'), u('11'))
    book.onTrade(t0 + 5 * MIN + 1, u('7'), u('2'), u('14'))
    const m1 = book.history('1m')
    expect(m1.map((c) => c.ts)).toEqual([t0, t0 + 5 * MIN])
    expect(m1[1]).toMatchObject({ open: u('7'), high: u('7'), low: u('7'), close: u('7'), vol: u('2') })
    // The 5m bar: the two buckets are adjacent, the second still opens at 7, not at the prior close 11.
    expect(book.history('5m').map((c) => toWire(c).slice(0, 5))).toEqual([
      [t0, '10', '11', '10', '11'],
      [t0 + 5 * MIN, '7', '7', '7', '7'],
    ])
    expect(book.history('1h')).toHaveLength(1)
  })

  it('a trade stamped before the newest candle (clock stepped back) is credited to that candle, never reopening an old one', () => {
    const book = new CandleBook()
    const t0 = Date.UTC(2024, 4, 1, 9, 0)
    book.onTrade(t0 + 2 * MIN, u('5'), u('1'), u('5'))
    const changes = book.onTrade(t0 + MIN - 1, u('4'), u('1'), u('4'))
    expect(changes.find((c) => c.bar === '1m')).toMatchObject({ opened: false, candle: { ts: t0 + 2 * MIN, low: u('4'), close: u('4'), vol: u('2') } })
    expect(book.history('1m')).toHaveLength(1)
  })

  it('nonsense trades are refused', () => {
    const book = new CandleBook()
    expect(() => book.onTrade(1, 0n, 1n, 0n)).toThrow(RangeError)
    expect(() => book.onTrade(1, 1n, 0n, 0n)).toThrow(RangeError)
    expect(() => book.onTrade(Number.NaN, 1n, 1n, 0n)).toThrow(RangeError)
    expect(book.current('1m')).toBeNull()
  })
})

describe('candle history', () => {
  const t0 = Date.UTC(2024, 6, 1, 0, 0)
  /** Ten 1m candles at t0 + i min with close = i + 1. */
  function tenMinutes(keep?: number) {
    const book = new CandleBook(keep)
    for (let i = 0; i < 10; i++) book.onTrade(t0 + i * MIN + 30_000, BigInt(i + 1) * U, U, BigInt(i + 1) * U)
    return book
  }

  it('pages back oldest first with `before` exclusive, each page ending just before the previous one', () => {
    const book = tenMinutes()
    const p1 = book.history('1m', undefined, 4)
    expect(p1.map((c) => c.ts)).toEqual([6, 7, 8, 9].map((i) => t0 + i * MIN))
    const p2 = book.history('1m', p1[0]?.ts, 4)
    expect(p2.map((c) => c.ts)).toEqual([2, 3, 4, 5].map((i) => t0 + i * MIN))
    const p3 = book.history('1m', p2[0]?.ts, 4)
    expect(p3.map((c) => c.ts)).toEqual([0, 1].map((i) => t0 + i * MIN))
    expect(book.history('1m', p3[0]?.ts, 4)).toEqual([])
    // `before` between two open times keeps the candle that opened earlier.
    expect(book.history('1m', t0 + 3 * MIN + 1, 2).map((c) => c.ts)).toEqual([t0 + 2 * MIN, t0 + 3 * MIN])
  })

  it('history returns copies: changing them does not change the book', () => {
    const book = tenMinutes()
    const [c] = book.history('1m', undefined, 1)
    ;(c as CandleState).close = 0n
    expect(book.current('1m')?.close).toBe(10n * U)
  })

  it('only the newest N candles per bar stay in memory', () => {
    const book = tenMinutes(3)
    expect(book.history('1m', undefined, 100).map((c) => c.ts)).toEqual([7, 8, 9].map((i) => t0 + i * MIN))
    expect(book.heldSince('1m')).toBe(t0 + 7 * MIN)
    expect(book.history('1d')).toHaveLength(1)
  })

  it('candles seeded from storage page together with new ones, and a trade continues the stored current candle', () => {
    const book = new CandleBook(5)
    const stored: CandleState[] = [0, 1, 2, 3].map((i) => ({
      ts: t0 + i * MIN,
      open: 2n * U,
      high: 3n * U,
      low: U,
      close: 2n * U,
      vol: U,
      volQuote: 2n * U,
    }))
    book.load('1m', [...stored].reverse())
    book.onTrade(t0 + 3 * MIN + 10, 4n * U, U, 4n * U)
    book.onTrade(t0 + 4 * MIN, 5n * U, U, 5n * U)
    book.onTrade(t0 + 5 * MIN, 6n * U, U, 6n * U)
    const all = book.history('1m', undefined, 10)
    expect(all.map((c) => c.ts)).toEqual([1, 2, 3, 4, 5].map((i) => t0 + i * MIN))
    expect(all[2]).toEqual({ ts: t0 + 3 * MIN, open: 2n * U, high: 4n * U, low: U, close: 4n * U, vol: 2n * U, volQuote: 6n * U })
  })

  it('a misaligned or inconsistent stored candle is refused', () => {
    const book = new CandleBook()
    const good: CandleState = { ts: t0, open: U, high: U, low: U, close: U, vol: U, volQuote: U }
    expect(() => book.load('1h', [{ ...good, ts: t0 + MIN }])).toThrow(RangeError)
    expect(() => book.load('1m', [{ ...good, high: U - 1n }])).toThrow(RangeError)
    book.load('1m', [good])
    expect(book.history('1m')).toEqual([good])
  })

  it('wire candles read back to the same units', () => {
    const c: CandleState = { ts: t0, open: 123n, high: 99999999999n, low: 1n, close: 5n * U, vol: 0n, volQuote: 7n }
    expect(fromWire(toWire(c))).toEqual(c)
    expect(fromWire([t0, '1', '1', 'x', '1', '1', '1'])).toBeNull()
  })
})
