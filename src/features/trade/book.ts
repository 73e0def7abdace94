// The order book as the trade screen draws it: asks above, bids below, each level shaded in
// proportion to the size standing from the best price to it. Exact on units; pure.
import type { BookLevel } from '../../../contract/trade.ts'
import { units } from '../wallet/amount.ts'

/** Levels shown per side on the trade screen. */
export const BOOK_LEVELS = 8

export interface DepthRow {
  /** As on the wire, so a tap puts the exact price into the form. */
  price: string
  size: string
  /** The size from the best price up to and including this level, in units. */
  cumulative: bigint
  /** The shading's width, 0–100 (% of the larger side's cumulative size shown). */
  shade: number
}

export interface DepthView {
  /** Top to bottom as drawn: the highest shown ask first, the best (lowest) ask last, next to the spread. */
  asks: DepthRow[]
  /** Top to bottom as drawn: the best (highest) bid first. */
  bids: DepthRow[]
  /** Best ask − best bid in units; null when a side is empty. */
  spread: bigint | null
}

function side(levels: readonly BookLevel[], n: number): { price: string; size: string; cumulative: bigint }[] {
  let cum = 0n
  const out: { price: string; size: string; cumulative: bigint }[] = []
  for (const [price, size] of levels) {
    if (out.length >= n) break
    const u = units(size)
    if (u <= 0n) continue // a removed level that slipped through is not drawn
    cum += u
    out.push({ price, size, cumulative: cum })
  }
  return out
}

/** Percent of max, two decimals, without a float ever holding an amount. */
export function shareOf(part: bigint, max: bigint): number {
  if (max <= 0n || part <= 0n) return 0
  const bp = (part * 10_000n) / max
  return Number(bp > 10_000n ? 10_000n : bp) / 100
}

/**
 * The top `n` levels of each side (asks ascending and bids descending, as the wire and the local book
 * keep them). Both sides are shaded against the same scale, so the deeper side reads deeper.
 */
export function depthView(asks: readonly BookLevel[], bids: readonly BookLevel[], n = BOOK_LEVELS): DepthView {
  const a = side(asks, n)
  const b = side(bids, n)
  const max = [a.at(-1)?.cumulative ?? 0n, b.at(-1)?.cumulative ?? 0n].reduce((x, y) => (x > y ? x : y))
  const row = (l: { price: string; size: string; cumulative: bigint }): DepthRow => ({ ...l, shade: shareOf(l.cumulative, max) })
  const bestAsk = a[0]
  const bestBid = b[0]
  return {
    asks: a.map(row).reverse(),
    bids: b.map(row),
    spread: bestAsk && bestBid ? units(bestAsk.price) - units(bestBid.price) : null,
  }
}

/** The best ask and best bid in units, for estimating a market order; undefined when a side is empty. */
export function bestPrices(asks: readonly BookLevel[], bids: readonly BookLevel[]): { ask: bigint | undefined; bid: bigint | undefined } {
  const a = asks[0]
  const b = bids[0]
  return { ask: a ? units(a[0]) : undefined, bid: b ? units(b[0]) : undefined }
}
