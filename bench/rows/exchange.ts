import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
// Before any audit: registers every frozen holder (open orders, open withdrawals).
import '../../server/ledger/holders.ts'
import type { Built } from '../../server/app.ts'
import { openDatabase } from '../../server/db/index.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
import { defaultFees, defaultSpec } from '../../server/exchange/engine/spec.ts'
import { Exchange, TradeRejected, type PlaceInput, type Publisher } from '../../server/exchange/exchange.ts'
import { audit, custody, trade, transfer } from '../../server/ledger/index.ts'
import { signInHttp } from '../../tests/integration/support/child.ts'
import { onPostgres, POSTGRES, SQLITE } from '../support/postgres.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'
import { startTradingServer } from '../support/tradingServer.ts'
import { xorshift } from '../support/loadGen.ts'
import type { LoadInput, LoadMessage, LoadWindow } from '../support/exchangeLoad.ts'
import type { FanoutFromParent, FanoutInput, FanoutReport, FanoutToParent } from '../support/wsFanout.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'exchange'

export const UNITS = 100_000_000n
const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`

/** A row whose value must reach at least `min` (support/types.ts has only atMost). */
export function atLeast(o: { name: string; value: number; unit: string; min: number; format: (v: number) => string; details?: unknown }): Row {
  return { name: o.name, measured: o.format(o.value), target: `≥ ${o.format(o.min)}`, pass: o.value >= o.min, value: o.value, unit: o.unit, limit: o.min, details: o.details }
}


const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

/**
 * A worker running a TypeScript file: Node 20 does not carry tsx's loader into worker threads
 * (neither through execArgv nor --import), so a small script registers it in the worker first.
 */
export function startTsWorker(file: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(file.href)}) })`
  return new Worker(boot, { eval: true, workerData })
}

/** The next message from a worker that satisfies `accept`; rejects on the worker's error or exit. */
export function nextMessage<T>(w: Worker, accept: (m: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      w.off('message', onMessage)
      w.off('error', onError)
      w.off('exit', onExit)
    }
    const onMessage = (m: T) => {
      if (!accept(m)) return
      done()
      resolve(m)
    }
    const onError = (e: Error) => {
      done()
      reject(e)
    }
    const onExit = (code: number) => {
      done()
      reject(new Error(`${what}: the worker exited (${code}) before answering`))
    }
    const timer = setTimeout(() => {
      done()
      reject(new Error(`${what}: no answer from the worker within ${timeoutMs} ms`))
    }, timeoutMs)
    w.on('message', onMessage)
    w.on('error', onError)
    w.on('exit', onExit)
  })
}

// ── 1. The service layer: Exchange on a file database ──────────────────────────────────────────

const SVC_TARGET_PER_S = 20_000
const SVC_TARGET_P99_MS = 20
const SVC_USERS = 500
const SVC_CALLERS = 1_000
/** Callers of the latency measurement: a load the service keeps up with. */
const SVC_LIGHT_CALLERS = 50
const SVC_WINDOW_MS = 2_000
const SVC_WARM_UP_MS = 500
const SVC_CANCEL_SHARE = 0.3
const SVC_CROSSING = 0.15
const SVC_NAME = `exchange: durable orders through the service layer (${SVC_CALLERS} callers, ack after commit)`

/** What publishing costs in the app (the hub serializes only for subscribers; here there are none). */
function countingPublisher(): Publisher & { frames: number } {
  const p = {
    frames: 0,
    publish() {
      p.frames++
    },
    publishToUser() {
      p.frames++
    },
  }
  return p
}

interface SvcWindow {
  ms: number
  accepted: number
  places: number
  cancels: number
  refused: Record<string, number>
  ackP50Ms: number
  ackP99Ms: number
}

/**
 * SVC_CALLERS callers, two per user, each awaiting its acknowledgement before its next command:
 * ~70 % limit places around a mid that walks (SVC_CROSSING of them priced through it, larger, so
 * they fill and settle through the ledger), ~30 % cancels of one of the caller's own open orders.
 */
function serviceLoad(ex: Exchange, userIds: number[], callers = SVC_CALLERS) {
  const rand = xorshift(0x2545f491)
  let mid = 2_500
  let placed = 0
  let serial = 0
  const open: number[][] = Array.from({ length: callers }, () => [])
  const nextPlace = (): PlaceInput => {
    if (++placed % 200 === 0) mid = Math.min(2_700, Math.max(2_300, mid + (rand() < 0.5 ? -1 : 1)))
    const side = rand() < 0.5 ? 'buy' : 'sell'
    const cross = rand() < SVC_CROSSING
    const off = cross ? -(1 + Math.floor(rand() * 3)) : 1 + Math.floor(rand() * 20)
    // ≥ 500 lots keeps price × lots over the 1 USDT minimum (1,000,000 tick·lots) at any price here.
    const lots = cross ? 1_000 + Math.floor(rand() * 1_000) : 500 + Math.floor(rand() * 500)
    return { side, type: 'limit', price: side === 'buy' ? mid - off : mid + off, lots, clientOrderId: `s${serial++}` }
  }

  return async function window(ms: number): Promise<SvcWindow> {
    const acks: number[] = []
    const w: SvcWindow = { ms: 0, accepted: 0, places: 0, cancels: 0, refused: {}, ackP50Ms: 0, ackP99Ms: 0 }
    const t0 = performance.now()
    const until = t0 + ms
    const caller = async (c: number) => {
      const user = userIds[c % userIds.length] as number
      const mine = open[c] as number[]
      while (performance.now() < until) {
        const s = performance.now()
        try {
          if (mine.length > 0 && rand() < SVC_CANCEL_SHARE) {
            const i = Math.floor(rand() * mine.length)
            const orderId = mine[i] as number
            mine[i] = mine[mine.length - 1] as number
            mine.pop()
            await ex.cancel(user, orderId)
            w.cancels++
          } else {
            const row = await ex.place(user, nextPlace())
            if (row.status === 'pending' || row.status === 'partially_filled') mine.push(Number(row.id))
            w.places++
          }
          w.accepted++
        } catch (e) {
          // A cancel of an order that has filled since is refused (unknown_order): counted, not fatal.
          if (!(e instanceof TradeRejected)) throw e
          w.refused[e.reason] = (w.refused[e.reason] ?? 0) + 1
        }
        acks.push(performance.now() - s)
      }
    }
    await Promise.all(Array.from({ length: callers }, (_, c) => caller(c)))
    w.ms = performance.now() - t0
    acks.sort((a, b) => a - b)
    w.ackP50Ms = percentile(acks, 0.5)
    w.ackP99Ms = percentile(acks, 0.99)
    return w
  }
}

/** `url`: a PostgreSQL database to measure instead of a temp SQLite file; `suffix` names the backend. */
async function serviceRows(ctx: BenchContext, suffix: string, url?: string): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-bench-exchange-svc-'))
  const conn = openDatabase(url ?? path.join(dir, 'exchange.sqlite'), { checkpointInWorker: true })
  const { sqlite } = conn
  try {
    await migrateDatabase(conn)
    const insertUser = statement<{ id: bigint }, [string, string]>('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0) RETURNING id')
    const userIds: number[] = []
    await conn.sql.transaction(async (tx) => {
      for (let i = 1; i <= SVC_USERS; i++) {
        const uid = Number((await tx.get(insertUser, `BX${i}`, `bench exchange ${i}`))!.id)
        userIds.push(uid)
        await transfer(tx, { ref: `seed:${uid}:USDT`, reason: 'deposit', from: custody('bsc'), to: trade(uid), asset: 'USDT', amount: 1_000_000n * UNITS })
        await transfer(tx, { ref: `seed:${uid}:NADI`, reason: 'deposit', from: custody('bsc'), to: trade(uid), asset: 'NADI', amount: 4_000_000n * UNITS })
      }
    })
    const publisher = countingPublisher()
    const ex = new Exchange({ conn, spec: defaultSpec, fees: defaultFees, now: Date.now, publisher })
    await ex.start()
    const windows: SvcWindow[] = []
    const lightWindows: SvcWindow[] = []
    let closed = false
    try {
      const window = serviceLoad(ex, userIds)
      await window(SVC_WARM_UP_MS)
      for (let i = 0; i < ctx.runs; i++) windows.push(await window(SVC_WINDOW_MS))
      // Latency is a figure at a load the service keeps up with: with 1,000 callers each waiting,
      // the mean wait is 1,000 ÷ throughput (Little's law), 50 ms even at 20,000/s.
      const light = serviceLoad(ex, userIds, SVC_LIGHT_CALLERS)
      for (let i = 0; i < ctx.runs; i++) lightWindows.push(await light(SVC_WINDOW_MS / 2))
      await ex.close()
      closed = true
    } finally {
      if (!closed) await ex.close().catch(() => {})
    }
    const report = await audit(conn.sql)
    if (!report.ok) throw new Error(`ledger audit failed after the exchange run: ${report.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    const count = async (text: string) => Number((await conn.sql.get(statement<{ n: bigint }>(text)))!.n)
    const totals = {
      orders: await count('SELECT COUNT(*) AS n FROM trade_orders'),
      openOrders: await count("SELECT COUNT(*) AS n FROM trade_orders WHERE status IN ('pending', 'partially_filled')"),
      fills: await count('SELECT COUNT(*) AS n FROM trade_fills'),
      publishedFrames: publisher.frames,
    }
    const rates = summarize(windows.map((w) => (w.accepted * 1000) / w.ms))
    const p99 = summarize(windows.map((w) => w.ackP99Ms))
    const lightP99 = summarize(lightWindows.map((w) => w.ackP99Ms))
    const lightRate = summarize(lightWindows.map((w) => (w.accepted * 1000) / w.ms))
    const all = windows.reduce((a, w) => ({ places: a.places + w.places, cancels: a.cancels + w.cancels, refused: a.refused + Object.values(w.refused).reduce((x, y) => x + y, 0) }), { places: 0, cancels: 0, refused: 0 })
    ctx.log(
      `exchange: service${suffix} ${windows.map((w) => `${perSecond((w.accepted * 1000) / w.ms)} (p99 ${millis(w.ackP99Ms)})`).join(', ')}; ${totals.fills} fills, ${totals.openOrders} open at the end; ${ex.batches} batches, ${ex.overlapped} begun behind an open one`,
    )
    const details = {
      windows,
      rate: rates,
      ackP99: p99,
      mix: { ...all, cancelShare: all.cancels / Math.max(1, all.places + all.cancels) },
      ...totals,
      users: SVC_USERS,
      callers: SVC_CALLERS,
      windowMs: SVC_WINDOW_MS,
      database: 'temp file, WAL, synchronous=NORMAL (openDatabase), group commit maxBatch 500, maxDelayMs 0',
      audit: report.counts,
      tmpdir: os.tmpdir(),
    }
    return [
      atLeast({
        name: `${SVC_NAME}${suffix}`,
        value: rates.median,
        unit: 'commands/s',
        min: SVC_TARGET_PER_S,
        format: perSecond,
        details,
      }),
      atMost({
        name: `  p99 acknowledgement, ${SVC_LIGHT_CALLERS} callers (${perSecond(lightRate.median)})${suffix}`,
        value: lightP99.median,
        unit: 'ms',
        max: SVC_TARGET_P99_MS,
        format: millis,
        details: { samples: lightP99.samples, p50: lightWindows.map((w) => w.ackP50Ms), rate: lightRate },
      }),
      info({ name: `  p99 acknowledgement, ${SVC_CALLERS} callers${suffix}`, value: p99.median, unit: 'ms', format: millis, details: { samples: p99.samples, p50: windows.map((w) => w.ackP50Ms) } }),
    ]
  } finally {
    await conn.close().catch(() => {})
    if (sqlite?.open) sqlite.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// ── 2 and 3. The real app ─────────────────────────────────────────────────────────────────────

const HTTP_TARGET_PER_S = 5_000
const HTTP_USERS = 50
const HTTP_SOCKETS = 64
const HTTP_WINDOW_MS = 3_000
const HTTP_WARM_UP_MS = 500
const MID_TICKS = 2_500
const HTTP_NAME = `exchange: HTTP order placement (${HTTP_SOCKETS} keep-alive sockets, ${HTTP_USERS} users, code 200 only)`

const WS_TARGET_P99_MS = 50
export const WS_CLIENTS = 1_000
const WS_UPDATES_PER_S = 20
const WS_DRIVE_MS = 5_000

interface AppUnderTest {
  built: Built
  origin: string
  users: { token: string; userId: number }[]
  close(): Promise<void>
}

/** `databaseUrl`: the app on that PostgreSQL database (NADI_DATABASE_URL) instead of its SQLite file. */
async function startApp(ctx: BenchContext, databaseUrl?: string): Promise<AppUnderTest> {
  const s = await startTradingServer(ctx, {
    label: 'exchange-app',
    traders: HTTP_USERS,
    // The 50 users rest thousands of orders each over the windows: the per-user limit of open orders
    // (200) would turn the later windows into refusals, and the fan-out's placer into an error.
    env: { NADI_DIST_DIR: ctx.dist, NADI_TRADE_MAX_OPEN_ORDERS: '100000', ...(databaseUrl ? { NADI_DATABASE_URL: databaseUrl } : {}) },
    // Over HTTP, as the app signs in: through Fastify's inject, in this process, the sign-ins left
    // every later request's objects outliving the young generation (docs/envelope.md, "What it costs").
    signIn: (b, _config, origin, wallet) => signInHttp(origin, wallet, b.rootInviteCode),
  })
  return { built: s.built, origin: s.origin, users: s.traders.map((t) => ({ token: t.session, userId: t.userId })), close: s.close }
}

async function httpRows(ctx: BenchContext, app: AppUnderTest, suffix: string): Promise<Row[]> {
  const input: LoadInput = {
    origin: app.origin,
    tokens: app.users.map((u) => u.token),
    sockets: HTTP_SOCKETS,
    warmUpMs: HTTP_WARM_UP_MS,
    windowMs: HTTP_WINDOW_MS,
    windows: ctx.runs,
    midTicks: MID_TICKS,
    crossing: 0.1,
  }
  const worker = startTsWorker(new URL('../support/exchangeLoad.ts', import.meta.url), input)
  let windows: LoadWindow[]
  try {
    const m = await nextMessage<LoadMessage>(worker, () => true, 30_000 + ctx.runs * (HTTP_WINDOW_MS + 2_000), 'HTTP load')
    if (m.type !== 'done') throw new Error(`HTTP load worker failed: ${m.type === 'failed' ? m.error : m.type}`)
    windows = m.windows
  } finally {
    await worker.terminate()
  }
  const rates = summarize(windows.map((w) => (w.ok * 1000) / w.ms))
  const other = windows.reduce<Record<string, number>>((acc, w) => {
    for (const [k, v] of Object.entries(w.other)) acc[k] = (acc[k] ?? 0) + v
    return acc
  }, {})
  if (rates.median === 0 && Object.keys(other).length > 0) throw new Error(`placeOrder never answered 200: ${JSON.stringify(other)}`)
  ctx.log(`exchange: HTTP${suffix} ${windows.map((w) => `${perSecond((w.ok * 1000) / w.ms)} (p99 ${millis(w.p99Ms)})`).join(', ')}${Object.keys(other).length ? `; not 200: ${JSON.stringify(other)}` : ''}`)
  return [
    atLeast({
      name: `${HTTP_NAME}${suffix}`,
      value: rates.median,
      unit: 'orders/s',
      min: HTTP_TARGET_PER_S,
      format: perSecond,
      details: {
        windows,
        rate: rates,
        notOk: other,
        p99Ms: summarize(windows.map((w) => w.p99Ms)),
        windowMs: HTTP_WINDOW_MS,
        request: 'POST /api/v1/trade/placeOrder, Bearer token, Idempotency-Key, limit orders around 0.25 (10 % crossing); load from a worker thread',
      },
    }),
  ]
}

/** Where the fan-out is measured: the exchange whose book changes, a funded user, the sockets' URL. */
export interface FanoutTarget {
  exchange: Exchange
  userId: number
  wsUrl: string
  /** After the row's name: what differs from the in-process row. */
  label: string
}

export async function fanoutRows(ctx: BenchContext, target: FanoutTarget): Promise<Row[]> {
  const { exchange, userId } = target
  const input: FanoutInput = { url: target.wsUrl, clients: WS_CLIENTS, stream: 'books:NADI-USDT', connectConcurrency: 50 }
  const worker = startTsWorker(new URL('../support/wsFanout.ts', import.meta.url), input)
  try {
    const ready = await nextMessage<FanoutToParent>(worker, (m) => m.type === 'ready' || m.type === 'failed', 30_000, 'fan-out connect')
    if (ready.type === 'failed') throw new Error(`fan-out worker failed: ${ready.error}`)
    if (ready.type !== 'ready') throw new Error('fan-out: unexpected message')
    ctx.log(`exchange: ${ready.connected} sockets subscribed in ${millis(ready.ms)}`)

    // One command at a time, each its own batch, each changing one level far under the mid: one update each.
    const seqBefore = exchange.bookSnapshot().seqId
    const interval = 1000 / WS_UPDATES_PER_S
    const steps = Math.round((WS_DRIVE_MS / 1000) * WS_UPDATES_PER_S)
    const t0 = performance.now()
    let resting: number | null = null
    let late = 0
    for (let i = 0; i < steps; i++) {
      const wait = t0 + i * interval - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      else if (wait < -interval) late++
      if (resting === null) {
        const row = await exchange.place(userId, { side: 'buy', type: 'limit', price: 1_000 + (i % 100), lots: 1_000, clientOrderId: `f${i}` })
        resting = Number(row.id)
      } else {
        await exchange.cancel(userId, resting)
        resting = null
      }
    }
    const driveMs = performance.now() - t0
    const seqAfter = exchange.bookSnapshot().seqId
    const updates = seqAfter - seqBefore
    // Frames of the last update are on their way; a lost one would not arrive later than this.
    await new Promise((r) => setTimeout(r, 1_000))
    worker.postMessage({ type: 'report', fromSeq: seqBefore + 1, toSeq: seqAfter } satisfies FanoutFromParent)
    const m = await nextMessage<FanoutToParent>(worker, (x) => x.type === 'report', 10_000, 'fan-out report')
    if (m.type !== 'report') throw new Error('fan-out: unexpected message')
    const r: FanoutReport = m.report
    const expected = updates * ready.connected
    ctx.log(`exchange: fan-out ${updates} updates × ${ready.connected} sockets: ${r.inRange}/${expected} frames, p50 ${millis(r.p50Ms)}, p99 ${millis(r.p99Ms)}, max ${millis(r.maxMs)}, seq gaps ${r.seqGaps}`)
    worker.postMessage({ type: 'close' } satisfies FanoutFromParent)
    await nextMessage<FanoutToParent>(worker, (x) => x.type === 'closed', 10_000, 'fan-out close').catch(() => null)
    const details = { ...r, updates, expected, connected: ready.connected, connectMs: ready.ms, driveMs, updatesPerSecond: (updates * 1000) / driveMs, lateSteps: late }
    return [
      atMost({
        name: `socket fan-out${target.label}: ${WS_CLIENTS.toLocaleString('en-US')} book subscribers at ${WS_UPDATES_PER_S} updates/s (p99 delivery)`,
        value: r.p99Ms,
        unit: 'ms',
        max: WS_TARGET_P99_MS,
        format: millis,
        details,
      }),
      {
        ...info({
          name: '  frames received / expected (subscribers × updates)',
          value: r.inRange,
          unit: 'frames',
          format: (v) => `${v.toLocaleString('en-US')} / ${expected.toLocaleString('en-US')}${r.seqGaps ? `, ${r.seqGaps} seq gaps` : ''}`,
          details: { expected, seqGaps: r.seqGaps, dropped: r.dropped, minPerClient: r.minPerClient, maxPerClient: r.maxPerClient },
        }),
        // A lost frame (or a broken sequence, or a dropped socket) is a failure, not context.
        ...(r.inRange !== expected || r.seqGaps > 0 || r.dropped > 0 ? { pass: false, target: 'none lost' } : {}),
      },
    ]
  } finally {
    await worker.terminate()
  }
}

/**
 * The NADI/USDT exchange end to end. (1) The service layer, server/exchange/exchange.ts, on a temp
 * file database: SVC_CALLERS callers each awaiting the group commit that makes its command durable,
 * ~70 % limit places around a walking mid (some crossing, settled through the ledger) and ~30 %
 * cancels; the ledger is audited at the end. (2) The real app on loopback, POST placeOrder from a
 * worker thread through keep-alive sockets, signed-in users, Idempotency-Key on every request.
 * (3) The same app's books stream to WS_CLIENTS sockets held by another worker, while this thread
 * drives WS_UPDATES_PER_S book changes a second through the exchange; latency is the receiver's
 * Date.now() − the server's flush time, and every frame is counted against subscribers × updates.
 */
/** The app's HTTP rows, then the ledger audited; `fanout` adds the socket rows (SQLite only). */
async function appRows(ctx: BenchContext, suffix: string, databaseUrl?: string, fanout = false): Promise<Row[]> {
  const app = await startApp(ctx, databaseUrl)
  try {
    const rows = await httpRows(ctx, app, suffix)
    if (fanout) {
      const owner = app.users[0]
      if (!owner) throw new Error('fan-out: no signed-in user')
      rows.push(...(await fanoutRows(ctx, { exchange: app.built.exchange!, userId: owner.userId, wsUrl: `${app.origin.replace(/^http/, 'ws')}/ws`, label: '' })))
    }
    const report = await audit(app.built.ctx.sql)
    if (!report.ok) throw new Error(`ledger audit failed after the HTTP run: ${report.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    return rows
  } finally {
    await app.close()
  }
}

/**
 * The service and HTTP rows are measured on both backends, each PostgreSQL row printed under its
 * SQLite one; the socket fan-out (no database in its path) on SQLite only.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const svc = await serviceRows(ctx, SQLITE)
  const svcPg = await onPostgres(ctx, SVC_NAME, (url) => serviceRows(ctx, POSTGRES, url))
  const [httpRow, ...fanout] = await appRows(ctx, SQLITE, undefined, true)
  const httpPg = await onPostgres(ctx, HTTP_NAME, (url) => appRows(ctx, POSTGRES, url))
  return [...svc, ...svcPg, ...(httpRow ? [httpRow] : []), ...httpPg, ...fanout]
}
