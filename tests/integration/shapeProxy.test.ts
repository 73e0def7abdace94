// The shape's proxy (scripts/shape/proxy.ts) in front of two small HTTP servers standing in for the api
// processes: requests in turn, a refusing process skipped with the request sent whole to the other,
// the forwarding headers, and WebSockets passed through both ways.

import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { startProxy, type Proxy } from '../../scripts/shape/proxy.ts'
import { freePort } from './support/child.ts'

const closers: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of closers.reverse()) await c()
})

/** A stand-in api process: answers its name, the body it got and the forwarding header; echoes on /ws. */
async function upstream(name: string) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ name, body: Buffer.concat(chunks).toString(), forwardedFor: req.headers['x-forwarded-for'] ?? null, host: req.headers.host }))
    })
  })
  const wss = new WebSocketServer({ server, path: '/ws' })
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(`${name}:${m.toString()}`)))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const port = (server.address() as AddressInfo).port
  const close = async () => {
    for (const c of wss.clients) c.terminate()
    wss.close()
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  }
  closers.push(close)
  return { port, close }
}

async function ask(p: Proxy, body?: string) {
  const res = await fetch(`${p.url}/api/v1/x`, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'text/plain' } })
  return { api: res.headers.get('x-nadi-api'), status: res.status, ...((await res.json()) as { name: string; body: string; forwardedFor: string | null; host: string }) }
}

describe('the shape’s proxy', () => {
  it('sends requests to each api process in turn, with the client’s address and host, and a socket to one of them both ways', async () => {
    const [a, b] = [await upstream('a'), await upstream('b')]
    const proxy = await startProxy([a, b].map((u) => ({ host: '127.0.0.1', port: u.port })), { host: '127.0.0.1', port: 0 })
    closers.push(() => proxy.close())
    const answers = [await ask(proxy), await ask(proxy), await ask(proxy), await ask(proxy)]
    expect(answers.map((x) => [x.api, x.name])).toEqual([
      ['1', 'a'],
      ['2', 'b'],
      ['1', 'a'],
      ['2', 'b'],
    ])
    expect(answers[0]).toMatchObject({ forwardedFor: '127.0.0.1', host: `127.0.0.1:${proxy.port}` })

    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`)
    const reply = new Promise<string>((resolve) => ws.once('message', (m) => resolve(m.toString())))
    await new Promise((r, j) => {
      ws.once('open', r)
      ws.once('error', j)
    })
    ws.send('ping')
    expect(await reply).toMatch(/^(a|b):ping$/)
    ws.close()
  })

  it('skips an api process that refuses connections and sends the whole request, a POST too, to the other', async () => {
    const live = await upstream('live')
    const dead = await freePort() // nothing listens there: connections are refused
    const proxy = await startProxy(
      [
        { host: '127.0.0.1', port: dead },
        { host: '127.0.0.1', port: live.port },
      ],
      { host: '127.0.0.1', port: 0 },
    )
    closers.push(() => proxy.close())
    const body = 'x'.repeat(100_000)
    const answers = [await ask(proxy, body), await ask(proxy), await ask(proxy, 'small')]
    expect(answers.map((x) => [x.status, x.api, x.name, x.body.length])).toEqual([
      [200, '2', 'live', 100_000],
      [200, '2', 'live', 0],
      [200, '2', 'live', 5],
    ])
    await live.close()
    const res = await fetch(`${proxy.url}/api/v1/x`)
    expect([res.status, await res.text()]).toEqual([502, 'no api process answered (ECONNREFUSED)\n'])
  })
})
