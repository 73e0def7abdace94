// How long an unpaid order has left, as the list shows it. Pure.
import { secondsLeft } from '../../lib/countdown.ts'

const pad = (n: number) => String(n).padStart(2, '0')

/** "1:02:03" with hours, else "02:03"; null once the time is up (the server cancels the order). */
export function timeLeft(expiresAt: number, now: number): string | null {
  const s = secondsLeft(expiresAt, now)
  if (s === 0) return null
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  return h > 0 ? `${h}:${pad(m)}:${pad(r)}` : `${pad(m)}:${pad(r)}`
}
