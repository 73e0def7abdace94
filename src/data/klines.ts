// Kline history (DESIGN §6): one row per [instId+bar+ts], merged with live candles by key.

import type { Candle } from './types.ts'
import { openDb, type KlineKey, type KlineRow } from './db.ts'

const lowest = (instId: string, bar: string): KlineKey => [instId, bar, -Infinity]
const highest = (instId: string, bar: string): KlineKey => [instId, bar, Infinity]

const toCandle = ({ ts, o, h, l, c, v }: KlineRow): Candle => ({ ts, o, h, l, c, v })

/** Stores candles; a candle whose ts is already stored replaces it (a live candle updating). */
export async function putCandles(instId: string, bar: string, candles: readonly Candle[]): Promise<void> {
  if (candles.length === 0) return
  // Within one call the last candle of a ts wins, as it would across calls.
  await openDb().klines.bulkPut(candles.map(({ ts, o, h, l, c, v }) => ({ instId, bar, ts, o, h, l, c, v })))
}

/** Candles with from ≤ ts ≤ to, oldest first: one key-range read on the primary key. */
export async function readCandles(instId: string, bar: string, from: number, to: number): Promise<Candle[]> {
  if (!(from <= to)) return []
  const rows = await openDb().klines.where('[instId+bar+ts]').between([instId, bar, from], [instId, bar, to], true, true).toArray()
  return rows.map(toCandle)
}

/** Keeps the newest `keepNewest` candles of a series, deletes the rest; returns how many went. */
export async function trimCandles(instId: string, bar: string, keepNewest: number): Promise<number> {
  const d = openDb()
  return d.transaction('rw', d.klines, async () => {
    // Rows of one [instId+bar] are ordered by primary key, i.e. by ts: newest first when reversed.
    const doomed = await d.klines
      .where('[instId+bar]')
      .equals([instId, bar])
      .reverse()
      .offset(Math.max(0, Math.floor(keepNewest)))
      .primaryKeys()
    await d.klines.bulkDelete(doomed)
    return doomed.length
  })
}

/** The newest stored candle of a series, if any. */
export async function latestCandle(instId: string, bar: string): Promise<Candle | undefined> {
  const row = await openDb().klines.where('[instId+bar+ts]').between(lowest(instId, bar), highest(instId, bar), true, true).last()
  return row && toCandle(row)
}
