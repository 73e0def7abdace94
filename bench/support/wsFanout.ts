// Worker thread of the "socket fan-out" row (bench/rows/exchange.ts): `clients` WebSocket clients,
// each subscribed to one stream, on their own event loop so that receiving does not share the
// server's. For every update frame it records Date.now() − data[0].ts (the server's clock at the
// flush; same machine, same clock) and checks that seqIds follow on (prevSeqId = the last seqId).
// Protocol with the parent: it answers 'ready' once every client has its snapshot, then, asked
// 'report', sends what it saw, closes its sockets and answers 'closed'.

import { parentPort, workerData } from 'node:worker_threads'
import WebSocket from 'ws'

export interface FanoutInput {
  url: string
  clients: number
  stream: string
  /** Connections opened at once while connecting. */
  connectConcurrency: number
}

export interface FanoutReport {
  /** Update frames received, all clients. */
  frames: number
  /** Per client: fewest and most update frames. */
  minPerClient: number
  maxPerClient: number
  /** Frames whose prevSeqId was not the client's last seqId (a lost or reordered frame). */
  seqGaps: number
  /** Clients whose socket closed or failed before the report. */
  dropped: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Update frames received with seqId in the parent's [fromSeq, toSeq] range, all clients. */
  inRange: number
}

export type FanoutToParent =
  | { type: 'ready'; connected: number; ms: number; seqIds: number[] }
  | { type: 'report'; report: FanoutReport }
  | { type: 'closed' }
  | { type: 'failed'; error: string }

export type FanoutFromParent = { type: 'report'; fromSeq: number; toSeq: number } | { type: 'close' }

interface BookFrame {
  arg?: { channel?: string }
  action?: 'snapshot' | 'update'
  data?: { ts: number; seqId: number; prevSeqId: number }[]
}

const input = workerData as FanoutInput

interface Client {
  ws: WebSocket
  lastSeq: number
  updates: number
  closed: boolean
}

const clients: Client[] = []
// Latency and seqId per update frame, in arrival order (ms are whole: both clocks are Date.now()).
let latency = new Float64Array(1 << 17)
let seqs = new Float64Array(1 << 17)
let frames = 0
let seqGaps = 0

function record(ms: number, seqId: number): void {
  if (frames === latency.length) {
    const grow = (a: Float64Array) => {
      const b = new Float64Array(a.length * 2)
      b.set(a)
      return b
    }
    latency = grow(latency)
    seqs = grow(seqs)
  }
  latency[frames] = ms
  seqs[frames] = seqId
  frames++
}

function connect(): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(input.url, { perMessageDeflate: false })
    const c: Client = { ws, lastSeq: -1, updates: 0, closed: false }
    let snapshot = false
    ws.on('open', () => ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: [input.stream], id: 1 })))
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return
      const now = Date.now()
      const f = JSON.parse(data.toString('utf8')) as BookFrame
      const d = f.data?.[0]
      if (f.arg?.channel !== 'books' || !d) return
      if (f.action === 'snapshot') {
        c.lastSeq = d.seqId
        if (!snapshot) {
          snapshot = true
          resolve(c)
        }
        return
      }
      if (d.prevSeqId !== c.lastSeq) seqGaps++
      c.lastSeq = d.seqId
      c.updates++
      record(now - d.ts, d.seqId)
    })
    ws.on('close', () => {
      c.closed = true
      if (!snapshot) reject(new Error('socket closed before its snapshot'))
    })
    ws.on('error', (e) => {
      c.closed = true
      if (!snapshot) reject(e)
    })
  })
}

async function connectAll(): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < input.clients) {
      next++
      clients.push(await connect())
    }
  }
  await Promise.all(Array.from({ length: Math.min(input.connectConcurrency, input.clients) }, lane))
}

function report(fromSeq: number, toSeq: number): FanoutReport {
  const lat: number[] = []
  let inRange = 0
  for (let i = 0; i < frames; i++) {
    const s = seqs[i] as number
    if (s < fromSeq || s > toSeq) continue
    inRange++
    lat.push(latency[i] as number)
  }
  lat.sort((a, b) => a - b)
  const per = clients.map((c) => c.updates)
  return {
    frames,
    minPerClient: per.length ? Math.min(...per) : 0,
    maxPerClient: per.length ? Math.max(...per) : 0,
    seqGaps,
    dropped: clients.filter((c) => c.closed).length,
    p50Ms: lat[Math.floor(lat.length * 0.5)] ?? 0,
    p99Ms: lat[Math.floor(lat.length * 0.99)] ?? 0,
    maxMs: lat[lat.length - 1] ?? 0,
    inRange,
  }
}

async function closeAll(): Promise<void> {
  await Promise.all(
    clients.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === WebSocket.CLOSED) return resolve()
          c.ws.once('close', () => resolve())
          c.ws.close()
          // A server that never answers the close handshake does not hold the bench up.
          setTimeout(() => {
            c.ws.terminate()
            resolve()
          }, 1000).unref()
        }),
    ),
  )
}

const post = (m: FanoutToParent) => parentPort?.postMessage(m)

parentPort?.on('message', (m: FanoutFromParent) => {
  if (m.type === 'report') post({ type: 'report', report: report(m.fromSeq, m.toSeq) })
  else void closeAll().then(() => post({ type: 'closed' }))
})

const t0 = performance.now()
connectAll().then(
  () => post({ type: 'ready', connected: clients.length, ms: performance.now() - t0, seqIds: [...new Set(clients.map((c) => c.lastSeq))] }),
  (e: unknown) => {
    post({ type: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) })
    void closeAll()
  },
)
