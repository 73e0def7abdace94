import { describe, expect, it } from 'vitest'
import { NOTICE_READ_ACTION, queuedReads, readState, shouldMark, withoutUnread } from '../../../src/features/notice/read.ts'

const none = new Set<number>()

describe('unread notices on the phone', () => {
  it('a notice whose mark waits in the outbox shows as pending, whatever the server last said', () => {
    const queued = queuedReads([
      { action: NOTICE_READ_ACTION, payload: { id: 3 } },
      { action: 'address.add', payload: { id: 4 } },
      { action: NOTICE_READ_ACTION, payload: null },
    ])
    expect([...queued]).toEqual([3])
    expect(readState(3, { count: 1, ids: [3] }, queued)).toBe('pending')
    expect(readState(4, { count: 1, ids: [4] }, queued)).toBe('unread')
    expect(readState(5, { count: 1, ids: [4] }, queued)).toBe('read')
    expect(readState(5, undefined, queued)).toBe('unknown')
  })

  it('opening marks an unread or unknown notice, not one surely read or already queued', () => {
    expect(shouldMark(1, { count: 1, ids: [1] }, none)).toBe(true)
    expect(shouldMark(1, undefined, none)).toBe(true)
    expect(shouldMark(1, { count: 0, ids: [] }, none)).toBe(false)
    expect(shouldMark(1, { count: 1, ids: [1] }, new Set([1]))).toBe(false)
    // The server's list was cut at its newest ids: an older one left out may still be unread.
    expect(shouldMark(1, { count: 101, ids: [2] }, none)).toBe(true)
  })

  it('a notice read leaves the unread list at once', () => {
    expect(withoutUnread({ count: 2, ids: [1, 2] }, 1)).toEqual({ count: 1, ids: [2] })
    expect(withoutUnread({ count: 2, ids: [1, 2] }, 9)).toEqual({ count: 2, ids: [1, 2] })
    expect(withoutUnread(undefined, 1)).toBeUndefined()
  })
})
