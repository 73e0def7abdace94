// The load generator of the HTTP order-placement rows: on its own event loop (and so the machine's
// other core) it keeps `sockets` placeOrder requests open through a keep-alive agent against the real
// server, and counts the answers. The exchange row starts it as a worker thread (startTsWorker in
// bench/rows/exchange.ts), one server and consecutive windows; the envelope row as a process of its
// own, two servers and alternating windows (`targets`, `pairs`), to compare them under the same noise
// and read the servers' CPU without the generator's.
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
import { threadsCpuNs, type PairedWindow } from './paired.ts'

/** A server under load and who places orders on it. */
export interface LoadTarget {
  origin: string
  tokens: string[]
  /** With the envelope on: each token's handshake (its 64 derived bytes, base64url), in the order of `tokens`. */
  keys?: { handshake: string; raw: string; expiresAt: number }[]
}

export interface LoadInput extends LoadTarget {
  /** Keep-alive sockets of the agent; also the requests kept in flight. */
  sockets: number
  warmUpMs: number
  windowMs: number
  windows: number
  /** The mid price of the generated orders, in ticks of 0.0001 USDT. */
  midTicks: number
  /** Share of orders priced through the mid (they fill against resting ones). */
  crossing: number
  /** With `keys`: requests sealed before the warm-up and windows (more are sealed on the way if they run out). */
  presealed?: number
}

/**
 * Two servers loaded in turn: after a warm-up of each, `pairs` pairs of windows, one on each, the
 * first of a pair alternating (0 1, 1 0, 0 1, …), so that the machine's speed, which drifts within
 * seconds, weighs on both alike. The sockets of both stay open throughout: a window starts loaded.
 */
export interface PairedInput extends Omit<LoadInput, keyof LoadTarget | 'windows'> {
  targets: [LoadTarget, LoadTarget]
  pairs: number
  /** A process (the servers') whose threads' CPU time is read around each window, from /proc. */
  cpuOf?: number
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

export type LoadMessage =
  | { type: 'done'; windows: LoadWindow[] }
  | { type: 'paired'; windows: PairedWindow[] }
  | { type: 'failed'; error: string }

const report = (m: LoadMessage) => (parentPort ? parentPort.postMessage(m) : process.send?.(m))
const PATH = '/api/v1/trade/placeOrder'

let seed = 0x9e3779b9
function rand(): number {
  // xorshift32: deterministic, cheap, enough to spread users, sides and prices
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}

const decoder = new TextDecoder()
const OPEN_EVERY = 16

interface Prepared {
  token: string
  keys: SealKeys | null
  idempotencyKey: string
  payload: string
  /** The sealed request's sign, which its answer's sign covers. */
  sign: string | null
}

/** One server's orders: its keep-alive agent, its users, its requests sealed ahead. */
class Placer {
  private readonly agent: http.Agent
  private readonly url: URL
  private readonly presealed: Prepared[] = []
  private serial = 0
  /** Answers seen, to open one in OPEN_EVERY. */
  private answers = 0

  private constructor(
    private readonly t: LoadTarget,
    private readonly shape: { sockets: number; midTicks: number; crossing: number },
    private readonly sealKeys: SealKeys[] | null,
    private readonly label: string,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: shape.sockets })
    this.url = new URL(PATH, t.origin)
  }

  static async of(t: LoadTarget, shape: { sockets: number; midTicks: number; crossing: number }, label: string): Promise<Placer> {
    const sealKeys = t.keys ? await Promise.all(t.keys.map((k) => importKeys(k.handshake, fromBase64Url(k.raw) as Uint8Array, k.expiresAt))) : null
    return new Placer(t, shape, sealKeys, label)
  }

  get sealed(): boolean {
    return this.sealKeys !== null
  }

  async preseal(n: number): Promise<void> {
    if (this.sealKeys) for (let i = 0; i < n; i++) this.presealed.push(await this.prepare())
  }

  private nextBody(): { token: string; keys: SealKeys | null; body: string } {
    const who = Math.floor(rand() * this.t.tokens.length)
    const side = rand() < 0.5 ? 'buy' : 'sell'
    const cross = rand() < this.shape.crossing
    // Resting orders sit 1–20 ticks off the mid on their own side; crossing ones 1–3 ticks through it.
    const off = cross ? -(1 + Math.floor(rand() * 3)) : 1 + Math.floor(rand() * 20)
    const ticks = side === 'buy' ? this.shape.midTicks - off : this.shape.midTicks + off
    // ≥ 500 lots (5 NADI) keeps price × size above the 1 USDT minimum at any price used here.
    const lots = 500 + Math.floor(rand() * 500)
    const body = JSON.stringify({
      inst_id: 'NADI-USDT',
      side,
      type: 'limit',
      price: (ticks / 10_000).toFixed(4),
      size: (lots / 100).toFixed(2),
      client_order_id: `h${process.pid}${this.label}x${this.serial++}`,
    })
    return { token: this.t.tokens[who]!, keys: this.sealKeys?.[who] ?? null, body }
  }

  private async prepare(): Promise<Prepared> {
    const { token, keys, body } = this.nextBody()
    const idempotencyKey = crypto.randomUUID()
    const sealed = keys ? await sealRequest(keys, { method: 'POST', path: PATH, timestamp: Date.now(), idempotencyKey, json: body }) : null
    return { token, keys, idempotencyKey, payload: sealed ? JSON.stringify(sealed) : body, sign: sealed?.sign ?? null }
  }

  /** A sealed answer's outcome: `ok` for HTTP 200 sealed (opened and code 200 inside, for those opened); a plain answer is a refusal. */
  private sealedOutcome(res: http.IncomingMessage, keys: SealKeys, requestSign: string, resolve: (outcome: string) => void): void {
    const chunks: Buffer[] = []
    res.on('data', (c: Buffer) => chunks.push(c))
    res.on('end', () => {
      void (async () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
        if (!isSealedAnswer(parsed)) return `${res.statusCode}/plain ${String((parsed as { code?: unknown }).code)}`
        if (res.statusCode === 200 && this.answers++ % OPEN_EVERY !== 0) return 'ok'
        const opened = await openAnswer(keys, { method: 'POST', path: PATH, requestSign, status: res.statusCode ?? 0 }, parsed)
        const code = (JSON.parse(decoder.decode(opened)) as { code?: unknown }).code
        return res.statusCode === 200 && code === 200 ? 'ok' : `${res.statusCode}/${String(code)}`
      })().then(resolve, (e: unknown) => resolve(`unopened: ${e instanceof Error ? e.message : String(e)}`))
    })
    res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'response error'))
  }

  private async placeOnce(): Promise<string> {
    const { token, keys, idempotencyKey, payload, sign } = this.presealed.pop() ?? (await this.prepare())
    return new Promise((resolve) => {
      const req = http.request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            authorization: `Bearer ${token}`,
            'idempotency-key': idempotencyKey,
          },
        },
        (res) => (keys && sign ? this.sealedOutcome(res, keys, sign, resolve) : envelopeOutcome(res, resolve)),
      )
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'request error'))
      req.end(payload)
    })
  }

  /** `sockets` requests kept in flight for `ms`; the window ends with the last answer. */
  async window(ms: number): Promise<LoadWindow> {
    const t0 = performance.now()
    const until = t0 + ms
    const lat: number[] = []
    const other: Record<string, number> = {}
    const slot = async () => {
      while (performance.now() < until) {
        const s = performance.now()
        const r = await this.placeOnce()
        if (r === 'ok') lat.push(performance.now() - s)
        else other[r] = (other[r] ?? 0) + 1
      }
    }
    await Promise.all(Array.from({ length: this.shape.sockets }, slot))
    const elapsed = performance.now() - t0
    lat.sort((a, b) => a - b)
    return { ms: elapsed, ok: lat.length, other, p50Ms: lat[Math.floor(lat.length * 0.5)] ?? 0, p99Ms: lat[Math.floor(lat.length * 0.99)] ?? 0 }
  }

  close(): void {
    this.agent.destroy()
  }
}

async function single(input: LoadInput): Promise<void> {
  const placer = await Placer.of(input, input, '')
  await placer.preseal(input.presealed ?? 0)
  await placer.window(input.warmUpMs)
  const windows: LoadWindow[] = []
  for (let i = 0; i < input.windows; i++) windows.push(await placer.window(input.windowMs))
  placer.close()
  report({ type: 'done', windows })
}

async function paired(input: PairedInput): Promise<void> {
  const placers = await Promise.all(input.targets.map((t, i) => Placer.of(t, input, `t${i}`)))
  for (const p of placers) await p.preseal(input.presealed ?? 0)
  for (const p of placers) await p.window(input.warmUpMs)
  const cpu = () => (input.cpuOf === undefined ? null : threadsCpuNs(input.cpuOf))
  const windows: PairedWindow[] = []
  for (let pair = 0; pair < input.pairs; pair++) {
    for (const target of pair % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const before = cpu()
      const w = await placers[target]!.window(input.windowMs)
      const after = cpu()
      windows.push({ ...w, target, cpuNs: before === null || after === null ? null : after - before })
    }
  }
  for (const p of placers) p.close()
  report({ type: 'paired', windows })
}

const raw = (workerData ?? JSON.parse(process.env.NADI_LOAD_INPUT ?? 'null')) as LoadInput | PairedInput
;('targets' in raw ? paired(raw) : single(raw)).then(
  () => {
    if (!parentPort) process.disconnect?.()
  },
  (e: unknown) => report({ type: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
)
