// Worker thread of the "exchange: HTTP order placement" row (bench/rows/exchange.ts): the load
// generator, on its own event loop (and so the machine's other core), keeps `inFlight` placeOrder
// requests open through a keep-alive agent against the real server, and counts the answers.
// Started through startTsWorker (bench/rows/exchange.ts), which registers tsx in this thread first.

import crypto from 'node:crypto'
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'
import { envelopeOutcome } from './loadGen.ts'

export interface LoadInput {
  origin: string
  tokens: string[]
  /** Keep-alive sockets of the agent; also the requests kept in flight. */
  sockets: number
  warmUpMs: number
  windowMs: number
  windows: number
  /** The mid price of the generated orders, in ticks of 0.0001 USDT. */
  midTicks: number
  /** Share of orders priced through the mid (they fill against resting ones). */
  crossing: number
}

export interface LoadWindow {
  ms: number
  /** HTTP 200 with envelope code 200. */
  ok: number
  /** Every other answer, by "status/code" (or the network error's code). */
  other: Record<string, number>
  p50Ms: number
  p99Ms: number
}

export type LoadMessage = { type: 'done'; windows: LoadWindow[] } | { type: 'failed'; error: string }

const input = workerData as LoadInput
const agent = new http.Agent({ keepAlive: true, maxSockets: input.sockets })
const url = new URL('/api/v1/trade/placeOrder', input.origin)

let seed = 0x9e3779b9
function rand(): number {
  // xorshift32: deterministic, cheap, enough to spread users, sides and prices
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}

let serial = 0
function nextBody(): { token: string; body: string } {
  const token = input.tokens[Math.floor(rand() * input.tokens.length)] as string
  const side = rand() < 0.5 ? 'buy' : 'sell'
  const cross = rand() < input.crossing
  // Resting orders sit 1–20 ticks off the mid on their own side; crossing ones 1–3 ticks through it.
  const off = cross ? -(1 + Math.floor(rand() * 3)) : 1 + Math.floor(rand() * 20)
  const ticks = side === 'buy' ? input.midTicks - off : input.midTicks + off
  // ≥ 500 lots (5 NADI) keeps price × size above the 1 USDT minimum at any price used here.
  const lots = 500 + Math.floor(rand() * 500)
  const body = JSON.stringify({
    inst_id: 'NADI-USDT',
    side,
    type: 'limit',
    price: (ticks / 10_000).toFixed(4),
    size: (lots / 100).toFixed(2),
    client_order_id: `h${process.pid}x${serial++}`,
  })
  return { token, body }
}

function placeOnce(): Promise<string> {
  const { token, body } = nextBody()
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
          'idempotency-key': crypto.randomUUID(),
        },
      },
      (res) => envelopeOutcome(res, resolve),
    )
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'request error'))
    req.end(body)
  })
}

async function window(ms: number): Promise<LoadWindow> {
  const t0 = performance.now()
  const until = t0 + ms
  const lat: number[] = []
  const other: Record<string, number> = {}
  const slot = async () => {
    while (performance.now() < until) {
      const s = performance.now()
      const r = await placeOnce()
      if (r === 'ok') lat.push(performance.now() - s)
      else other[r] = (other[r] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: input.sockets }, slot))
  const elapsed = performance.now() - t0
  lat.sort((a, b) => a - b)
  return { ms: elapsed, ok: lat.length, other, p50Ms: lat[Math.floor(lat.length * 0.5)] ?? 0, p99Ms: lat[Math.floor(lat.length * 0.99)] ?? 0 }
}

async function main(): Promise<void> {
  await window(input.warmUpMs)
  const windows: LoadWindow[] = []
  for (let i = 0; i < input.windows; i++) windows.push(await window(input.windowMs))
  agent.destroy()
  parentPort?.postMessage({ type: 'done', windows } satisfies LoadMessage)
}

main().catch((e: unknown) => parentPort?.postMessage({ type: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies LoadMessage))
