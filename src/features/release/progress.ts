// What a release plan shows beside its figures. Pure.
import { parseMoney } from '../../../contract/money.ts'

/**
 * How much of the plan is released, in percent with two decimals (0–100), computed on the integer
 * units so a figure never reads as more than what arrived.
 */
export function releasedPercent(released: string, total: string): number {
  const r = parseMoney(released) ?? 0n
  const t = parseMoney(total) ?? 0n
  if (t <= 0n || r <= 0n) return 0
  if (r >= t) return 100
  return Number((r * 10_000n) / t) / 100
}

/**
 * A release day (UTC midnight on the wire) as a date. Formatted in UTC: in a time zone behind UTC the
 * local date of that instant is the day before.
 */
export function formatReleaseDay(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(ms)
}
