// Days on the ranking screen are UTC days (days since 1970-01-01), as the server counts them.
export const DAY_MS = 86_400_000

export const dayOfMs = (ms: number): number => Math.floor(ms / DAY_MS)

/** "2026-03-10" for a day: the value of a date input, and how the screen names a day. */
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** The day a date input's value names, or null for an empty or malformed one. */
export function dayOfIso(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  const ms = Date.parse(`${value}T00:00:00Z`)
  return Number.isNaN(ms) ? null : dayOfMs(ms)
}
