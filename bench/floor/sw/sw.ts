// The floor's service worker: the precache (the shell and the banner) and client routes answered with
// the precached shell, as sw/sw.ts does for the app, and nothing else.
import { createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'

declare const self: { __WB_MANIFEST: (string | PrecacheEntry)[] }

precacheAndRoute(self.__WB_MANIFEST)
registerRoute(({ request, url }) => request.mode === 'navigate' && url.origin === location.origin && !/\.[a-z0-9]+$/i.test(url.pathname), createHandlerBoundToURL('/index.html'))
