// The public order book's levels, sorted by price, and the checksum over them (DESIGN §5): the
// server's book feed keeps its book in these structures. The app applies the feed's messages with
// its own code (src/api/socketBook.ts), which the feed's property test runs against it.

import { bookChecksum, CHECKSUM_DEPTH } from '../../../contract/bookChecksum.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { BookLevel } from '../../../contract/trade.ts'

export type BookSideName = 'asks' | 'bids'

/**
 * One side of a book: price → size in units of 1e-8, prices kept sorted so the best levels are read
 * without sorting the whole side on every message (the server reads the top 25 after every batch).
 */
export class BookLevels {
  /** Ascending for both sides; bids are read from the end. */
  private readonly prices: bigint[] = []
  private readonly sizes = new Map<bigint, bigint>()

  constructor(readonly side: BookSideName) {}

  get size(): number {
    return this.prices.length
  }

  get(price: bigint): bigint {
    return this.sizes.get(price) ?? 0n
  }

  /** Size 0 removes the level. */
  set(price: bigint, size: bigint): void {
    if (size < 0n) throw new RangeError(`negative level size ${size} at ${price}`)
    const had = this.sizes.has(price)
    if (size === 0n) {
      if (!had) return
      this.sizes.delete(price)
      this.prices.splice(this.indexOf(price), 1)
      return
    }
    this.sizes.set(price, size)
    if (!had) this.prices.splice(this.indexOf(price), 0, price)
  }

  clear(): void {
    this.prices.length = 0
    this.sizes.clear()
  }

  /** The best n levels, best first (asks ascending, bids descending). */
  top(n: number): Array<[bigint, bigint]> {
    const out: Array<[bigint, bigint]> = []
    const len = this.prices.length
    const count = Math.min(Math.max(0, n), len)
    for (let i = 0; i < count; i++) {
      const price = this.prices[this.side === 'asks' ? i : len - 1 - i] as bigint
      out.push([price, this.sizes.get(price) as bigint])
    }
    return out
  }

  /** The best n levels as the wire sends them. */
  topWire(n: number): BookLevel[] {
    return this.top(n).map(([p, s]) => [formatMoney(p), formatMoney(s)])
  }

  /** Lower bound: where price is or would be inserted in the ascending array. */
  private indexOf(price: bigint): number {
    let lo = 0
    let hi = this.prices.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.prices[mid] as bigint) < price) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

export function levelsChecksum(bids: BookLevels, asks: BookLevels): number {
  return bookChecksum(bids.topWire(CHECKSUM_DEPTH), asks.topWire(CHECKSUM_DEPTH))
}
