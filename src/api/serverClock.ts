// The server's clock for countdowns (unpaid orders, quotes): a phone whose clock is minutes off must
// still count down to the moment the server ends the order. The app asks GET_TIME over the socket
// (DESIGN §5) each time it connects and keeps the offset of the tightest round trip it has seen.
import { signal } from '@preact/signals-react'
import type { SocketClient } from './socket.ts'

/** One GET_TIME exchange: when it left and came back on the phone's clock, and what the server said. */
export interface ClockSample {
  sentAt: number
  serverTime: number
  receivedAt: number
}

/** How far the server's clock is ahead of the phone's: the server read its clock about halfway through the round trip. Pure. */
export function offsetOf(s: ClockSample): number {
  return Math.round(s.serverTime + (s.receivedAt - s.sentAt) / 2 - s.receivedAt)
}

/** The sample to keep: the shorter round trip bounds the error tighter (it is at most half the trip). Pure. */
export function betterSample(kept: ClockSample | null, next: ClockSample): ClockSample {
  if (!kept) return next
  return next.receivedAt - next.sentAt <= kept.receivedAt - kept.sentAt ? next : kept
}

/** A round trip longer than this says little about the clock (a waking radio): its sample is ignored. */
export const MAX_ROUND_TRIP_MS = 10_000

const offset = signal(0)
let best: ClockSample | null = null

/** The server's idea of now, in ms. Use it for anything that counts down to a server-set moment. */
export function serverNow(phoneNow: number = Date.now()): number {
  return phoneNow + offset.peek()
}

/** The offset in ms (server minus phone), as a signal so a screen can re-render when it is learnt. */
export const serverClockOffset = offset

/** Records one exchange; returns whether it was used. */
export function recordClockSample(s: ClockSample): boolean {
  const trip = s.receivedAt - s.sentAt
  if (!Number.isFinite(s.serverTime) || trip < 0 || trip > MAX_ROUND_TRIP_MS) return false
  best = betterSample(best, s)
  offset.value = offsetOf(best)
  return true
}

/** Asks the server's time once over `socket`. A failure leaves the offset as it was. */
export async function syncServerClock(socket: Pick<SocketClient, 'serverTime'>, now: () => number = Date.now): Promise<void> {
  const sentAt = now()
  try {
    const serverTime = await socket.serverTime()
    recordClockSample({ sentAt, serverTime, receivedAt: now() })
  } catch {
    /* no answer: the phone's clock stands until the next connection */
  }
}

let watching = false
/**
 * Sends GET_TIME whenever `socket` connects (each connection may follow a phone that slept), and once
 * now so a screen that counts down without a live stream learns the offset too.
 */
export function watchServerClock(socket: SocketClient): void {
  if (watching) return
  watching = true
  socket.onState((state) => {
    if (state === 'connected') void syncServerClock(socket)
  })
  void syncServerClock(socket)
}

/** Tests: forget what was learnt. */
export function resetServerClock(): void {
  best = null
  offset.value = 0
}
