// The candle series of the chart, pure: wire and store candles in, uPlot's columns out. The chart
// keeps one Columns per series and updates its last candle in place, so a live tick allocates
// nothing and costs O(1) before the redraw.

import type { Candle as WireCandle } from '../../../../contract/trade.ts'
import type { Candle } from '../../../data/types.ts'

export type { Candle, WireCandle }

/**
 * A series as columns (uPlot's aligned data): ts in seconds (uPlot's time unit), prices and volume
 * as numbers. The arrays are buffers of `capacity` slots of which the first `length` are candles;
 * the spare slots let a new live candle append without copying the series.
 */
export interface Columns {
  length: number
  ts: Float64Array
  o: Float64Array
  h: Float64Array
  l: Float64Array
  c: Float64Array
  v: Float64Array
}

/** The six columns in uPlot's order, each a view of exactly `length` candles. */
export type AlignedColumns = [ts: Float64Array, o: Float64Array, h: Float64Array, l: Float64Array, c: Float64Array, v: Float64Array]

/** Spare slots kept after the last candle: a day of one-minute candles appends without a copy. */
export const SPARE_SLOTS = 1_440

/** A decimal string (or number) as a number; NaN for anything else, '' included (Number('') is 0). */
const num = (s: unknown): number => (typeof s === 'number' ? s : typeof s === 'string' && s.trim() !== '' ? Number(s) : NaN)

/**
 * A wire candle as a store candle (ts in ms, volume in NADI), or null when it is malformed: a push
 * that is not a candle is ignored, as DESIGN §5 asks of malformed frames.
 */
export function fromWire(w: unknown): Candle | null {
  if (!Array.isArray(w) || w.length < 6) return null
  const ts = w[0]
  const o = num(w[1])
  const h = num(w[2])
  const l = num(w[3])
  const c = num(w[4])
  const v = num(w[5])
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return null
  if (!Number.isFinite(o) || !Number.isFinite(h) || !Number.isFinite(l) || !Number.isFinite(c) || !Number.isFinite(v)) return null
  return { ts, o, h, l, c, v }
}

/** The well-formed candles of a wire list, oldest first (a list out of order is sorted). */
export function fromWireList(list: readonly unknown[]): Candle[] {
  const out: Candle[] = []
  for (const w of list) {
    const k = fromWire(w)
    if (k) out.push(k)
  }
  return isAscending(out) ? out : out.sort((a, b) => a.ts - b.ts)
}

function isAscending(list: readonly Candle[]): boolean {
  for (let i = 1; i < list.length; i++) if (!(list[i]!.ts > list[i - 1]!.ts)) return false
  return true
}

/**
 * History with live candles applied in order: a live candle with the ts of the last one replaces
 * it, a newer one appends, an older one is ignored (it is already closed; history has it).
 * Returns a new array; `history` must be oldest first.
 */
export function mergeCandles(history: readonly Candle[], live: readonly Candle[]): Candle[] {
  const out = history.slice()
  for (const k of live) {
    const last = out[out.length - 1]
    if (!last || k.ts > last.ts) out.push(k)
    else if (k.ts === last.ts) out[out.length - 1] = k
  }
  return out
}

/**
 * Two ts-ascending series as one, each ts once; on a tie `b` wins (it is the fresher source: the
 * server's history over the cache, or a page of older history over what the store had).
 */
export function unionCandles(a: readonly Candle[], b: readonly Candle[]): Candle[] {
  if (a.length === 0) return b.slice()
  if (b.length === 0) return a.slice()
  // The common cases, a page before or after what is shown, are a concatenation.
  if (b[b.length - 1]!.ts < a[0]!.ts) return [...b, ...a]
  if (b[0]!.ts > a[a.length - 1]!.ts) return [...a, ...b]
  const out: Candle[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = a[i]
    const y = b[j]
    if (y === undefined || (x !== undefined && x.ts < y.ts)) {
      out.push(x!)
      i++
    } else {
      if (x !== undefined && x.ts === y.ts) i++
      out.push(y)
      j++
    }
  }
  return out
}

/**
 * What to show once the server's latest page arrives, given what is shown. The page wins over the
 * candles it covers and so does the present: shown candles newer than the page (live ones that
 * closed while it was on its way) stay. Older shown candles stay only when they provably join the
 * page: it is full (the server may have more before it) and the shown series overlaps it; otherwise
 * they may end before a gap (a phone offline for a day) or come from an older server state.
 */
export function joinLatest(shown: readonly Candle[], page: readonly Candle[], full: boolean): Candle[] {
  const first = page[0]
  const last = page[page.length - 1]
  if (!first || !last) return []
  const newer = shown.filter((k) => k.ts > last.ts)
  const joins = full && shown.some((k) => k.ts >= first.ts && k.ts <= last.ts)
  const older = joins ? shown.filter((k) => k.ts < first.ts) : []
  return [...older, ...page, ...newer]
}

/** Columns holding `candles` (oldest first) with `spare` free slots after them. */
export function toColumns(candles: readonly Candle[], spare = SPARE_SLOTS): Columns {
  const n = candles.length
  const cols = allocate(n + spare)
  for (let i = 0; i < n; i++) {
    const k = candles[i]!
    cols.ts[i] = k.ts / 1000
    cols.o[i] = k.o
    cols.h[i] = k.h
    cols.l[i] = k.l
    cols.c[i] = k.c
    cols.v[i] = k.v
  }
  cols.length = n
  return cols
}

function allocate(capacity: number): Columns {
  return {
    length: 0,
    ts: new Float64Array(capacity),
    o: new Float64Array(capacity),
    h: new Float64Array(capacity),
    l: new Float64Array(capacity),
    c: new Float64Array(capacity),
    v: new Float64Array(capacity),
  }
}

/** The candle at slot i, back in store form (ts in ms). */
export function candleAt(cols: Columns, i: number): Candle | undefined {
  if (i < 0 || i >= cols.length) return undefined
  return { ts: Math.round(cols.ts[i]! * 1000), o: cols.o[i]!, h: cols.h[i]!, l: cols.l[i]!, c: cols.c[i]!, v: cols.v[i]! }
}

/**
 * uPlot's data for the columns. The views share the buffers, so an in-place update of the last
 * candle shows through them; an append needs new views (uPlot takes the length from data[0]).
 */
export function aligned(cols: Columns): AlignedColumns {
  const n = cols.length
  return [cols.ts.subarray(0, n), cols.o.subarray(0, n), cols.h.subarray(0, n), cols.l.subarray(0, n), cols.c.subarray(0, n), cols.v.subarray(0, n)]
}

export type LiveEffect = 'replaced' | 'appended' | 'ignored'

/**
 * Applies one live candle to the columns in place, by mergeCandles' rule. 'appended' may have
 * moved the columns to larger buffers (doubling, so appends stay amortised O(1)).
 */
export function applyLive(cols: Columns, k: Candle): LiveEffect {
  const ts = k.ts / 1000
  const n = cols.length
  let i: number
  if (n > 0 && ts === cols.ts[n - 1]) i = n - 1
  else if (n === 0 || ts > cols.ts[n - 1]!) {
    if (n === cols.ts.length) grow(cols, Math.max(16, n * 2))
    i = n
    cols.length = n + 1
  } else return 'ignored'
  cols.ts[i] = ts
  cols.o[i] = k.o
  cols.h[i] = k.h
  cols.l[i] = k.l
  cols.c[i] = k.c
  cols.v[i] = k.v
  return i === n ? 'appended' : 'replaced'
}

function grow(cols: Columns, capacity: number): void {
  const next = allocate(capacity)
  for (const key of ['ts', 'o', 'h', 'l', 'c', 'v'] as const) next[key].set(cols[key].subarray(0, cols.length))
  cols.ts = next.ts
  cols.o = next.o
  cols.h = next.h
  cols.l = next.l
  cols.c = next.c
  cols.v = next.v
}

/** The first index whose ts (seconds) is ≥ t, or `length` if none: the visible range's edges. */
export function lowerBound(ts: Float64Array, length: number, t: number): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ts[mid]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Lowest low, highest high and highest volume of candles [i0, i1): what the price and volume scales
 * must fit. Null when the range holds no candle.
 */
export function visibleExtent(cols: Columns, i0: number, i1: number): { low: number; high: number; maxVol: number } | null {
  const from = Math.max(0, i0)
  const to = Math.min(cols.length, i1)
  if (from >= to) return null
  let low = Infinity
  let high = -Infinity
  let maxVol = 0
  for (let i = from; i < to; i++) {
    const l = cols.l[i]!
    const h = cols.h[i]!
    const v = cols.v[i]!
    if (l < low) low = l
    if (h > high) high = h
    if (v > maxVol) maxVol = v
  }
  return { low, high, maxVol }
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * Time-axis labels in the phone's time zone: "14:30", with the date ("11/24") under the first label
 * of each day; days alone once a step is a day or more. A left-out split (null) has no label.
 */
export function timeLabels(splits: readonly (number | null)[], incr: number): string[] {
  let day = ''
  return splits.map((v) => {
    if (v == null) return ''
    const d = new Date(v * 1000)
    const date = `${d.getMonth() + 1}/${d.getDate()}`
    if (incr >= 86_400) return date
    const label = `${pad2(d.getHours())}:${pad2(d.getMinutes())}${date !== day ? `\n${date}` : ''}`
    day = date
    return label
  })
}

/**
 * The OHLC line's parts, each kept whole when the line wraps: prices in the market's decimals (a
 * price of 4 decimals never shows 6), or, before the market is known, a guess from the price itself.
 */
export function readoutParts(k: { o: number; h: number; l: number; c: number; v: number }, decimals: number | null): string[] {
  const d = decimals ?? priceDecimals(k.c)
  return [`O ${k.o.toFixed(d)}`, `H ${k.h.toFixed(d)}`, `L ${k.l.toFixed(d)}`, `C ${k.c.toFixed(d)}`, `V ${fmtVolume(k.v)}`]
}

/** Decimals for prices around `v`: a few significant digits more for a cheap token. */
function priceDecimals(v: number): number {
  const a = Math.abs(v)
  return a >= 1000 ? 2 : a >= 1 ? 4 : 6
}

/** Volume in K, M, B, two decimals. */
export function fmtVolume(v: number): string {
  const a = Math.abs(v)
  if (a >= 1e9) return `${(v / 1e9).toFixed(2)}B`
  if (a >= 1e6) return `${(v / 1e6).toFixed(2)}M`
  if (a >= 1e3) return `${(v / 1e3).toFixed(2)}K`
  return v.toFixed(2)
}
