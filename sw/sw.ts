// NADI's service worker (DESIGN §6), built by vite-plugin-pwa (injectManifest) to dist/sw.js.
//
// - The precache holds only the app shell: index.html, the entry script with its modulepreloads and
//   CSS, the default (tw) locale, the favicon, the manifest and its icons. vite.config.ts computes
//   the list from the built index.html.
// - Every other hashed asset (screens, other locales, the wallet code) is cached on first use, and
//   the screens' code (the manifest's entries marked `lazy`) is fetched ahead once the app says it is
//   idle (CACHE_LAZY), so a screen never opened online still opens offline.
// - A new version waits until the page asks for it (SKIP_WAITING): code never changes under a user.

import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'
import { ExpirationPlugin } from 'workbox-expiration'

declare const self: ServiceWorkerGlobalScope

/** Runtime cache of hashed, immutable /assets/* files. */
const ASSETS_CACHE = 'nadi-assets'
/** Runtime cache of public images (banners, icons). */
const IMAGES_CACHE = 'nadi-images'
/** Any cache holding a user's data must be named with this prefix so sign-out can drop it. */
const USER_CACHE_PREFIX = 'nadi-user'

/** vite.config.ts marks the code kept out of the precache that screens load (lazyCode). */
const MANIFEST = self.__WB_MANIFEST as (PrecacheEntry & { lazy?: boolean })[]
/** The screens' code, to fetch into the runtime cache when the app is idle. */
const LAZY_CODE = MANIFEST.filter((e) => e.lazy).map((e) => new URL(e.url, self.location.href).href)
/** Files fetched at once: the app's own requests still get through on a slow link. */
const LAZY_PARALLEL = 3

precacheAndRoute(MANIFEST.filter((e) => !e.lazy))
cleanupOutdatedCaches()

const sameOrigin = (url: URL) => url.origin === self.location.origin
const hasAuth = (request: Request) => request.headers.has('authorization')

/** Navigations the shell must not answer: the API and its docs, the socket, wallet deep links. */
function bypassesShell(url: URL): boolean {
  if (!sameOrigin(url)) return true
  const p = url.pathname
  if (/^\/(api|ws|wc)(\/|$)/.test(p)) return true // /api/docs is under /api
  // WalletConnect deep links (…?wc=… or …?uri=wc:…) belong to the wallet flow, never to the shell.
  if (url.searchParams.has('wc') || url.searchParams.has('uri')) return true
  // A file (/favicon.svg, /banners/x.svg, /sw.js) opened directly is that file, not a client route.
  if (/\.[a-z0-9]+$/i.test(p.slice(p.lastIndexOf('/') + 1))) return true
  return false
}

// Client routes (/index, /notice/detail/3…) get the precached shell, online or offline.
registerRoute(({ request, url }) => request.mode === 'navigate' && !bypassesShell(url), createHandlerBoundToURL('/index.html'))

const assets = new CacheFirst({
  cacheName: ASSETS_CACHE,
  // Room for every screen's code (LAZY_CODE) and the languages used, with some left for a previous version's.
  plugins: [new ExpirationPlugin({ maxEntries: Math.max(200, 2 * LAZY_CODE.length), purgeOnQuotaError: true })],
})

// Hashed assets never change under one name, so the cached copy is always right.
registerRoute(({ request, url }) => sameOrigin(url) && url.pathname.startsWith('/assets/') && !hasAuth(request), assets)

registerRoute(
  ({ request, url }) =>
    sameOrigin(url) && request.destination === 'image' && /^\/(banners|icons|goods)\/|^\/favicon\.svg$/.test(url.pathname) && !hasAuth(request),
  new CacheFirst({
    cacheName: IMAGES_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true })],
  }),
)

// Deliberately no route for /api/* (nor /ws): API answers carry a user's data or change by the minute,
// and a request with an Authorization header is a user's. They go to the network untouched and never
// reach a cache here; offline data is the app's own business (TanStack Query persisted per account).

self.addEventListener('activate', (event) => {
  // On the first install take the open page at once (it runs this same build), so the shell is cached
  // for the next offline start. An update only activates when the page asked, then reloads.
  event.waitUntil(self.clients.claim())
})

type Message = { type: 'SKIP_WAITING' } | { type: 'CLEAR_USER_CACHES' } | { type: 'CACHE_URLS'; urls: unknown } | { type: 'CACHE_LAZY' }

async function clearUserCaches(): Promise<void> {
  const names = await caches.keys()
  await Promise.all(names.filter((n) => n.startsWith(USER_CACHE_PREFIX)).map((n) => caches.delete(n)))
}

/** Caches the assets a page loaded before this worker controlled it (the current locale, its screen). */
async function cacheUrls(urls: unknown, event: ExtendableEvent): Promise<void> {
  if (!Array.isArray(urls)) return
  const wanted = new Set<string>()
  for (const u of urls) {
    if (typeof u !== 'string') continue
    let url: URL
    try {
      url = new URL(u, self.location.href)
    } catch {
      continue
    }
    if (sameOrigin(url) && url.pathname.startsWith('/assets/') && !url.pathname.endsWith('.map')) wanted.add(url.origin + url.pathname)
  }
  // Through the strategy, so the expiration bookkeeping sees them; one failure spoils nothing else.
  await Promise.allSettled([...wanted].map((u) => assets.handle({ event, request: new Request(u) })))
}

let lazyRun: Promise<void> | undefined

/**
 * Fetches the screens' code not cached yet, a few files at a time, through the strategy (so expiration
 * sees them). The app asks only when it is idle, online and not saving data (src/app/sw.ts); one run
 * at a time, and a run that left files out (a dropped link) is tried again on the next ask.
 */
function cacheLazyCode(event: ExtendableEvent): Promise<void> {
  lazyRun ??= (async () => {
    const cache = await caches.open(ASSETS_CACHE)
    const todo: string[] = []
    for (const url of LAZY_CODE) if (!(await cache.match(url))) todo.push(url)
    const worker = async () => {
      for (let url = todo.shift(); url; url = todo.shift()) await assets.handle({ event, request: new Request(url) }).catch(() => undefined)
    }
    await Promise.all(Array.from({ length: LAZY_PARALLEL }, worker))
  })().finally(() => {
    lazyRun = undefined
  })
  return lazyRun
}

self.addEventListener('message', (event) => {
  const data = event.data as Message | null
  if (!data || typeof data !== 'object') return
  let done: Promise<void> | undefined
  switch (data.type) {
    case 'SKIP_WAITING':
      done = self.skipWaiting()
      break
    case 'CLEAR_USER_CACHES':
      done = clearUserCaches()
      break
    case 'CACHE_URLS':
      done = cacheUrls(data.urls, event)
      break
    case 'CACHE_LAZY':
      done = cacheLazyCode(event)
      break
    default:
      return
  }
  // Answer on the port when there is one (workbox-window's messageSW waits for it).
  const reply = () => event.ports[0]?.postMessage({ type: data.type, done: true })
  event.waitUntil(done.then(reply, reply))
})
