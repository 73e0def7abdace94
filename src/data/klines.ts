// Kline history (DESIGN §6), stored in chunks: one `klineChunks` row per (instId, bar, time window)
// holding that window's candles as one interleaved Float64Array (see KlineChunkRow in db.ts). A read
// of 10,000 candles is about twenty rows and a decode loop; a write merges into the chunks it
// touches, in one transaction.

import type { Candle } from './types.ts'
import {
  KLINE_STRIDE as S,
  klineChunkSpan,
  klineChunkStart,
  openDb,
  type KlineChunkKey,
  type KlineChunkRow,
  type NadiDb,
} from './db.ts'

/** All chunks of a series, oldest first. */
const series = (d: NadiDb, instId: string, bar: string) =>
  d.klineChunks.where('[instId+bar+start]').between([instId, bar, -Infinity], [instId, bar, Infinity], true, true)

const keyOf = ({ instId, bar, start }: KlineChunkRow): KlineChunkKey => [instId, bar, start]

/** The candle at slot i of a chunk's data. */
const candleAt = (data: Float64Array, i: number): Candle => {
  const k = i * S
  return { ts: data[k]!, o: data[k + 1]!, h: data[k + 2]!, l: data[k + 3]!, c: data[k + 4]!, v: data[k + 5]! }
}

/** The first slot of `data` whose ts is ≥ ts (or, with `after`, > ts); the slot count if none. */
function search(data: Float64Array, ts: number, after = false): number {
  let lo = 0
  let hi = data.length / S
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const t = data[mid * S]!
    if (t < ts || (after && t === ts)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A chunk's data with `incoming` merged in: the result is ts-ascending with each ts once, and a ts in
 * both takes the incoming candle (within `incoming`, the last one of a ts wins).
 */
function merge(old: Float64Array | undefined, incoming: readonly Candle[]): Float64Array {
  let sorted = incoming
  for (let i = 1; i < incoming.length; i++) {
    if (!(incoming[i]!.ts > incoming[i - 1]!.ts)) {
      sorted = [...incoming].sort((a, b) => a.ts - b.ts) // stable: equal ts keep their call order
      break
    }
  }
  const nOld = old ? old.length / S : 0
  const out = new Float64Array((nOld + sorted.length) * S)
  let w = 0
  let i = 0
  const put = (ts: number, o: number, h: number, l: number, c: number, v: number) => {
    out[w] = ts
    out[w + 1] = o
    out[w + 2] = h
    out[w + 3] = l
    out[w + 4] = c
    out[w + 5] = v
    w += S
  }
  for (let j = 0; j < sorted.length; j++) {
    const k = sorted[j]!
    if (j + 1 < sorted.length && sorted[j + 1]!.ts === k.ts) continue // a later candle of this ts wins
    if (old) {
      const run = i // the stored candles before this one go over in one copy
      while (i < nOld && old[i * S]! < k.ts) i++
      out.set(old.subarray(run * S, i * S), w)
      w += (i - run) * S
      if (i < nOld && old[i * S] === k.ts) i++ // replaced by k
    }
    put(k.ts, k.o, k.h, k.l, k.c, k.v)
  }
  if (old && i < nOld) {
    out.set(old.subarray(i * S), w)
    w += (nOld - i) * S
  }
  // A view would store its whole buffer: keep exactly the candles.
  return w === out.length ? out : out.slice(0, w)
}

/** Stores candles; a candle whose ts is already stored replaces it (a live candle updating). */
export async function putCandles(instId: string, bar: string, candles: readonly Candle[]): Promise<void> {
  if (candles.length === 0) return
  const span = klineChunkSpan(bar)
  const byChunk = new Map<number, Candle[]>()
  for (const k of candles) {
    if (typeof k.ts !== 'number' || !Number.isFinite(k.ts)) throw new RangeError(`candle ts must be a finite number, got ${String(k.ts)}`)
    const start = klineChunkStart(span, k.ts)
    const group = byChunk.get(start)
    if (group) group.push(k)
    else byChunk.set(start, [k])
  }
  const d = openDb()
  // Read-modify-write of the touched chunks in one transaction: concurrent writers queue behind it.
  await d.transaction('rw', d.klineChunks, async () => {
    const keys = [...byChunk.keys()].map((start): KlineChunkKey => [instId, bar, start])
    const stored = await d.klineChunks.bulkGet(keys)
    await d.klineChunks.bulkPut(keys.map(([, , start], i) => ({ instId, bar, start, data: merge(stored[i]?.data, byChunk.get(start)!) })))
  })
}

/** Candles with from ≤ ts ≤ to, oldest first: one key-range read of the chunks, then a decode. */
export async function readCandles(instId: string, bar: string, from: number, to: number): Promise<Candle[]> {
  if (!(from <= to)) return []
  const span = klineChunkSpan(bar)
  const rows = await openDb()
    .klineChunks.where('[instId+bar+start]')
    .between([instId, bar, klineChunkStart(span, from)], [instId, bar, klineChunkStart(span, to)], true, true)
    .toArray()
  const out: Candle[] = []
  for (const { data } of rows) {
    const n = data.length / S
    // Only the first and last chunks can hold candles outside [from, to].
    const first = data[0]! < from ? search(data, from) : 0
    const end = data[data.length - S]! > to ? search(data, to, true) : n
    for (let i = first; i < end; i++) out.push(candleAt(data, i))
  }
  return out
}

/** Keeps the newest `keepNewest` candles of a series, deletes the rest; returns how many went. */
export async function trimCandles(instId: string, bar: string, keepNewest: number): Promise<number> {
  const keep = Math.max(0, Math.floor(keepNewest))
  if (Number.isNaN(keep)) throw new RangeError(`keepNewest must be a number, got ${String(keepNewest)}`)
  if (keep === Infinity) return 0
  const d = openDb()
  return d.transaction('rw', d.klineChunks, async () => {
    const newestFirst = await series(d, instId, bar).reverse().toArray()
    let left = keep
    let deleted = 0
    const doomed: KlineChunkKey[] = []
    for (const row of newestFirst) {
      const n = row.data.length / S
      if (left >= n) {
        left -= n
      } else if (left > 0) {
        // The oldest kept chunk: keep its newest `left` candles.
        await d.klineChunks.put({ ...row, data: row.data.slice((n - left) * S) })
        deleted += n - left
        left = 0
      } else {
        doomed.push(keyOf(row))
        deleted += n
      }
    }
    await d.klineChunks.bulkDelete(doomed)
    return deleted
  })
}

/** The newest stored candle of a series, if any: the last slot of its last chunk. */
export async function latestCandle(instId: string, bar: string): Promise<Candle | undefined> {
  const row = await series(openDb(), instId, bar).last()
  return row && candleAt(row.data, row.data.length / S - 1)
}
