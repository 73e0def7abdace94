/** How often a list with rows still under way (confirming deposits, pending withdrawals) refreshes. */
export const PENDING_POLL_MS = 5_000
/** How often a screen whose data can change from outside the app (a deposit sent from elsewhere) refreshes. */
export const IDLE_POLL_MS = 20_000

/**
 * A refetch interval for an infinite list: PENDING_POLL_MS while any row is under way, else `idle`
 * (false: none). TanStack only polls while the screen is mounted and the page visible.
 */
export function pollWhile<T>(pages: { list: T[] }[] | undefined, underWay: (row: T) => boolean, idle: number | false = false): number | false {
  return pages?.some((p) => p.list.some(underWay)) ? PENDING_POLL_MS : idle
}
