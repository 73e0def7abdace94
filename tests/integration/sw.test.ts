// The server side of the service worker: /sw.js is revalidated on every load, and the kill switch
// (NADI_SW_KILL=1) answers a worker that retires itself and every cache.

import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { SW_KILL_SCRIPT } from '../../server/http/static.ts'
import { useServers } from './support/server.ts'

const start = useServers()
const BUILT_SW = `/* the built worker */ self.addEventListener('fetch', () => {});\n${'// padding\n'.repeat(200)}`

function writeBuiltWorker(distDir: string) {
  fs.writeFileSync(path.join(distDir, 'sw.js'), BUILT_SW)
  fs.writeFileSync(path.join(distDir, 'sw.js.br'), zlib.brotliCompressSync(BUILT_SW))
}

describe('the service worker script', () => {
  it('is served from dist, precompressed, and revalidated on every load', async () => {
    const s = await start()
    writeBuiltWorker(s.distDir)
    const res = await s.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(BUILT_SW)
    expect(s.config.swKill).toBe(false)
  })

  it('NADI_SW_KILL=1 answers the kill-switch worker instead, even over a precompressed build', async () => {
    const s = await start({ env: { NADI_SW_KILL: '1' } })
    writeBuiltWorker(s.distDir)
    for (const headers of [{ 'accept-encoding': 'br, gzip' }, {}]) {
      const res = await s.inject({ method: 'GET', url: '/sw.js', headers })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/javascript/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.body).toBe(SW_KILL_SCRIPT)
    }
    const head = await s.inject({ method: 'HEAD', url: '/sw.js' })
    expect(head.statusCode).toBe(200)
    // The rest of the app is served as usual.
    const shell = await s.inject({ method: 'GET', url: '/index' })
    expect(shell.statusCode).toBe(200)
    expect(shell.headers['content-type']).toMatch(/^text\/html/)
  })

  it('the kill switch works on a server without the app shell', async () => {
    const s = await start({ env: { NADI_SW_KILL: '1', NADI_DIST_DIR: '/nonexistent/nadi-dist' } })
    const res = await s.inject({ method: 'GET', url: '/sw.js' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(SW_KILL_SCRIPT)
  })

  it('only NADI_SW_KILL=1 turns it on', () => {
    expect(loadConfig({}).swKill).toBe(false)
    expect(loadConfig({ NADI_SW_KILL: '0' }).swKill).toBe(false)
    expect(loadConfig({ NADI_SW_KILL: 'true' }).swKill).toBe(false)
    expect(loadConfig({ NADI_SW_KILL: '1' }).swKill).toBe(true)
  })
})

describe('the kill-switch worker', () => {
  it('takes over at once, unregisters, deletes every cache, then reloads the open pages', async () => {
    const calls: string[] = []
    const listeners = new Map<string, (event: unknown) => void>()
    const page = { url: 'http://127.0.0.1/index', navigate: async (u: string) => void calls.push(`navigate ${u}`) }
    const sandbox = {
      self: {
        addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
        skipWaiting: async () => void calls.push('skipWaiting'),
        registration: { unregister: async () => (calls.push('unregister'), true) },
        clients: { matchAll: async (o: { type?: string }) => (calls.push(`matchAll ${o.type}`), [page]) },
      },
      caches: {
        keys: async () => ['workbox-precache-v2-http://127.0.0.1/', 'nadi-assets', 'nadi-user-1'],
        delete: async (k: string) => (calls.push(`delete ${k}`), true),
      },
    }
    vm.runInNewContext(SW_KILL_SCRIPT, sandbox)
    expect([...listeners.keys()].sort()).toEqual(['activate', 'install']) // no fetch handler: nothing is intercepted
    listeners.get('install')!({})
    let done: Promise<unknown> | undefined
    listeners.get('activate')!({ waitUntil: (p: Promise<unknown>) => void (done = p) })
    await done
    expect(calls).toEqual([
      'skipWaiting',
      'unregister',
      'delete workbox-precache-v2-http://127.0.0.1/',
      'delete nadi-assets',
      'delete nadi-user-1',
      'matchAll window',
      'navigate http://127.0.0.1/index',
    ])
  })
})
