import fs from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
}

export interface StaticServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string
  close(): Promise<void>
}

/** Serves the files under `dir` (GET/HEAD only, nothing outside it) on a free loopback port, `headers` on each file. */
export async function serveStatic(dir: string, headers: Record<string, string> = {}): Promise<StaticServer> {
  const base = path.resolve(dir)
  const server = http.createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const file = path.resolve(base, '.' + pathname)
      if ((req.method !== 'GET' && req.method !== 'HEAD') || (file !== base && !file.startsWith(base + path.sep))) {
        res.writeHead(404).end()
        return
      }
      try {
        const body = await fs.readFile(file)
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...headers })
        res.end(req.method === 'HEAD' ? undefined : body)
      } catch {
        res.writeHead(404).end()
      }
    })()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}
