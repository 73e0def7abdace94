// The rules of published content (notices and home banners, issue 33), pure: the commands, the
// content files and the app's lists all go through them, and so will the operator's console.
//
// A row stores one of three states; the fourth a person sees, "scheduled", is a published row whose
// moment has not come. Visibility is computed from the clock each time it is asked, so a scheduled
// notice shows at its moment with no job, and unpublishing hides it on the next request.
import type { StoredState } from '../../db/schema.ts'

export type { StoredState }
/** What an operator sees a row as: its stored state, or "scheduled" for a published one still ahead. */
export type ContentStatus = 'draft' | 'scheduled' | 'published' | 'unpublished'
export const CONTENT_STATUSES: readonly ContentStatus[] = ['draft', 'scheduled', 'published', 'unpublished']

export interface Placed {
  state: StoredState
  /** Unix ms from which a published row shows. */
  publishedAt: number
}

export function statusAt(row: Placed, now: number): ContentStatus {
  if (row.state !== 'published') return row.state
  return row.publishedAt > now ? 'scheduled' : 'published'
}

/** What the app's lists show: published rows whose moment has come. */
export const visibleAt = (row: Placed, now: number): boolean => statusAt(row, now) === 'published'

export class ContentRefused extends Error {
  override name = 'ContentRefused'
}

/**
 * `publish`: at `at` (a future moment schedules it, a past one backdates it), else now. A row
 * already showing keeps its moment when no `at` is given, so publishing twice moves nothing.
 */
export function publish(row: Placed, now: number, at?: number): Placed {
  if (at !== undefined) return { state: 'published', publishedAt: at }
  if (statusAt(row, now) === 'published') return row
  return { state: 'published', publishedAt: now }
}

/**
 * `unpublish`: hides a published or scheduled row at once (its moment is kept, for the record and a
 * later `publish --at`); an unpublished one stays as it is. A draft was never out: refused, so an
 * operator who meant another key hears of it.
 */
export function unpublish(row: Placed): Placed {
  if (row.state === 'draft') throw new ContentRefused('it is a draft and was never published')
  return { state: 'unpublished', publishedAt: row.publishedAt }
}
