import { describe, expect, it, vi } from 'vitest'
import { isBookData } from '../../../contract/bookChecksum.ts'
import { applyBookMessage, subscribeBook, type LocalBook } from '../../../src/api/socketBook.ts'
import type { PushFrame } from '../../../contract/socket.ts'
import type { PushListener } from '../../../src/api/socket.ts'
import { bookChecksum } from '../../../contract/bookChecksum.ts'
import type { BookData, BookLevel } from '../../../contract/trade.ts'

/** A books message whose checksum is that of the book the test expects after applying it. */
function msg(
  seqId: number,
  prevSeqId: number,
  change: { asks?: BookLevel[]; bids?: BookLevel[] },
  expected: { asks: BookLevel[]; bids: BookLevel[] },
): BookData {
  return { asks: change.asks ?? [], bids: change.bids ?? [], ts: 1, seqId, prevSeqId, checksum: bookChecksum(expected.bids, expected.asks) }
}

const SNAP = {
  asks: [
    ['9.5', '1'],
    ['10', '2'],
    ['10.25', '3'],
  ] as BookLevel[],
  bids: [
    ['9.25', '4'],
    ['9', '5'],
  ] as BookLevel[],
}

function snapshot(): LocalBook {
  const step = applyBookMessage(null, 'snapshot', msg(100, -1, SNAP, SNAP))
  if (!step.ok) throw new Error(`snapshot refused: ${step.reason}`)
  return step.book
}

describe('applyBookMessage', () => {
  it('a snapshot becomes the book, sorted by price as numbers (asks up, bids down)', () => {
    const shuffled = { asks: [SNAP.asks[1]!, SNAP.asks[2]!, SNAP.asks[0]!], bids: [SNAP.bids[1]!, SNAP.bids[0]!] }
    const step = applyBookMessage(null, 'snapshot', msg(100, -1, shuffled, SNAP))
    expect(step).toEqual({ ok: true, book: { ...SNAP, seqId: 100 } })
  })

  it('updates insert, replace and remove ("0") levels in order', () => {
    const expected = {
      asks: [
        ['9.5', '1'],
        ['9.75', '7'],
        ['10.25', '3'],
      ] as BookLevel[],
      bids: [
        ['9.4', '1.5'],
        ['9.25', '6'],
        ['9', '5'],
      ] as BookLevel[],
    }
    const change = {
      asks: [
        ['10', '0'],
        ['9.75', '7'],
      ] as BookLevel[],
      bids: [
        ['9.25', '6'],
        ['9.4', '1.5'],
        ['8', '0'], // removing a level that is not there changes nothing
      ] as BookLevel[],
    }
    const book = snapshot()
    const step = applyBookMessage(book, 'update', msg(101, 100, change, expected))
    expect(step).toEqual({ ok: true, book: { ...expected, seqId: 101 } })
    expect(book).toEqual({ ...SNAP, seqId: 100 }) // the applier is pure
  })

  it('an update that does not follow the last seqId is a gap', () => {
    expect(applyBookMessage(snapshot(), 'update', msg(102, 101, {}, SNAP))).toEqual({ ok: false, reason: 'gap' })
  })

  it('a book that does not match the checksum is refused', () => {
    const wrong = { ...SNAP, asks: SNAP.asks.slice(1) }
    expect(applyBookMessage(snapshot(), 'update', msg(101, 100, { asks: [['9.5', '2']] }, wrong))).toEqual({ ok: false, reason: 'checksum' })
    expect(applyBookMessage(null, 'snapshot', msg(100, -1, SNAP, wrong))).toEqual({ ok: false, reason: 'checksum' })
  })

  it('an update before any snapshot is not applied', () => {
    expect(applyBookMessage(null, 'update', msg(101, 100, {}, SNAP))).toEqual({ ok: false, reason: 'no-snapshot' })
  })

  it('the checksum covers the top 25 levels only', () => {
    const asks = Array.from({ length: 30 }, (_, i): BookLevel => [String(100 + i), '1'])
    const bids = Array.from({ length: 30 }, (_, i): BookLevel => [String(99 - i), '1'])
    const step = applyBookMessage(null, 'snapshot', msg(1, -1, { asks, bids }, { asks, bids }))
    if (!step.ok) throw new Error(step.reason)
    // A change at the 28th ask leaves the top-25 checksum as it was and is still accepted.
    const deep = applyBookMessage(step.book, 'update', msg(2, 1, { asks: [['127', '9']] }, { asks, bids }))
    expect(deep.ok && deep.book.asks[27]).toEqual(['127', '9'])
  })

  it('isBookData refuses items that are not books', () => {
    const good = msg(1, -1, SNAP, SNAP)
    expect(isBookData(good)).toBe(true)
    expect(isBookData({ ...good, seqId: '1' })).toBe(false)
    expect(isBookData({ ...good, asks: [['x', '1']] })).toBe(false)
    expect(isBookData({ ...good, bids: [['1', -1]] })).toBe(false)
    expect(isBookData({ ...good, checksum: undefined })).toBe(false)
    expect(isBookData(null)).toBe(false)
  })
})

/** A socket client stand-in: one books stream, the test pushes into it. */
function stubClient() {
  let listener: PushListener | null = null
  const client = {
    subscribe: vi.fn(<T>(_stream: string, fn: PushListener<T>) => {
      listener = fn as PushListener
      return () => (listener = null)
    }),
    resubscribe: vi.fn(),
  }
  const push = (action: PushFrame['action'], ...data: unknown[]) => listener?.({ arg: { channel: 'books', instId: 'NADI-USDT' }, action, data })
  return { client, push }
}

describe('subscribeBook', () => {
  it('a good sequence gives onBook the right levels after each message', () => {
    const { client, push } = stubClient()
    const onBook = vi.fn()
    subscribeBook(client, 'NADI-USDT', onBook)
    expect(client.subscribe).toHaveBeenCalledWith('books:NADI-USDT', expect.any(Function))
    push('snapshot', msg(100, -1, SNAP, SNAP))
    const after = { asks: SNAP.asks.slice(1), bids: [['9.3', '1'], ...SNAP.bids] as BookLevel[] }
    push('update', msg(101, 100, { asks: [['9.5', '0']], bids: [['9.3', '1']] }, after))
    expect(onBook.mock.calls).toEqual([[{ ...SNAP, seqId: 100 }], [{ ...after, seqId: 101 }]])
    expect(client.resubscribe).not.toHaveBeenCalled()
  })

  it('a gap drops the book, resubscribes, and ignores updates until the new snapshot', () => {
    const { client, push } = stubClient()
    const onBook = vi.fn()
    subscribeBook(client, 'NADI-USDT', onBook)
    push('snapshot', msg(100, -1, SNAP, SNAP))
    push('update', msg(102, 101, {}, SNAP))
    expect(client.resubscribe).toHaveBeenCalledExactlyOnceWith('books:NADI-USDT')
    push('update', msg(103, 102, {}, SNAP)) // would chain onto the lost message: still not trusted
    expect(onBook).toHaveBeenCalledTimes(1)
    expect(client.resubscribe).toHaveBeenCalledTimes(1)
    const fresh = { asks: [['11', '1']] as BookLevel[], bids: [['10', '1']] as BookLevel[] }
    push('snapshot', msg(200, -1, fresh, fresh))
    expect(onBook).toHaveBeenLastCalledWith({ ...fresh, seqId: 200 })
  })

  it('a checksum mismatch drops the book and resubscribes', () => {
    const { client, push } = stubClient()
    const onBook = vi.fn()
    subscribeBook(client, 'NADI-USDT', onBook)
    push('snapshot', msg(100, -1, SNAP, SNAP))
    push('update', msg(101, 100, { bids: [['9', '6']] }, SNAP))
    expect(client.resubscribe).toHaveBeenCalledExactlyOnceWith('books:NADI-USDT')
    expect(onBook).toHaveBeenCalledTimes(1)
    push('update', msg(102, 101, {}, SNAP))
    expect(onBook).toHaveBeenCalledTimes(1)
  })

  it('an unreadable item is skipped, and the gap it leaves is caught by the next one', () => {
    const { client, push } = stubClient()
    const onBook = vi.fn()
    subscribeBook(client, 'NADI-USDT', onBook)
    push('snapshot', msg(100, -1, SNAP, SNAP))
    push('update', { seqId: 'x' }, null)
    expect(client.resubscribe).not.toHaveBeenCalled()
    push('update', msg(102, 101, {}, SNAP))
    expect(client.resubscribe).toHaveBeenCalledTimes(1)
  })
})
