// The public order book's levels and the client-side rule for applying books:<instId> messages
// (DESIGN §5). The server's book feed keeps its book in these same structures, so a book the app
// rebuilds from snapshot + updates is checked with the very code that produced the checksum.
// Imports only from contract/: the app bundle imports this file.

import { bookChecksum, CHECKSUM_DEPTH } from '../../../contract/bookChecksum.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import type { BookData, BookLevel } from '../../../contract/trade.ts'

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

/** A client's copy of the book; seqId null until the first snapshot. */
export interface LocalBook {
  asks: BookLevels
  bids: BookLevels
  seqId: number | null
}

export function newLocalBook(): LocalBook {
  return { asks: new BookLevels('asks'), bids: new BookLevels('bids'), seqId: null }
}

export type ApplyResult = 'ok' | 'gap' | 'checksum'

/**
 * Applies one books message to `local`. A snapshot (prevSeqId -1) replaces the book; an update must
 * continue from local.seqId, else 'gap' and the book is left as it was. 'checksum' when the book after
 * the message does not match msg.checksum, or the message holds a level that is not a money amount
 * (the book can no longer be trusted either way). On anything but 'ok' the client drops its book and
 * resubscribes (DESIGN §5).
 */
export function applyBookMessage(local: LocalBook, msg: BookData): ApplyResult {
  const snapshot = msg.prevSeqId === -1
  if (!snapshot && (local.seqId === null || msg.prevSeqId !== local.seqId)) return 'gap'
  const asks = parseLevels(msg.asks)
  const bids = parseLevels(msg.bids)
  if (snapshot) {
    local.asks.clear()
    local.bids.clear()
  }
  // A bad level still moves seqId on, so a later update cannot be mistaken for a good continuation.
  local.seqId = msg.seqId
  if (asks === null || bids === null) return 'checksum'
  for (const [p, s] of asks) local.asks.set(p, s)
  for (const [p, s] of bids) local.bids.set(p, s)
  return levelsChecksum(local.bids, local.asks) === msg.checksum ? 'ok' : 'checksum'
}

function parseLevels(levels: readonly BookLevel[]): Array<[bigint, bigint]> | null {
  const out: Array<[bigint, bigint]> = []
  for (const level of levels) {
    if (!Array.isArray(level) || typeof level[0] !== 'string' || typeof level[1] !== 'string') return null
    const p = parseMoney(level[0])
    const s = parseMoney(level[1])
    if (p === null || s === null) return null
    out.push([p, s])
  }
  return out
}
