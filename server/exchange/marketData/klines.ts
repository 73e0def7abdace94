// Candles of the seven bars (SPEC §9), derived from trades (DESIGN §8). Bars are UTC-aligned: a
// candle's open time is ts - ts % BAR_MS[bar], which puts 4h candles at 00/04/08/… and days at
// 00:00 UTC since the epoch is a UTC midnight. Pure; only the newest candles are held in memory,
// older pages come from storage.

import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { BAR_MS, BARS, type Bar, type Candle } from '../../../contract/trade.ts'

/** A candle in units of 1e-8. */
export interface CandleState {
  /** Open time, ms, aligned to the bar. */
  ts: number
  open: bigint
  high: bigint
  low: bigint
  close: bigint
  /** NADI traded. */
  vol: bigint
  /** USDT traded. */
  volQuote: bigint
}

export interface CandleChange {
  bar: Bar
  /** A copy of the candle after the trade. */
  candle: CandleState
  /** The trade opened this candle: the bar's previous candle is final and can be stored. */
  opened: boolean
}

export const CANDLES_IN_MEMORY = 2000

export function bucketOf(bar: Bar, ts: number): number {
  return ts - (ts % BAR_MS[bar])
}

export class CandleBook {
  private readonly bars = new Map<Bar, CandleState[]>(BARS.map((b) => [b, []]))

  constructor(readonly keep: number = CANDLES_IN_MEMORY) {
    if (!Number.isSafeInteger(keep) || keep < 1) throw new RangeError(`bad candle memory size ${keep}`)
  }

  /**
   * Folds one trade (price, size NADI, quote USDT, all units of 1e-8) into every bar's current candle.
   * A trade stamped before the bar's newest candle (a clock stepping back) is credited to that newest
   * candle rather than reopening a closed one, so candles only ever grow at the end.
   */
  onTrade(ts: number, price: bigint, size: bigint, quote: bigint): CandleChange[] {
    if (!Number.isSafeInteger(ts) || ts < 0) throw new RangeError(`bad trade time ${ts}`)
    if (price <= 0n || size <= 0n || quote < 0n) throw new RangeError(`bad trade ${price} × ${size} = ${quote}`)
    const changes: CandleChange[] = []
    for (const bar of BARS) {
      const list = this.list(bar)
      const last = list[list.length - 1]
      const bucket = bucketOf(bar, ts)
      if (last !== undefined && bucket <= last.ts) {
        if (price > last.high) last.high = price
        if (price < last.low) last.low = price
        last.close = price
        last.vol += size
        last.volQuote += quote
        changes.push({ bar, candle: { ...last }, opened: false })
      } else {
        const candle: CandleState = { ts: bucket, open: price, high: price, low: price, close: price, vol: size, volQuote: quote }
        list.push(candle)
        if (list.length > this.keep) list.splice(0, list.length - this.keep)
        changes.push({ bar, candle: { ...candle }, opened: true })
      }
    }
    return changes
  }

  /** Up to `limit` candles with ts < before (all held ones when before is omitted), oldest first. */
  history(bar: Bar, before?: number, limit: number = 300): CandleState[] {
    const list = this.list(bar)
    let end = list.length
    if (before !== undefined) {
      let lo = 0
      let hi = list.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if ((list[mid] as CandleState).ts < before) lo = mid + 1
        else hi = mid
      }
      end = lo
    }
    const start = Math.max(0, end - Math.max(0, Math.floor(limit)))
    return list.slice(start, end).map((c) => ({ ...c }))
  }

  /** Open time of the oldest candle held, or null: a page reaching back past it must come from storage. */
  heldSince(bar: Bar): number | null {
    return this.list(bar)[0]?.ts ?? null
  }

  /** The bar's newest candle, or null before any trade. */
  current(bar: Bar): CandleState | null {
    const list = this.list(bar)
    const last = list[list.length - 1]
    return last === undefined ? null : { ...last }
  }

  /**
   * Seeds a bar from storage. Candles held already win over stored ones of the same open time (they
   * are at least as new); the newest `keep` are kept. Throws on a candle not aligned to the bar or
   * not internally consistent, which would mean corrupt storage.
   */
  load(bar: Bar, candles: readonly CandleState[]): void {
    const byTs = new Map<number, CandleState>()
    for (const c of candles) {
      checkCandle(bar, c)
      byTs.set(c.ts, { ...c })
    }
    for (const c of this.list(bar)) byTs.set(c.ts, c)
    const merged = [...byTs.values()].sort((a, b) => a.ts - b.ts)
    this.bars.set(bar, merged.slice(Math.max(0, merged.length - this.keep)))
  }

  private list(bar: Bar): CandleState[] {
    return this.bars.get(bar) as CandleState[]
  }
}

function checkCandle(bar: Bar, c: CandleState): void {
  const ok =
    Number.isSafeInteger(c.ts) &&
    c.ts >= 0 &&
    c.ts % BAR_MS[bar] === 0 &&
    c.low > 0n &&
    c.low <= c.open &&
    c.low <= c.close &&
    c.high >= c.open &&
    c.high >= c.close &&
    c.vol >= 0n &&
    c.volQuote >= 0n
  if (!ok) throw new RangeError(`bad ${bar} candle at ${c.ts}`)
}

export function toWire(c: CandleState): Candle {
  return [c.ts, formatMoney(c.open), formatMoney(c.high), formatMoney(c.low), formatMoney(c.close), formatMoney(c.vol), formatMoney(c.volQuote)]
}

/** A wire candle back in units (e.g. read from storage that keeps the wire form); null if malformed. */
export function fromWire(c: Candle): CandleState | null {
  const [ts, ...rest] = c
  const units = rest.map((s) => parseMoney(s))
  if (!Number.isSafeInteger(ts) || units.some((u) => u === null)) return null
  const [open, high, low, close, vol, volQuote] = units as bigint[]
  return { ts, open: open as bigint, high: high as bigint, low: low as bigint, close: close as bigint, vol: vol as bigint, volQuote: volQuote as bigint }
}
