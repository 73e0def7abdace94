// Registration of the service worker (sw/sw.ts) and its update state (DESIGN §6).
//
// A new version never takes over by itself: when one is installed and waiting, `updateReady` turns
// true and UpdatePrompt offers a reload; only `applyUpdate()` (the user's click) activates it.

import { signal } from '@preact/signals-react'
import type { Workbox } from 'workbox-window'
import { onSignOut } from '../api/session.ts'
import { online } from '../api/online.ts'
import { whenIdle } from '../lib/idle.ts'
import { mayFetchAhead, type LinkInfo } from '../lib/screenCode.ts'

/** A new version is installed and waiting for the user's go-ahead. */
export const updateReady = signal(false)

/** How often a long-open app asks the server for a new worker, checked when it comes back to view. */
const UPDATE_CHECK_MS = 60 * 60_000

let wb: Workbox | undefined
let started = false

/** The hashed assets this page has loaded so far (entry, screens, the current locale…). */
function loadedAssets(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((u) => {
      try {
        const url = new URL(u)
        return url.origin === location.origin && url.pathname.startsWith('/assets/')
      } catch {
        return false
      }
    })
}

/**
 * Once a worker controls the page, hands it the assets loaded before it did, so the first visit's
 * locale and screen are cached too and the next start works offline.
 */
function cacheLoadedAssets(): void {
  navigator.serviceWorker.controller?.postMessage({ type: 'CACHE_URLS', urls: loadedAssets() })
}

/** Once the page is idle, the worker fetches the screens' code not cached yet (sw/sw.ts CACHE_LAZY). */
function fetchScreensAhead(): void {
  const ask = () => {
    const link = (navigator as Navigator & { connection?: LinkInfo }).connection
    if (mayFetchAhead(online.peek() && navigator.onLine, link)) navigator.serviceWorker.controller?.postMessage({ type: 'CACHE_LAZY' })
  }
  // Now (subscribe calls at once), and back online after a run was cut short: the worker fetches only
  // what is still missing.
  online.subscribe((up) => {
    if (up) whenIdle(ask, 5000, 1000)
  })
}

async function start(): Promise<void> {
  // Not in the first-load bundle: it is only needed after the page has loaded.
  const { Workbox } = await import('workbox-window')
  const w = new Workbox('/sw.js', { scope: '/' })
  wb = w
  w.addEventListener('waiting', () => {
    updateReady.value = true
  })

  const controlled = () => {
    cacheLoadedAssets()
    fetchScreensAhead()
  }
  if (navigator.serviceWorker.controller) controlled()
  else navigator.serviceWorker.addEventListener('controllerchange', controlled, { once: true })

  let lastCheck = Date.now()
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || Date.now() - lastCheck < UPDATE_CHECK_MS) return
    lastCheck = Date.now()
    w.update().catch(() => {})
  })

  await w.register()
}

/** Registers the service worker after the page has loaded; production builds only. */
export function registerServiceWorker(): void {
  if (started || !import.meta.env.PROD || !('serviceWorker' in navigator)) return
  started = true
  // At once, not after load: a sign-out during start-up (an expired token) must not be missed.
  // Whatever a user's caches hold goes with the user (none exist today; the hook must).
  onSignOut(() => {
    void navigator.serviceWorker.getRegistration().then((reg) => {
      const sw = navigator.serviceWorker.controller ?? reg?.active
      sw?.postMessage({ type: 'CLEAR_USER_CACHES' })
    })
  })
  const go = () => {
    start().catch((err: unknown) => console.warn('service worker registration failed', err))
  }
  if (document.readyState === 'complete') go()
  else window.addEventListener('load', go, { once: true })
}

/**
 * The user's go-ahead: the waiting worker takes over and the page reloads under it. If another tab
 * already let it take over, this page only reloads to run the new code.
 */
export async function applyUpdate(): Promise<void> {
  const w = wb
  if (!w || !updateReady.value) return
  const reg = await navigator.serviceWorker.getRegistration()
  if (!reg?.waiting) {
    window.location.reload()
    return
  }
  w.addEventListener('controlling', () => window.location.reload())
  w.messageSkipWaiting()
}
