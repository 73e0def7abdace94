// The team list's search rule (issue 12 part 1), pure and shared: the app checks the box before
// sending, the server enforces the same rule. No imports, so the app may import it by value.

/** A user ID is digits; 16 of them cover every safe integer the server hands out. */
export const TEAM_SEARCH_MAX_DIGITS = 16

export type TeamSearch =
  /** id null: no search, the whole team. */
  | { ok: true; id: number | null }
  | { ok: false; error: 'team.errors.searchControl' | 'team.errors.searchNotId' }

// Control (Cc) and format (Cf: zero-width, bidi overrides) characters: never part of an ID, and a
// pasted one would make an exact search miss in a way the user cannot see.
const CONTROL = /[\p{Cc}\p{Cf}]/u

/** What the search box holds, as a search: exact user ID only (no partial match, no names). */
export function parseTeamSearch(raw: string | undefined): TeamSearch {
  if (raw === undefined) return { ok: true, id: null }
  if (CONTROL.test(raw)) return { ok: false, error: 'team.errors.searchControl' }
  const s = raw.trim()
  if (s === '') return { ok: true, id: null }
  if (!new RegExp(`^[0-9]{1,${TEAM_SEARCH_MAX_DIGITS}}$`).test(s)) return { ok: false, error: 'team.errors.searchNotId' }
  const id = Number(s)
  if (!Number.isSafeInteger(id) || id < 1) return { ok: false, error: 'team.errors.searchNotId' }
  return { ok: true, id }
}

/**
 * The whole-team list pages through its first 2,000 members (nearest generation first): each page is
 * a walk from the top of the team to the page's end, so a page 100,000 members deep cost 200 ms of
 * the server's one thread. A page starting beyond is refused (team.errors.pageTooDeep); anyone in the
 * team, at any depth, is found by the search by user ID.
 */
export const TEAM_LIST_SHOWN = 2_000

/** Pages a list of `total` items has at `pageSize` a page; an empty list still has its (empty) page 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize))
}
