// Bench page: the app's real kline store (src/data, Dexie on IndexedDB) in Chromium, driven by
// bench/rows/klines.ts through window.nadiKlineBench. Built on the fly by that row with Vite.

import { putCandles, readCandles, type Candle } from '../../src/data/index.ts'

const MINUTE = 60_000

export interface ReadResult {
  ms: number
  length: number
  /** Index of the first candle out of order (ts not strictly increasing), or -1. */
  unsorted: number
  firstTs: number | null
  lastTs: number | null
}

/** `count` one-minute candles from `start` (a random walk, so values differ). */
function candles(count: number, start: number): Candle[] {
  const out: Candle[] = []
  let price = 0.25
  for (let i = 0; i < count; i++) {
    const o = price
    price = Math.max(0.01, price + (Math.random() - 0.5) * 0.002)
    const c = price
    out.push({ ts: start + i * MINUTE, o, h: Math.max(o, c) + 0.0005, l: Math.min(o, c) - 0.0005, c, v: Math.round(Math.random() * 10_000) })
  }
  return out
}

const bench = {
  /** Stores `count` candles of (instId, bar) ending at the last whole minute; returns [from, to]. */
  async seed(instId: string, bar: string, count: number): Promise<[number, number]> {
    const end = Math.floor(Date.now() / MINUTE) * MINUTE
    const from = end - (count - 1) * MINUTE
    await putCandles(instId, bar, candles(count, from))
    return [from, end]
  },
  /** One timed readCandles, and what came back. */
  async read(instId: string, bar: string, from: number, to: number): Promise<ReadResult> {
    const t0 = performance.now()
    const rows = await readCandles(instId, bar, from, to)
    const ms = performance.now() - t0
    let unsorted = -1
    for (let i = 1; i < rows.length; i++) {
      if (!((rows[i] as Candle).ts > (rows[i - 1] as Candle).ts)) {
        unsorted = i
        break
      }
    }
    return { ms, length: rows.length, unsorted, firstTs: rows[0]?.ts ?? null, lastTs: rows[rows.length - 1]?.ts ?? null }
  },
}

declare global {
  interface Window {
    nadiKlineBench?: typeof bench
  }
}

window.nadiKlineBench = bench
document.documentElement.dataset.ready = '1'
