import { computed, signal } from '@preact/signals-react'

// DESIGN §6: "online" is the browser's word AND the server answering. A phone on a captive portal or
// a dead cell link says navigator.onLine === true while no request gets through.

// Only a browser's explicit false is offline: Node (21 on) has a navigator without onLine, and the unit
// tests that run the app's modules there are online.
const browserOnline = signal(typeof navigator === 'undefined' || navigator.onLine !== false)
const serverReachable = signal(true)
export const online = computed(() => browserOnline.value && serverReachable.value)

/** SPEC §9: the network is checked every 60 s; after a failure, sooner, backing off to that. */
const CHECK_MS = 60_000
const RETRY_FIRST_MS = 2_000
const PING_TIMEOUT_MS = 5_000

let retryMs = RETRY_FIRST_MS
let timer: ReturnType<typeof setTimeout> | undefined

async function ping(): Promise<boolean> {
  const ctrl = new AbortController()
  const t = setTimeout(() => ctrl.abort(), PING_TIMEOUT_MS)
  try {
    const res = await fetch('/api/v1/common/health', { cache: 'no-store', signal: ctrl.signal })
    return res.ok
  } catch {
    return false
  } finally {
    clearTimeout(t)
  }
}

function schedule(ms: number) {
  clearTimeout(timer)
  timer = setTimeout(check, ms)
}

async function check() {
  if (!browserOnline.value) return // the 'online' event wakes us
  const ok = await ping()
  serverReachable.value = ok
  if (ok) {
    retryMs = RETRY_FIRST_MS
    schedule(CHECK_MS)
  } else {
    schedule(retryMs)
    retryMs = Math.min(retryMs * 2, CHECK_MS)
  }
}

/** A request got no response: treat the server as unreachable until a check says otherwise. */
export function reportNetworkFailure(): void {
  if (!serverReachable.value) return
  serverReachable.value = false
  retryMs = RETRY_FIRST_MS
  schedule(retryMs)
}

/** Any response at all proves the server is reachable. */
export function reportNetworkSuccess(): void {
  if (serverReachable.value) return
  serverReachable.value = true
  retryMs = RETRY_FIRST_MS
  schedule(CHECK_MS)
}

export function startOnlineWatch(): void {
  if (typeof window === 'undefined') return
  window.addEventListener('online', () => {
    browserOnline.value = true
    void check()
  })
  window.addEventListener('offline', () => {
    browserOnline.value = false
    clearTimeout(timer)
  })
  // Checked at once: an app opened from the home screen with no network (or behind a captive portal,
  // where navigator.onLine still says true) says so from its first screen, not a minute later.
  void check()
}
