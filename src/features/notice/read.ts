// Unread notices (issue 12 part 5): which notice shows as unread, which waits in the outbox as read,
// and whether opening one should mark it. Pure, so unit tests drive it without a browser.
import type { NoticeUnread } from '../../../contract/notice.ts'

/** The outbox action name of marking a notice read: harmless, queued offline (DESIGN §6). */
export const NOTICE_READ_ACTION = 'notice.read'

export interface NoticeReadPayload {
  id: number
}

export type ReadState = 'unread' | 'pending' | 'read' | 'unknown'

/** Notice ids whose mark-read waits in the outbox (any state but sent). */
export function queuedReads(items: readonly { action: string; payload: unknown }[]): Set<number> {
  const out = new Set<number>()
  for (const item of items) {
    if (item.action !== NOTICE_READ_ACTION) continue
    const id = (item.payload as Partial<NoticeReadPayload> | null)?.id
    if (typeof id === 'number') out.add(id)
  }
  return out
}

/**
 * What a notice shows: pending when its mark waits in the outbox; unread when the server lists it;
 * unknown before the server's list is known. The server lists the newest 100 unread only, so an id
 * it leaves out while more exist is counted read for the badge (opening it still marks it).
 */
export function readState(id: number, unread: NoticeUnread | undefined, queued: ReadonlySet<number>): ReadState {
  if (queued.has(id)) return 'pending'
  if (!unread) return 'unknown'
  return unread.ids.includes(id) ? 'unread' : 'read'
}

/** Whether opening the notice should mark it read: not when surely read or already queued (marking is idempotent anyway). */
export function shouldMark(id: number, unread: NoticeUnread | undefined, queued: ReadonlySet<number>): boolean {
  const state = readState(id, unread, queued)
  if (state === 'pending') return false
  if (state === 'read') return unread!.count > unread!.ids.length // the list was cut: it may be unread
  return true
}

/** The unread list once `id` is read: what the screen shows at once, before the server says so. */
export function withoutUnread(unread: NoticeUnread | undefined, id: number): NoticeUnread | undefined {
  if (!unread || !unread.ids.includes(id)) return unread
  return { count: Math.max(0, unread.count - 1), ids: unread.ids.filter((x) => x !== id) }
}
