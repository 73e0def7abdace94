import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it } from 'vitest'
import { latestCandle, putCandles, readCandles, trimCandles, type Candle } from '../../../src/data/index.ts'
import { freshDatabase } from './fresh.ts'

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
