import { useEffect, useState } from 'react'
import { serverClockOffset, serverNow } from '../api/serverClock.ts'

/** Whole seconds left until `endsAt`, never negative. */
export function secondsLeft(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000))
}

/**
 * The server's now (api/serverClock.ts), ticking every `ms` while `active`: for counting down to a
 * moment the server set (an unpaid order's end, a quote's expiry). Asks the server's time once it runs.
 */
export function useServerNow(active: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => serverNow())
  useEffect(() => {
    if (!active) return
    // The socket's code is not in the first load; the home screen's reminder counts down too.
    void import('../api/socket.ts').then((m) => m.getSocket())
    const tick = () => setNow(serverNow())
    tick()
    const id = setInterval(tick, ms)
    const off = serverClockOffset.subscribe(tick)
    return () => {
      clearInterval(id)
      off()
    }
  }, [active, ms])
  return now
}
