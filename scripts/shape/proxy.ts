// The shape's load balancer (scripts/shape.ts): one port in front of the api processes, HTTP and
// WebSocket, in Node — so a newcomer needs neither Caddy nor nginx (deploy/ has those for a real
// deployment, docs/deploy.md). It does what they do there, and no more:
// - requests in turn to each api process (round robin); a socket stays on the process it reached;
// - an api process that refuses the connection is skipped for 10 s and the request goes to the next
//   one — safe even for a POST, since nothing of it reached the refusing process;
// - X-Forwarded-For / -Proto / -Host added, so the api processes (NADI_TRUST_PROXY=1) see the user;
// - `x-nadi-api: <n>` on each answer says which api process served it (1-based), to watch the spread.

import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export interface Upstream {
  host: string
  port: number
}

export interface Proxy {
  url: string
  port: number
  close(): Promise<void>
}

/** How long an upstream that refused a connection is left out. */
const DOWN_MS = 10_000
/** Headers that describe one connection, not the request: never passed on. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'])

const refused = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'ECONNREFUSED'

function forwarded(req: http.IncomingMessage): Record<string, string> {
  const prior = req.headers['x-forwarded-for']
  const client = req.socket.remoteAddress ?? ''
  return {
    'x-forwarded-for': prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${client}` : client,
    'x-forwarded-proto': 'http',
    'x-forwarded-host': req.headers.host ?? '',
  }
}

export async function startProxy(upstreams: readonly Upstream[], listen: { host: string; port: number }): Promise<Proxy> {
  if (upstreams.length === 0) throw new Error('the proxy needs at least one api process')
  const downUntil = upstreams.map(() => 0)
  let turn = 0
  /** The upstreams to try, in order: the next in turn first, those left out for a refusal last. */
  const order = (): number[] => {
    const start = turn++ % upstreams.length
    const all = upstreams.map((_, i) => (start + i) % upstreams.length)
    const now = Date.now()
    return [...all.filter((i) => downUntil[i]! <= now), ...all.filter((i) => downUntil[i]! > now)]
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  /** Both ends of every WebSocket passed through, to end them on close. */
  const tunnels = new Set<net.Socket>()

  const server = http.createServer((req, res) => {
    // Buffered, so that a request refused by one process can be sent whole to the next.
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('error', () => res.destroy())
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const headers: http.OutgoingHttpHeaders = { ...forwarded(req) }
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && !k.startsWith('x-forwarded-') && v !== undefined) headers[k] = v
      if (body.length > 0 || req.headers['content-length'] !== undefined) headers['content-length'] = String(body.length)
      const tries = order()
      const attempt = (k: number) => {
        const i = tries[k]!
        const up = http.request({ ...upstreams[i]!, method: req.method, path: req.url, headers, agent }, (answer) => {
          const out: http.OutgoingHttpHeaders = { 'x-nadi-api': String(i + 1) }
          for (const [h, v] of Object.entries(answer.headers)) if (!HOP.has(h) && v !== undefined) out[h] = v
          res.writeHead(answer.statusCode ?? 502, out)
          answer.pipe(res)
          answer.on('error', () => res.destroy())
        })
        up.on('error', (err) => {
          if (res.headersSent) return void res.destroy()
          // A kept-alive connection the process closed just as it was reused: the request never reached it.
          if (up.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return attempt(k)
          if (refused(err)) {
            downUntil[i] = Date.now() + DOWN_MS
            if (k + 1 < tries.length) return attempt(k + 1)
          }
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
          res.end(`no api process answered (${(err as NodeJS.ErrnoException).code ?? err.message})\n`)
        })
        res.on('close', () => {
          if (!res.writableFinished) up.destroy()
        })
        up.end(body)
      }
      attempt(0)
    })
  })

  // WebSockets: the handshake passed on as it came (plus the forwarding headers), then bytes both ways.
  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const tries = order()
    const extra = forwarded(req)
    const lines = [`${req.method} ${req.url} HTTP/1.1`]
    for (let j = 0; j < req.rawHeaders.length; j += 2) {
      const name = req.rawHeaders[j]!
      if (!name.toLowerCase().startsWith('x-forwarded-')) lines.push(`${name}: ${req.rawHeaders[j + 1]}`)
    }
    for (const [k, v] of Object.entries(extra)) lines.push(`${k}: ${v}`)
    const handshake = `${lines.join('\r\n')}\r\n\r\n`
    client.on('error', () => client.destroy())
    tunnels.add(client)
    client.on('close', () => tunnels.delete(client))
    const attempt = (k: number) => {
      const i = tries[k]!
      const up = net.connect(upstreams[i]!)
      up.once('connect', () => {
        tunnels.add(up)
        up.on('close', () => {
          tunnels.delete(up)
          client.destroy()
        })
        client.on('close', () => up.destroy())
        up.write(handshake)
        if (head.length > 0) up.write(head)
        up.pipe(client)
        client.pipe(up)
      })
      up.on('error', (err) => {
        if (refused(err)) {
          downUntil[i] = Date.now() + DOWN_MS
          if (k + 1 < tries.length) return attempt(k + 1)
        }
        client.destroy()
      })
    }
    attempt(0)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port, listen.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}`,
    port,
    async close() {
      server.closeAllConnections()
      for (const t of tunnels) t.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      agent.destroy()
    },
  }
}
