// The public order book as books:<instId> sends it (DESIGN §5): a snapshot on subscribe, then one
// update per batch of engine commands carrying only the levels that changed, chained by seqId and
// checked by the CRC32 of the top 25 levels. Pure: the caller feeds level changes and the time.

import { CHECKSUM_DEPTH } from '../../../contract/bookChecksum.ts'
import type { BookData, Depth, Side } from '../../../contract/trade.ts'
import { formatMoney } from '../../../contract/money.ts'
import { BookLevels, levelsChecksum, type BookSideName } from './bookLevels.ts'

export const SNAPSHOT_DEPTH = 400

/** A resting buy is a bid, a resting sell an ask. */
export function bookSideOf(side: Side): BookSideName {
  return side === 'buy' ? 'bids' : 'asks'
}

export interface BookFeedOptions {
  /** seqId of the book before the first update, e.g. to carry a sequence on across a restart. */
  startSeqId?: number
}

export class BookFeed {
  /** The book as of the last flush: what snapshots and depth show. */
  readonly asks = new BookLevels('asks')
  readonly bids = new BookLevels('bids')
  private seq: number
  /** Final size per level touched since the last flush; applied to the book only at flush, so a
   * snapshot taken mid-batch is exactly the state its seqId names. */
  private readonly pending = { asks: new Map<bigint, bigint>(), bids: new Map<bigint, bigint>() }

  constructor(options: BookFeedOptions = {}) {
    const start = options.startSeqId ?? 0
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`bad startSeqId ${start}`)
    this.seq = start
  }

  get seqId(): number {
    return this.seq
  }

  /** A level's new total size after a command (0 = the level is gone). Later calls for the same level
   * in a batch override earlier ones. */
  change(side: Side, price: bigint, size: bigint): void {
    if (price <= 0n) throw new RangeError(`bad level price ${price}`)
    if (size < 0n) throw new RangeError(`negative level size ${size} at ${price}`)
    this.pending[bookSideOf(side)].set(price, size)
  }

  /** Applies the batch; the update to push, or null when no level ends up different. */
  flush(ts: number): BookData | null {
    const asks = this.drain('asks')
    const bids = this.drain('bids')
    if (asks.length === 0 && bids.length === 0) return null
    const prevSeqId = this.seq
    this.seq += 1
    return {
      asks: asks.map(([p, s]) => [formatMoney(p), formatMoney(s)]),
      bids: bids.map(([p, s]) => [formatMoney(p), formatMoney(s)]),
      ts,
      seqId: this.seq,
      prevSeqId,
      checksum: levelsChecksum(this.bids, this.asks),
    }
  }

  /** The book as of the last flush; depth below 25 is raised so the checksum can be verified. */
  snapshot(ts: number, depth: number = SNAPSHOT_DEPTH): BookData {
    const n = Math.max(depth, CHECKSUM_DEPTH)
    return {
      asks: this.asks.topWire(n),
      bids: this.bids.topWire(n),
      ts,
      seqId: this.seq,
      prevSeqId: -1,
      checksum: levelsChecksum(this.bids, this.asks),
    }
  }

  /** The top n levels per side for GET /api/v1/trade/depth. */
  depth(n: number, ts: number): Depth {
    return { asks: this.asks.topWire(n), bids: this.bids.topWire(n), ts, seqId: this.seq }
  }

  /** Whether changes wait for a flush. */
  get dirty(): boolean {
    return this.pending.asks.size > 0 || this.pending.bids.size > 0
  }

  /** Applies a side's pending changes; the levels that really changed, best first. */
  private drain(side: BookSideName): Array<[bigint, bigint]> {
    const pending = this.pending[side]
    const levels = this[side]
    const changed: Array<[bigint, bigint]> = []
    for (const [price, size] of pending) {
      if (levels.get(price) === size) continue
      levels.set(price, size)
      changed.push([price, size])
    }
    pending.clear()
    changed.sort(side === 'asks' ? (a, b) => cmp(a[0], b[0]) : (a, b) => cmp(b[0], a[0]))
    return changed
  }
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}
