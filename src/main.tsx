import { createRoot } from 'react-dom/client'
import { App } from './app/App.tsx'
import { queryClient } from './app/queryClient.ts'
import { restore } from './app/persist.ts'
import { matchRoute } from './app/routes.ts'
import { initI18n, lang, storedLang } from './i18n/index.ts'
import { prefetchHome } from './features/home/prefetch.ts'
import { registerServiceWorker } from './app/sw.ts'
import { startOnlineWatch } from './api/online.ts'
import { account } from './api/session.ts'
import { whenIdle } from './lib/idle.ts'
import { keepHomeSnapshot } from './features/home/snapshot.ts'
import './ui/styles.css'

/** A saved cache that takes longer than this to read does not hold up the first paint. */
const RESTORE_WAIT_MS = 400

// Everything the first screen needs starts at once and in parallel: its words, its saved data, its
// code, and (on home) its requests.
const path = window.location.pathname
if (['/', '/index'].includes(path)) prefetchHome(queryClient, storedLang())
// Its code not cached and no network: the screen itself says so when it renders (ScreenBoundary).
matchRoute(path)?.route.preload?.().catch(() => {})
const restored = restore(queryClient, account.value)
registerServiceWorker()
startOnlineWatch()
await Promise.all([initI18n(), Promise.race([restored, new Promise((r) => setTimeout(r, RESTORE_WAIT_MS))])])
createRoot(document.getElementById('root')!).render(<App />) // index.html always has #root
// The home screen as it is left, for the next start to show before this code has run (index.html).
keepHomeSnapshot(() => lang.peek() === storedLang())
// Replaying what earlier visits queued draws nothing on the first screen: its code comes once the page
// is idle (in a hidden tab too, by the timeout). Offline with that code never fetched, the queue waits
// for a later start.
whenIdle(() => void import('./app/outbox.ts').then((m) => m.startOutboxDriver(), () => {}), 1000)
