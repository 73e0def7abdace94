import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it } from 'vitest'
import { latestCandle, putCandles, readCandles, trimCandles, type Candle } from '../../../src/data/index.ts'
import { KLINE_CHUNK_BARS, KLINE_STRIDE, klineChunkSpan, klineChunkStart } from '../../../src/data/db.ts'
import { freshDatabase, openDb } from './fresh.ts'

beforeEach(freshDatabase)

const MIN = 60_000
const T0 = 1_700_000_040_000 // a UTC minute boundary
const candle = (i: number, c = 100 + i): Candle => ({ ts: T0 + i * MIN, o: c - 1, h: c + 2, l: c - 2, c, v: i + 0.5 })
const range = (from: number, to: number, c?: number) => Array.from({ length: to - from + 1 }, (_, k) => candle(from + k, c))
const ALL: [number, number] = [0, Number.MAX_SAFE_INTEGER]

describe('kline store', () => {
  it('overlapping writes merge by ts: the newer write of a ts replaces the stored candle', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 9, 1))
    await putCandles('BTC-USDT', '1m', range(5, 14, 2))
    const got = await readCandles('BTC-USDT', '1m', ...ALL)
    expect(got.map((k) => k.ts)).toEqual(range(0, 14).map((k) => k.ts))
    expect(got.map((k) => k.c)).toEqual([...Array(5).fill(1), ...Array(10).fill(2)])
  })

  it('a live update of the newest candle replaces it in place', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 2))
    await putCandles('BTC-USDT', '1m', [{ ...candle(2), h: 999, c: 998, v: 42 }])
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual([candle(0), candle(1), { ...candle(2), h: 999, c: 998, v: 42 }])
  })

  it('readCandles returns from ≤ ts ≤ to, oldest first, whatever the write order', async () => {
    await putCandles('BTC-USDT', '1m', [candle(7), candle(2), candle(9), candle(4), candle(3)])
    expect(await readCandles('BTC-USDT', '1m', T0 + 3 * MIN, T0 + 7 * MIN)).toEqual([candle(3), candle(4), candle(7)])
    expect(await readCandles('BTC-USDT', '1m', T0 + 8 * MIN, T0 + 5 * MIN)).toEqual([])
  })

  it('series are kept apart by instrument and bar', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 3, 1))
    await putCandles('BTC-USDT', '5m', range(0, 3, 2))
    await putCandles('ETH-USDT', '1m', range(0, 3, 3))
    await putCandles('BTC-USDT-SWAP', '1m', range(0, 3, 4))
    expect((await readCandles('BTC-USDT', '1m', ...ALL)).map((k) => k.c)).toEqual([1, 1, 1, 1])
    expect((await readCandles('BTC-USDT', '5m', ...ALL)).map((k) => k.c)).toEqual([2, 2, 2, 2])
    expect(await latestCandle('ETH-USDT', '1m')).toEqual(candle(3, 3))
  })

  it('trimCandles keeps the newest N of one series, reports how many it deleted, and leaves other series alone', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 9))
    await putCandles('ETH-USDT', '1m', range(0, 9))
    expect(await trimCandles('BTC-USDT', '1m', 3)).toBe(7)
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(7, 9))
    expect(await readCandles('ETH-USDT', '1m', ...ALL)).toHaveLength(10)
    expect(await trimCandles('BTC-USDT', '1m', 3)).toBe(0)
    expect(await trimCandles('BTC-USDT', '1m', 0)).toBe(3)
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual([])
  })

  it('latestCandle is the newest stored candle, or undefined for an empty series', async () => {
    expect(await latestCandle('BTC-USDT', '1m')).toBeUndefined()
    await putCandles('BTC-USDT', '1m', [candle(5), candle(8), candle(6)])
    expect(await latestCandle('BTC-USDT', '1m')).toEqual(candle(8))
  })

  it('10,000 candles written in random order read back complete, ascending and intact', async () => {
    const all = range(0, 9_999)
    const shuffled = [...all]
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
    }
    await putCandles('BTC-USDT', '1m', shuffled)
    const got = await readCandles('BTC-USDT', '1m', T0, T0 + 9_999 * MIN)
    expect(got).toHaveLength(10_000)
    expect(got).toEqual(all)
  })
})

// ── chunked storage ─────────────────────────────────────────────────────────────────────────────

const SPAN = klineChunkSpan('1m') // 500 one-minute candles per chunk window
/** Index of the first candle (candle(i).ts = T0 + i·MIN) of the chunk after T0's. */
const B = (klineChunkStart(SPAN, T0) + SPAN - T0) / MIN

/** The stored chunk rows of a series, oldest first. */
const chunks = (instId = 'BTC-USDT', bar = '1m') =>
  openDb().klineChunks.where('[instId+bar+start]').between([instId, bar, -Infinity], [instId, bar, Infinity]).toArray()
const sizes = async (instId?: string, bar?: string) => (await chunks(instId, bar)).map((r) => r.data.length / KLINE_STRIDE)

describe('kline store: chunks', () => {
  it('the test clock is where the tests think: T0 sits mid-chunk and candle(B) opens the next chunk', () => {
    expect(SPAN).toBe(KLINE_CHUNK_BARS * MIN)
    expect(B).toBeGreaterThan(0)
    expect(B).toBeLessThan(KLINE_CHUNK_BARS)
    expect(klineChunkStart(SPAN, candle(B - 1).ts)).toBeLessThan(klineChunkStart(SPAN, candle(B).ts))
  })

  it('candles are stored as one Float64Array row per aligned window, ts ascending, never more than the window holds', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 1_299))
    const rows = await chunks()
    // 1,300 candles from mid-window: B, 500, 500, then the rest.
    expect(rows.map((r) => r.data.length / KLINE_STRIDE)).toEqual([B, 500, 500, 1_300 - B - 1_000])
    for (const row of rows) {
      expect(row.data).toBeInstanceOf(Float64Array)
      expect(row.data.buffer.byteLength).toBe(row.data.length * 8) // no spare buffer is stored
      expect(row.start).toBe(klineChunkStart(SPAN, row.data[0]!))
      expect(row.data[row.data.length - KLINE_STRIDE]!).toBeLessThan(row.start + SPAN)
    }
    expect(Array.from(rows[1]!.data.subarray(0, KLINE_STRIDE))).toEqual(Object.values(candle(B)))
  })

  it('one write spanning several chunks merges into each of them, overlapping and same-ts candles replaced', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 1_199, 1))
    // Overlaps the end of chunk 0, all of chunk 1 and the start of chunk 2, and adds candles after the end.
    await putCandles('BTC-USDT', '1m', range(B - 10, 1_299, 2))
    const got = await readCandles('BTC-USDT', '1m', ...ALL)
    expect(got).toEqual([...range(0, B - 11, 1), ...range(B - 10, 1_299, 2)])
    expect(await sizes()).toEqual([B, 500, 500, 1_300 - B - 1_000])
  })

  it('gaps fill in: a write between stored candles of one chunk lands in order', async () => {
    const evens = range(0, 1_000).filter((k) => ((k.ts - T0) / MIN) % 2 === 0)
    const odds = range(0, 1_000).filter((k) => ((k.ts - T0) / MIN) % 2 === 1)
    await putCandles('BTC-USDT', '1m', evens)
    await putCandles('BTC-USDT', '1m', odds.reverse()) // newest first, as the exchange's REST pages come
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(0, 1_000))
  })

  it('within one write the last candle of a ts wins, also against a stored one', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 5, 1))
    await putCandles('BTC-USDT', '1m', [candle(3, 7), candle(9, 7), candle(3, 8), candle(9, 9), candle(3, 9)])
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual([...range(0, 2, 1), candle(3, 9), ...range(4, 5, 1), candle(9, 9)])
  })

  it('live updates of the newest candle rewrite it in place, however many arrive', async () => {
    await putCandles('BTC-USDT', '1m', range(0, B))
    for (let v = 1; v <= 20; v++) await putCandles('BTC-USDT', '1m', [{ ...candle(B), c: 500 + v, v }])
    expect(await latestCandle('BTC-USDT', '1m')).toEqual({ ...candle(B), c: 520, v: 20 })
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toHaveLength(B + 1)
    expect(await sizes()).toEqual([B, 1])
  })

  it('concurrent writes into the same chunk all land (each is one read-modify-write transaction)', async () => {
    await Promise.all(range(0, 39).map((k) => putCandles('BTC-USDT', '1m', [k])))
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(0, 39))
  })

  it('a write with a candle of no usable ts rejects and stores nothing of it', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 2, 1))
    await expect(putCandles('BTC-USDT', '1m', [candle(1, 5), { ...candle(2), ts: NaN }])).rejects.toThrow(RangeError)
    await expect(putCandles('BTC-USDT', '1m', [{ ...candle(2), ts: Infinity }])).rejects.toThrow(RangeError)
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(0, 2, 1))
  })

  it('range reads across chunk boundaries return exactly from ≤ ts ≤ to', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 1_599))
    const read = (a: number, b: number) => readCandles('BTC-USDT', '1m', candle(a).ts, candle(b).ts)
    expect(await read(B - 1, B)).toEqual(range(B - 1, B)) // the last of one chunk, the first of the next
    expect(await read(B, B)).toEqual([candle(B)])
    expect(await read(B - 3, B + 500 + 3)).toEqual(range(B - 3, B + 503)) // three chunks, partial at both ends
    expect(await read(B, B + 499)).toEqual(range(B, B + 499)) // exactly one whole chunk
    expect(await read(-50, 3)).toEqual(range(0, 3)) // from before the first candle
    expect(await read(1_590, 5_000)).toEqual(range(1_590, 1_599)) // to after the last
    expect(await read(1_600, 5_000)).toEqual([])
    // Bounds between candles: still inclusive of what lies inside.
    expect(await readCandles('BTC-USDT', '1m', candle(B - 1).ts + 1, candle(B + 1).ts - 1)).toEqual([candle(B)])
    expect(await readCandles('BTC-USDT', '1m', candle(B).ts + 1, candle(B + 1).ts - 1)).toEqual([])
    expect(await readCandles('BTC-USDT', '1m', -Infinity, Infinity)).toHaveLength(1_600)
  })

  it('range reads skip gaps: empty windows between stored chunks cost nothing and return nothing', async () => {
    await putCandles('BTC-USDT', '1m', [...range(0, 2), ...range(5_000, 5_002)])
    expect(await sizes()).toEqual([3, 3])
    expect(await readCandles('BTC-USDT', '1m', candle(1).ts, candle(5_001).ts)).toEqual([candle(1), candle(2), candle(5_000), candle(5_001)])
    expect(await readCandles('BTC-USDT', '1m', candle(3).ts, candle(4_999).ts)).toEqual([])
  })

  it('trimCandles cuts across chunks: whole old chunks go, the oldest kept chunk keeps its newest candles', async () => {
    await putCandles('BTC-USDT', '1m', range(0, 1_299)) // chunks of B, 500, 500, 1300 - B - 1000
    const last = 1_300 - B - 1_000
    expect(await trimCandles('BTC-USDT', '1m', last + 500 + 7)).toBe(1_300 - (last + 507))
    expect(await sizes()).toEqual([7, 500, last])
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(1_300 - (last + 507), 1_299))
    expect(await latestCandle('BTC-USDT', '1m')).toEqual(candle(1_299))
    // A cut on a chunk edge deletes whole chunks and rewrites none.
    expect(await trimCandles('BTC-USDT', '1m', last)).toBe(507)
    expect(await sizes()).toEqual([last])
    expect(await trimCandles('BTC-USDT', '1m', 2.9)).toBe(last - 2) // a fraction rounds down
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual(range(1_298, 1_299))
    expect(await trimCandles('BTC-USDT', '1m', Infinity)).toBe(0)
    expect(await trimCandles('BTC-USDT', '1m', -1)).toBe(2)
    expect(await chunks()).toEqual([]) // no empty chunk is left behind
    expect(await latestCandle('BTC-USDT', '1m')).toBeUndefined()
    await expect(trimCandles('BTC-USDT', '1m', NaN)).rejects.toThrow(RangeError)
  })

  it('a trimmed series takes new candles into its cut chunk', async () => {
    await putCandles('BTC-USDT', '1m', range(0, B + 9))
    await trimCandles('BTC-USDT', '1m', 12) // keeps 2 of the first chunk and the 10 of the second
    await putCandles('BTC-USDT', '1m', [candle(0), candle(B + 10)])
    expect(await readCandles('BTC-USDT', '1m', ...ALL)).toEqual([candle(0), ...range(B - 2, B + 10)])
    expect(await sizes()).toEqual([3, 11])
  })

  it('latestCandle is the newest candle of the newest chunk, whatever was written last', async () => {
    await putCandles('BTC-USDT', '1m', range(B, B + 3))
    await putCandles('BTC-USDT', '1m', range(0, 4)) // older chunk, written later
    expect(await latestCandle('BTC-USDT', '1m')).toEqual(candle(B + 3))
    await putCandles('ETH-USDT', '1m', [candle(9_999)]) // another series, later in time and in key order
    expect(await latestCandle('BTC-USDT', '1m')).toEqual(candle(B + 3))
  })

  it('other bars chunk by their own length: 1H, 1Dutc, 1W and 1M windows hold about 500 bars', () => {
    expect(klineChunkSpan('1s')).toBe(500 * 1_000)
    expect(klineChunkSpan('15m')).toBe(500 * 15 * MIN)
    expect(klineChunkSpan('4H')).toBe(500 * 4 * 3_600_000)
    expect(klineChunkSpan('1h')).toBe(500 * 3_600_000)
    expect(klineChunkSpan('1Dutc')).toBe(500 * 86_400_000)
    expect(klineChunkSpan('1W')).toBe(500 * 7 * 86_400_000)
    expect(klineChunkSpan('1M')).toBe(500 * 30 * 86_400_000) // months, nominally
    // A name it cannot read gets one-minute windows: more, smaller chunks, never oversized ones.
    for (const odd of ['', 'tick', '0m', '1x', 'm1']) expect(klineChunkSpan(odd)).toBe(SPAN)
  })

  it('a daily series aligned to 16:00 UTC (OKX 1D) stores and reads like any other', async () => {
    const DAY = 86_400_000
    const day0 = 1_500_000_000_000 - (1_500_000_000_000 % DAY) - 8 * 3_600_000
    const days = Array.from({ length: 1_200 }, (_, i): Candle => ({ ts: day0 + i * DAY, o: i, h: i + 1, l: i - 1, c: i, v: i }))
    await putCandles('BTC-USDT', '1D', days)
    expect((await sizes('BTC-USDT', '1D')).every((n) => n <= 500)).toBe(true)
    expect(await readCandles('BTC-USDT', '1D', ...ALL)).toEqual(days)
    expect(await readCandles('BTC-USDT', '1D', days[480]!.ts, days[1_010]!.ts)).toEqual(days.slice(480, 1_011))
  })

  it('negative and fractional timestamps keep their order across chunk windows', async () => {
    const odd = [-SPAN - 0.5, -1, -0.25, 0, 0.5, SPAN - 0.5, SPAN, 2 * SPAN + 0.125].map((ts, i): Candle => ({ ts, o: i, h: i, l: i, c: i, v: i }))
    await putCandles('X', '1m', [...odd].reverse())
    expect(await readCandles('X', '1m', -Infinity, Infinity)).toEqual(odd)
    expect(await readCandles('X', '1m', -1, SPAN - 0.5)).toEqual(odd.slice(1, 6))
    expect(await latestCandle('X', '1m')).toEqual(odd[7])
  })
})
