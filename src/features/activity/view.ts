// Pure helpers of the activity screens: the countdown, prize labels, score units.
import { MEASURE_UNIT, type ActivityPrize, type ActivityStatus, type Measure } from '../../../contract/activity.ts'

export interface Countdown {
  days: number
  hours: number
  minutes: number
  seconds: number
}

/** Milliseconds → whole days, hours, minutes and seconds left (never negative). */
export function countdown(ms: number): Countdown {
  const s = Math.max(0, Math.floor(ms / 1000))
  return { days: Math.floor(s / 86_400), hours: Math.floor((s % 86_400) / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 }
}

const two = (n: number) => String(n).padStart(2, '0')
/** "3d 04:05:06" is built by the caller from the locale's day word; this is the clock part. */
export const clock = (c: Countdown) => `${two(c.hours)}:${two(c.minutes)}:${two(c.seconds)}`

/** What the window's countdown counts to now: the start, the end, or nothing once ended. */
export function phase(a: { starts_at: number; ends_at: number }, now: number): { status: ActivityStatus; leftMs: number } {
  if (now < a.starts_at) return { status: 'upcoming', leftMs: a.starts_at - now }
  if (now < a.ends_at) return { status: 'running', leftMs: a.ends_at - now }
  return { status: 'ended', leftMs: 0 }
}

/** "1" or "2–3": the ranks a prize range covers. */
export const rankRange = (p: Pick<ActivityPrize, 'from' | 'to'>) => (p.from === p.to ? String(p.from) : `${p.from}–${p.to}`)

/** The locale key of a measure's unit: an asset code is shown as is. */
export const unitOf = (m: Measure) => MEASURE_UNIT[m]

/** The id in a route's `{id}`, or 0 when it is not an id. */
export function idParam(raw: string | undefined): number {
  if (raw === undefined || !/^[1-9]\d{0,15}$/.test(raw)) return 0
  const id = Number(raw)
  return Number.isSafeInteger(id) ? id : 0
}
