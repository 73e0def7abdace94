import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App } from './types.ts'
import { homeShells, shellEncoding, type ShellBody } from './shell.ts'

/** Files that must be revalidated on every load so a deploy reaches users (DESIGN §6). */
const NEVER_CACHED = new Set(['index.html', 'sw.js', 'manifest.webmanifest'])

/**
 * The kill switch's worker (NADI_SW_KILL=1): browsers find it at their next update check of /sw.js.
 * It takes over at once, unregisters itself, deletes every cache of the origin, then reloads the open
 * pages so they run from the network again. It has no fetch handler: nothing is intercepted meanwhile.
 */
export const SW_KILL_SCRIPT = `// NADI service worker kill switch: unregister, empty every cache, reload the open pages.
self.addEventListener('install', function () { self.skipWaiting() })
self.addEventListener('activate', function (event) {
  event.waitUntil(
    self.registration.unregister()
      .then(function () { return caches.keys() })
      .then(function (keys) { return Promise.all(keys.map(function (k) { return caches.delete(k) })) })
      .then(function () { return self.clients.matchAll({ type: 'window' }) })
      .then(function (clients) { clients.forEach(function (c) { c.navigate(c.url).catch(function () {}) }) })
  )
})
`

/**
 * The app shell's Content-Security-Policy. Scripts: our own files and, by hash, index.html's inline
 * scripts (the language and banner preloads, the early cache read, the home top's drawing, the loader
 * that starts the app after the first paint), nothing else — no eval. Styles
 * allow inline ones: the wallet modal (web3-onboard) injects <style> elements; React and uPlot set
 * styles through the DOM, which CSP does not restrict. Connections go to this origin only (the API,
 * the socket, the demo chains' RPC proxy), plus `connectSrc` (an upload bucket on another origin); a
 * browser wallet talks to its own node, outside the page.
 */
export function shellCsp(indexHtml: string, connectSrc: readonly string[] = []): string {
  const inline = [...indexHtml.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${crypto.createHash('sha256').update(m[1]!).digest('base64')}'`,
  )
  return [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connectSrc].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export interface ServeOptions {
  /** Answer /sw.js with SW_KILL_SCRIPT instead of the built worker. */
  swKill?: boolean
  /** Origins besides this one the app connects to (an S3-compatible upload bucket). */
  connectSrc?: readonly string[]
}

/** The built shell as served: its CSP, and the home screen's copy for a given first banner. */
export interface AppShell {
  csp: string
  home: (image: string | null | undefined) => ShellBody
}

/** The app shell, or null when the dist folder has none (an API-only server). */
export async function serveApp(app: App, distDir: string, opts: ServeOptions = {}): Promise<AppShell | null> {
  // Before looking for the shell: an API-only server can still retire the workers it once installed.
  if (opts.swKill) {
    app.get('/sw.js', { schema: { hide: true } }, (_req, reply) =>
      reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(SW_KILL_SCRIPT),
    )
  }
  const index = path.join(distDir, 'index.html')
  if (!fs.existsSync(index)) return null
  const html = fs.readFileSync(index, 'utf8')
  const csp = shellCsp(html, opts.connectSrc)
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    preCompressed: true,
    // Cache headers are ours alone: immutable for hashed assets, revalidate for the shell.
    cacheControl: false,
    setHeaders(res, file) {
      // A precompressed twin (index.html.br) is cached like the file it stands for.
      const rel = path.relative(distDir, file).replace(/\.(br|gz)$/, '')
      if (rel.startsWith(`assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable')
      else if (NEVER_CACHED.has(path.basename(rel))) res.setHeader('cache-control', 'no-cache')
      else res.setHeader('cache-control', 'public, max-age=3600')
      if (rel === 'index.html') res.setHeader('content-security-policy', csp)
    },
  })
  return { csp, home: homeShells(html) }
}

/**
 * The home screen's shell, answered as the static index.html is (revalidated, with its CSP, an ETag,
 * precompressed), with the first banner's preload in it (server/http/shell.ts).
 */
export function sendHomeShell(req: FastifyRequest, reply: FastifyReply, shell: AppShell, image: string | null): FastifyReply {
  const body = shell.home(image)
  reply.header('cache-control', 'no-cache').header('content-security-policy', shell.csp).header('etag', body.etag).header('vary', 'accept-encoding')
  reply.type('text/html; charset=utf-8')
  if (req.headers['if-none-match'] === body.etag) return reply.status(304).send()
  if (req.method === 'HEAD') return reply.send()
  const encoding = shellEncoding(req.headers['accept-encoding'])
  if (encoding) reply.header('content-encoding', encoding)
  return reply.send(encoding === 'br' ? body.br : encoding === 'gzip' ? body.gzip : body.html)
}
