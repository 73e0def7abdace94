// The rolling 24 h ticker (tickers:<instId>, GET /api/v1/trade/ticker), derived from trades. Trades are
// summed into per-minute buckets, so the window is the current UTC minute and the 1439 before it:
// sums stay exact integers as the window slides, a bucket counts whole or not at all.

import { formatMoney } from '../../../contract/money.ts'
import { INST_ID, type Ticker } from '../../../contract/trade.ts'

const MINUTE_MS = 60_000
export const WINDOW_MINUTES = 1440

interface MinuteBucket {
  /** floor(ts / 1 min) */
  minute: number
  open: bigint
  high: bigint
  low: bigint
  close: bigint
  vol: bigint
  volQuote: bigint
}

export class TickerWindow {
  /** Minutes with trades, oldest first, none older than the window of the newest trade. */
  private readonly buckets: MinuteBucket[] = []
  private last: bigint | null = null

  /**
   * One trade, units of 1e-8. A trade stamped before the newest bucket (a clock stepping back) is
   * counted in that bucket, as the candles do.
   */
  onTrade(ts: number, price: bigint, size: bigint, quote: bigint): void {
    if (!Number.isSafeInteger(ts) || ts < 0) throw new RangeError(`bad trade time ${ts}`)
    if (price <= 0n || size <= 0n || quote < 0n) throw new RangeError(`bad trade ${price} × ${size} = ${quote}`)
    this.last = price
    const minute = Math.floor(ts / MINUTE_MS)
    const newest = this.buckets[this.buckets.length - 1]
    if (newest !== undefined && minute <= newest.minute) {
      if (price > newest.high) newest.high = price
      if (price < newest.low) newest.low = price
      newest.close = price
      newest.vol += size
      newest.volQuote += quote
      return
    }
    this.buckets.push({ minute, open: price, high: price, low: price, close: price, vol: size, volQuote: quote })
    const oldest = minute - WINDOW_MINUTES + 1
    let drop = 0
    while (drop < this.buckets.length && (this.buckets[drop] as MinuteBucket).minute < oldest) drop++
    if (drop > 0) this.buckets.splice(0, drop)
  }

  /**
   * The ticker at `now`. open24h is the first trade in the window; with no trade in the window the
   * price has stood still at `last` all day, so open, high and low are `last` and the volumes 0.
   * All nulls (and change "0.0000") before the first trade.
   */
  toWire(now: number): Ticker {
    const base = { inst_id: INST_ID, ts: now } as const
    if (this.last === null) {
      return { ...base, last: null, open24h: null, high24h: null, low24h: null, vol24h: '0', vol_quote24h: '0', change24h: formatRatio(0n, 1n) }
    }
    const last = this.last
    const oldest = Math.floor(now / MINUTE_MS) - WINDOW_MINUTES + 1
    let open: bigint | null = null
    let high = last
    let low = last
    let vol = 0n
    let volQuote = 0n
    for (const b of this.buckets) {
      if (b.minute < oldest) continue
      if (open === null) {
        open = b.open
        high = b.high
        low = b.low
      } else {
        if (b.high > high) high = b.high
        if (b.low < low) low = b.low
      }
      vol += b.vol
      volQuote += b.volQuote
    }
    const open24h = open ?? last
    return {
      ...base,
      last: formatMoney(last),
      open24h: formatMoney(open24h),
      high24h: formatMoney(high),
      low24h: formatMoney(low),
      vol24h: formatMoney(vol),
      vol_quote24h: formatMoney(volQuote),
      change24h: formatRatio(last - open24h, open24h),
    }
  }
}

/** num / den as a decimal with 4 places, half away from zero ("-0.0125"); "0.0000" when den is 0. */
export function formatRatio(num: bigint, den: bigint): string {
  if (den === 0n) return '0.0000'
  const neg = num < 0n !== den < 0n && num !== 0n
  const n = (num < 0n ? -num : num) * 10_000n
  const d = den < 0n ? -den : den
  let q = n / d
  if ((n % d) * 2n >= d) q += 1n
  const text = `${q / 10_000n}.${(q % 10_000n).toString().padStart(4, '0')}`
  return neg && q !== 0n ? `-${text}` : text
}
