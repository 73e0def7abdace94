import { bookChecksum, isBookData } from '../../contract/bookChecksum.ts'
import { parseMoney } from '../../contract/money.ts'
import { streams, type BookData, type BookLevel } from '../../contract/trade.ts'
import type { SocketClient } from './socket.ts'

// The app's copy of an order book kept from books:<instId> pushes (DESIGN §5): a snapshot, then
// updates that must chain by sequence and match the server's checksum; anything else means the copy
// can no longer be trusted, so it is dropped and a fresh snapshot asked for.

/** asks ascending, bids descending; levels as the wire's decimal strings. */
export interface LocalBook {
  asks: BookLevel[]
  bids: BookLevel[]
  seqId: number
}

export type BookStep =
  | { ok: true; book: LocalBook }
  /** gap and checksum: resubscribe. no-snapshot: an update before the snapshot asked for, ignored. */
  | { ok: false; reason: 'gap' | 'checksum' | 'no-snapshot' }

// Levels were checked by isBookData, so a price always parses.
const price = (l: BookLevel): bigint => parseMoney(l[0]) as bigint
const isZero = (l: BookLevel): boolean => parseMoney(l[1]) === 0n

function cmp(desc: boolean) {
  return (a: bigint, b: bigint) => (a === b ? 0 : (a < b) !== desc ? -1 : 1)
}

/** A new side with the changes applied: a size of 0 removes the level, any other sets it. */
function applySide(levels: readonly BookLevel[], changes: readonly BookLevel[], desc: boolean): BookLevel[] {
  const out = levels.slice()
  const order = cmp(desc)
  for (const ch of changes) {
    const p = price(ch)
    let lo = 0
    let hi = out.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (order(price(out[mid] as BookLevel), p) < 0) lo = mid + 1
      else hi = mid
    }
    const same = lo < out.length && price(out[lo] as BookLevel) === p
    if (isZero(ch)) {
      if (same) out.splice(lo, 1)
    } else if (same) out[lo] = [ch[0], ch[1]]
    else out.splice(lo, 0, [ch[0], ch[1]])
  }
  return out
}

/**
 * One books message applied to a book (null: none yet). Pure: the input book is not changed. A snapshot
 * replaces the book; an update must follow the book's seqId. Either must leave the top 25 levels with
 * the checksum the server computed.
 */
export function applyBookMessage(book: LocalBook | null, action: 'snapshot' | 'update', msg: BookData): BookStep {
  let next: LocalBook
  if (action === 'snapshot') {
    next = { asks: applySide([], msg.asks, false), bids: applySide([], msg.bids, true), seqId: msg.seqId }
  } else {
    if (!book) return { ok: false, reason: 'no-snapshot' }
    if (msg.prevSeqId !== book.seqId) return { ok: false, reason: 'gap' }
    next = { asks: applySide(book.asks, msg.asks, false), bids: applySide(book.bids, msg.bids, true), seqId: msg.seqId }
  }
  if (bookChecksum(next.bids, next.asks) !== msg.checksum) return { ok: false, reason: 'checksum' }
  return { ok: true, book: next }
}

/**
 * Follows the order book of instId. onBook gets the whole book after every good message. On a gap or a
 * bad checksum the book is dropped and the stream resubscribed; updates are then ignored until the new
 * snapshot. Returns the unsubscribe.
 */
export function subscribeBook(
  client: Pick<SocketClient, 'subscribe' | 'resubscribe'>,
  instId: string,
  onBook: (book: LocalBook) => void,
): () => void {
  const stream = streams.books(instId)
  let book: LocalBook | null = null
  return client.subscribe<unknown>(stream, (push) => {
    let changed = false
    for (const item of push.data) {
      // An unreadable message is skipped; if it mattered, the next one's prevSeqId shows the gap.
      if (!isBookData(item)) continue
      const step = applyBookMessage(book, push.action, item)
      if (step.ok) {
        book = step.book
        changed = true
      } else if (step.reason !== 'no-snapshot') {
        book = null
        client.resubscribe(stream)
        return
      }
    }
    if (changed && book) onBook(book)
  })
}
