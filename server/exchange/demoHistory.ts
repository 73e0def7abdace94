// Demo only: a few days of made-up market history, so a newcomer's chart has shape on every bar
// (the 1d chart needs days) instead of one lonely candle. Candles only — no orders, fills or money:
// it goes into the stored candles the chart pages through, never into the journal or the ledger.
// Pure: a seeded random walk of 1-minute candles that ends exactly at the price the live demo market
// starts from, folded into the six longer bars the same way trades fold into them.

import { BAR_MS, BARS, type Bar } from '../../contract/trade.ts'
import type { CandleState } from './marketData/index.ts'
import type { MarketSpec } from './engine/index.ts'

export interface DemoHistoryOptions {
  spec: MarketSpec
  /** The first minute NOT covered (ms): the live market takes over from here. Aligned down to the minute. */
  end: number
  /** The last close, units of 1e-8 (the live market's starting price). */
  endPrice: bigint
  days: number
  /** A seed: the same seed draws the same history. */
  seed: number
}

const MINUTE = 60_000

/** mulberry32: small, fast and good enough to draw a chart from. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A standard normal draw (Box–Muller). */
const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())

/**
 * 1-minute candles for `days` days before `end`, oldest first, on the market's price and size steps,
 * the last closing at `endPrice`. The walk is drawn backwards from the end price, with a slow drift
 * and bursts of volatility, kept within a third and three times the end price.
 */
export function demoMinutes(o: DemoHistoryOptions): CandleState[] {
  const r = rng(o.seed)
  const end = o.end - (o.end % MINUTE)
  const n = Math.round(o.days * 1440)
  const tick = Number(o.spec.priceStep)
  const last = Number(o.endPrice)
  const lo = last / 3
  const hi = last * 3
  // Closes, newest first: close[0] is the last minute's.
  const closes = new Array<number>(n)
  let p = last
  let vol = 0.0012
  for (let i = 0; i < n; i++) {
    closes[i] = p
    // Volatility wanders between calm and busy stretches; a gentle drift makes days differ.
    vol = Math.min(0.004, Math.max(0.0004, vol * (1 + 0.08 * normal(r))))
    const drift = 0.00002 * Math.sin(i / 900)
    p = Math.min(hi, Math.max(lo, p * Math.exp(-(drift + vol * normal(r)))))
  }
  const onTick = (v: number) => BigInt(Math.max(1, Math.round(v / tick))) * o.spec.priceStep
  const out: CandleState[] = []
  for (let i = n - 1; i >= 0; i--) {
    const close = i === 0 ? o.endPrice : onTick(closes[i]!)
    const open = i === n - 1 ? onTick(closes[i]! * Math.exp(vol * normal(r))) : out[out.length - 1]!.close
    const wick = () => BigInt(Math.floor(Math.abs(normal(r)) * 0.6 * Number(close > open ? close - open : open - close) + Math.abs(normal(r)) * Number(close) * 0.0008))
    const top = close > open ? close : open
    const bottom = close > open ? open : close
    const high = top + (wick() / o.spec.priceStep) * o.spec.priceStep
    const lowRaw = bottom - (wick() / o.spec.priceStep) * o.spec.priceStep
    const low = lowRaw > 0n ? lowRaw : o.spec.priceStep
    // Lots traded: heavier when the price moves, and in the busy hours of the UTC day.
    const ts = end - (i + 1) * MINUTE
    const hour = new Date(ts).getUTCHours()
    const busy = 0.6 + 0.4 * Math.sin(((hour - 6) / 24) * 2 * Math.PI) ** 2
    const lots = BigInt(Math.max(1, Math.round(busy * (2_000 + 30_000 * Math.abs(normal(r))) * (1 + Math.abs(Number(close - open)) / tick / 4))))
    const size = lots * o.spec.sizeStep
    const avg = (open + close + high + low) / 4n
    out.push({ ts, open, high, low, close, vol: size, volQuote: (size * avg) / 100_000_000n })
  }
  return out
}

/** The 1-minute candles folded into every bar (1m included), oldest first per bar. */
export function foldBars(minutes: readonly CandleState[]): Map<Bar, CandleState[]> {
  const out = new Map<Bar, CandleState[]>()
  for (const bar of BARS) {
    const ms = BAR_MS[bar]
    const list: CandleState[] = []
    for (const m of minutes) {
      const ts = m.ts - (m.ts % ms)
      const cur = list[list.length - 1]
      if (cur && cur.ts === ts) {
        if (m.high > cur.high) cur.high = m.high
        if (m.low < cur.low) cur.low = m.low
        cur.close = m.close
        cur.vol += m.vol
        cur.volQuote += m.volQuote
      } else list.push({ ...m, ts })
    }
    out.set(bar, list)
  }
  return out
}
