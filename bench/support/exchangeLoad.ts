// The load generator of the HTTP order-placement rows: on its own event loop (and so the machine's
// other core) it keeps `inFlight` placeOrder requests open through a keep-alive agent against the real
// server, and counts the answers. The exchange row starts it as a worker thread (startTsWorker in
// bench/rows/exchange.ts); the envelope row as a process of its own, to measure the server's process
// CPU without the generator's.
// With `keys` (the envelope on, bench/rows/envelope.ts) requests are sealed by the app's own code
// (src/api/sealCrypto.ts) before the windows — the app seals on each user's phone, not on the server's
// two cores, which this generator shares — and every answer must come sealed, every 16th opened and
// its code checked (and every refusal).

import crypto from 'node:crypto'
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'
import { fromBase64Url } from '../../contract/seal.ts'
import { importKeys, isSealedAnswer, openAnswer, sealRequest, type SealKeys } from '../../src/api/sealCrypto.ts'
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
  /** With the envelope on: each token's handshake (its 64 derived bytes, base64url), in the order of `tokens`. */
  keys?: { handshake: string; raw: string; expiresAt: number }[]
  /** With `keys`: requests sealed before the warm-up and windows (more are sealed on the way if they run out). */
  presealed?: number
  /** Say `loading` when the first request leaves (after any sealing), so the caller can measure the server from there. */
  announce?: boolean
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

export type LoadMessage = { type: 'loading' } | { type: 'done'; windows: LoadWindow[] } | { type: 'failed'; error: string }

const input = (workerData ?? JSON.parse(process.env.NADI_LOAD_INPUT ?? 'null')) as LoadInput
const report = (m: LoadMessage) => (parentPort ? parentPort.postMessage(m) : process.send?.(m))
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

const sealKeys: SealKeys[] | null = input.keys ? await Promise.all(input.keys.map((k) => importKeys(k.handshake, fromBase64Url(k.raw) as Uint8Array, k.expiresAt))) : null

let serial = 0
function nextBody(): { token: string; keys: SealKeys | null; body: string } {
  const who = Math.floor(rand() * input.tokens.length)
  const token = input.tokens[who] as string
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
  return { token, keys: sealKeys?.[who] ?? null, body }
}

const decoder = new TextDecoder()

/** Answers seen, to open one in OPEN_EVERY. */
let answers = 0
const OPEN_EVERY = 16

/** A sealed answer's outcome: `ok` for HTTP 200 sealed (opened and code 200 inside, for those opened); a plain answer is a refusal. */
function sealedOutcome(res: http.IncomingMessage, keys: SealKeys, requestSign: string, resolve: (outcome: string) => void): void {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('end', () => {
    void (async () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
      if (!isSealedAnswer(parsed)) return `${res.statusCode}/plain ${String((parsed as { code?: unknown }).code)}`
      if (res.statusCode === 200 && answers++ % OPEN_EVERY !== 0) return 'ok'
      const opened = await openAnswer(keys, { method: 'POST', path: url.pathname, requestSign, status: res.statusCode ?? 0 }, parsed)
      const code = (JSON.parse(decoder.decode(opened)) as { code?: unknown }).code
      return res.statusCode === 200 && code === 200 ? 'ok' : `${res.statusCode}/${String(code)}`
    })().then(resolve, (e: unknown) => resolve(`unopened: ${e instanceof Error ? e.message : String(e)}`))
  })
  res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'response error'))
}

interface Prepared {
  token: string
  keys: SealKeys | null
  idempotencyKey: string
  payload: string
  /** The sealed request's sign, which its answer's sign covers. */
  sign: string | null
}

async function prepare(): Promise<Prepared> {
  const { token, keys, body } = nextBody()
  const idempotencyKey = crypto.randomUUID()
  const sealed = keys ? await sealRequest(keys, { method: 'POST', path: url.pathname, timestamp: Date.now(), idempotencyKey, json: body }) : null
  return { token, keys, idempotencyKey, payload: sealed ? JSON.stringify(sealed) : body, sign: sealed?.sign ?? null }
}

const presealed: Prepared[] = []

async function placeOnce(): Promise<string> {
  const { token, keys, idempotencyKey, payload, sign } = presealed.pop() ?? (await prepare())
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
          'idempotency-key': idempotencyKey,
        },
      },
      (res) => (keys && sign ? sealedOutcome(res, keys, sign, resolve) : envelopeOutcome(res, resolve)),
    )
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'request error'))
    req.end(payload)
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
  if (sealKeys) for (let i = 0; i < (input.presealed ?? 0); i++) presealed.push(await prepare())
  if (input.announce) report({ type: 'loading' })
  await window(input.warmUpMs)
  const windows: LoadWindow[] = []
  for (let i = 0; i < input.windows; i++) windows.push(await window(input.windowMs))
  agent.destroy()
  report({ type: 'done', windows })
  if (!parentPort) process.disconnect?.()
}

main().catch((e: unknown) => report({ type: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) }))
