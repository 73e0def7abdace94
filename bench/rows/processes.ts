// Several processes on one PostgreSQL database (issue 19, docs/processes.md), measured with the real
// role processes as `npm run serve -- --role …` starts them (the esbuild bundle of the tests, which
// starts in ~1 s instead of tsx's ~3 s): one `engine` leader, one `jobs`, one or two `api`.
//
// 1. Requests/s through one versus two api processes, from one load generator in this process that
//    spreads its requests round-robin over them itself (no balancer in the path): an authenticated
//    read mix every api answers alone, then order placement, which every api hands to the one engine.
//    Windows alternate between one and two api processes, so the machine's noise hits both alike.
// 2. Engine failover: the leader killed with -9 under light order load; the time from the kill to
//    the first order answered 200 whose id is past every id the dead leader wrote. Repeated, a fresh
//    standby started each time.
// 3. What an order pays for crossing processes: sequential resting orders through api + engine and
//    through one `--role all` server on a second database of the same cluster, in alternating blocks.

import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { Wallet } from 'ethers'
import '../../server/ledger/holders.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit } from '../../server/ledger/index.ts'
import { fundTraders, killChildren, killGroup, placeHttp, signInHttp, startChild, type Child } from '../../tests/integration/support/child.ts'
import { setup as bundleServer } from '../../tests/support/serverBundle.ts'
import { onPostgres } from '../support/postgres.ts'
import { millis, seconds, summarize } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'
import { envelopeOutcome, xorshift } from '../support/loadGen.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'processes'

const CODE = 'BENCHP01'
const INST = 'NADI-USDT'
const HEALTH = '/api/v1/common/health'
const READY = '/api/v1/trade/market'
const USERS = 40
const SOCKETS = 32
const WINDOW_MS = 2_500
/** Per side before the windows: the first requests of a fresh process run unoptimized code. */
const WARM_UP_MS = 1_500
/** Window pairs (one api, two apis) per mix; BENCH_RUNS, at most 5 to keep the row near 3 minutes. */
const MAX_PAIRS = 5
const FAILOVERS = 3
const FAILOVER_TARGET_MS = 5_000
/** Sequential orders per path for the latency rows, after LATENCY_WARM_UP unmeasured ones. */
const LATENCY_ORDERS = 300
const LATENCY_WARM_UP = 20
const LATENCY_BLOCK = 25
const MID_TICKS = 2_500

export const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`
const signed = (ms: number) => (ms < 0 ? `−${millis(-ms)}` : `+${millis(ms)}`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

async function until<T>(fn: () => T | Promise<T>, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(25)
  }
}

async function leads(c: Child): Promise<boolean> {
  try {
    return ((await (await fetch(`${c.base}${HEALTH}`)).json()) as { data: { leading: boolean } }).data.leading
  } catch {
    return false
  }
}

// ── The load generator ────────────────────────────────────────────────────────────────────────

export interface Request {
  method: 'GET' | 'POST'
  path: string
  token: string
  body?: string
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

const agents = new Map<string, http.Agent>()
const agentOf = (origin: string) => {
  let a = agents.get(origin)
  if (!a) agents.set(origin, (a = new http.Agent({ keepAlive: true, maxSockets: SOCKETS })))
  return a
}

function send(origin: string, r: Request): Promise<string> {
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${r.token}` }
    if (r.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body), 'idempotency-key': crypto.randomUUID() })
    const req = http.request(new URL(r.path, origin), { method: r.method, agent: agentOf(origin), headers }, (res) => envelopeOutcome(res, resolve))
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'request error'))
    req.end(r.body)
  })
}

/** SOCKETS requests kept in flight for `ms`, each next one to the next origin in turn. */
export async function drive(origins: string[], next: () => Request, ms: number): Promise<LoadWindow> {
  const t0 = performance.now()
  const end = t0 + ms
  const lat: number[] = []
  const other: Record<string, number> = {}
  let turn = 0
  const slot = async () => {
    while (performance.now() < end) {
      const origin = origins[turn++ % origins.length] as string
      const s = performance.now()
      const r = await send(origin, next())
      if (r === 'ok') lat.push(performance.now() - s)
      else other[r] = (other[r] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: SOCKETS }, slot))
  lat.sort((a, b) => a - b)
  return { ms: performance.now() - t0, ok: lat.length, other, p50Ms: percentile(lat, 0.5), p99Ms: percentile(lat, 0.99) }
}


/** The read mix: the signed-in user's info, the ticker and the depth, in equal shares. */
export function readMix(tokens: string[]): () => Request {
  const rand = xorshift(0x1b873593)
  const paths = ['/api/v1/user/info', `/api/v1/trade/ticker?inst_id=${INST}`, `/api/v1/trade/depth?inst_id=${INST}&size=20`]
  return () => ({ method: 'GET', path: paths[Math.floor(rand() * paths.length)] as string, token: tokens[Math.floor(rand() * tokens.length)] as string })
}

/** Limit orders around 0.25 USDT as the exchange row places them: resting 1–20 ticks off the mid, 10 % crossing it. */
export function orderMix(tokens: string[], tag: string): () => Request {
  const rand = xorshift(0x2545f491)
  let serial = 0
  return () => {
    const side = rand() < 0.5 ? 'buy' : 'sell'
    const off = rand() < 0.1 ? -(1 + Math.floor(rand() * 3)) : 1 + Math.floor(rand() * 20)
    const ticks = side === 'buy' ? MID_TICKS - off : MID_TICKS + off
    // ≥ 500 lots (5 NADI) keeps price × size above the 1 USDT minimum.
    const lots = 500 + Math.floor(rand() * 500)
    const body = JSON.stringify({ inst_id: INST, side, type: 'limit', price: (ticks / 10_000).toFixed(4), size: (lots / 100).toFixed(2), client_order_id: `${tag}${serial++}` })
    return { method: 'POST', path: '/api/v1/trade/placeOrder', token: tokens[Math.floor(rand() * tokens.length)] as string, body }
  }
}

/** Alternating windows through one api process and through both, after a warm-up of each. */
/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100
  } catch {
    return 0
  }
}

/** The PostgreSQL server's processes: every backend is a process of its own. */
function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres'
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Who used the two cores during a window: each process's CPU as a share of one core. */
export type CpuShares = Record<string, number>

async function withCpu(procs: { name: string; pid: number }[], run: () => Promise<LoadWindow>): Promise<{ w: LoadWindow; cpu: CpuShares }> {
  const pgBefore = new Map(postgresPids().map((p) => [p, cpuMs(p)]))
  const before = procs.map((p) => cpuMs(p.pid))
  const self = process.cpuUsage()
  const t0 = performance.now()
  const w = await run()
  const ms = performance.now() - t0
  const cpu: CpuShares = {}
  procs.forEach((p, i) => (cpu[p.name] = (cpuMs(p.pid) - before[i]!) / ms))
  cpu.postgres = postgresPids().reduce((sum, p) => sum + (cpuMs(p) - (pgBefore.get(p) ?? 0)), 0) / ms
  const used = process.cpuUsage(self)
  cpu['load (this process)'] = (used.user + used.system) / 1000 / ms
  return { w, cpu }
}

async function scaling(ctx: BenchContext, apis: [Child, Child], next: () => Request, label: string, procs: { name: string; pid: number }[]) {
  const one = [apis[0].base]
  const two = apis.map((a) => a.base)
  await drive(one, next, WARM_UP_MS)
  await drive(two, next, WARM_UP_MS)
  const w1: LoadWindow[] = []
  const w2: LoadWindow[] = []
  const c1: CpuShares[] = []
  const c2: CpuShares[] = []
  for (let i = 0; i < Math.min(ctx.runs, MAX_PAIRS); i++) {
    const a = await withCpu(procs, () => drive(one, next, WINDOW_MS))
    w1.push(a.w)
    c1.push(a.cpu)
    const b = await withCpu(procs, () => drive(two, next, WINDOW_MS))
    w2.push(b.w)
    c2.push(b.cpu)
  }
  const rate = (ws: LoadWindow[]) => summarize(ws.map((w) => (w.ok * 1000) / w.ms))
  const r1 = rate(w1)
  const r2 = rate(w2)
  const notOk = [...w1, ...w2].reduce<Record<string, number>>((acc, w) => {
    for (const [k, v] of Object.entries(w.other)) acc[k] = (acc[k] ?? 0) + v
    return acc
  }, {})
  if (r1.median === 0 || r2.median === 0) throw new Error(`${label}: no request answered 200: ${JSON.stringify(notOk)}`)
  ctx.log(`processes: ${label} 1 api ${w1.map((w) => perSecond((w.ok * 1000) / w.ms)).join(', ')}; 2 apis ${w2.map((w) => perSecond((w.ok * 1000) / w.ms)).join(', ')}${Object.keys(notOk).length ? `; not 200: ${JSON.stringify(notOk)}` : ''}`)
  return { r1, r2, w1, w2, c1, c2, notOk }
}

/** All processes' median shares together: how much of the two cores the windows used. */
function cpuTotal(cs: CpuShares[]): number {
  return Object.keys(cs[0] ?? {}).reduce((sum, n) => sum + summarize(cs.map((c) => c[n] ?? 0)).median, 0)
}

/** The median share of each process over the windows, as "api A 0.81, …" (1.00 = one core). */
function cpuLine(cs: CpuShares[]): string {
  const names = Object.keys(cs[0] ?? {})
  return names.map((n) => `${n} ${summarize(cs.map((c) => c[n] ?? 0)).median.toFixed(2)}`).join(', ')
}

function scalingRows(name: string, s: Awaited<ReturnType<typeof scaling>>, request: string): Row[] {
  // Each pair's windows are adjacent in time: their ratio cancels the drift of the machine's other work.
  const ratio = summarize(s.w1.map((w, i) => (s.w2[i]!.ok / s.w2[i]!.ms) / (w.ok / w.ms)))
  const details = (ws: LoadWindow[], r: ReturnType<typeof summarize>) => ({ rate: r, windows: ws, windowMs: WINDOW_MS, sockets: SOCKETS, request })
  return [
    info({ name: `${name}, 1 api process`, value: s.r1.median, unit: 'requests/s', format: perSecond, details: details(s.w1, s.r1) }),
    info({ name: `${name}, 2 api processes (client round-robin, no balancer)`, value: s.r2.median, unit: 'requests/s', format: perSecond, details: details(s.w2, s.r2) }),
    info({ name: '  CPU, in cores, while 1 api process served', value: cpuTotal(s.c1), unit: 'cores', format: () => cpuLine(s.c1), details: { windows: s.c1 } }),
    info({ name: '  CPU, in cores, while 2 api processes served', value: cpuTotal(s.c2), unit: 'cores', format: () => cpuLine(s.c2), details: { windows: s.c2 } }),
    {
      name: `  ratio 2 ÷ 1 api processes (median of ${ratio.n} adjacent window pairs)`,
      measured: `${ratio.median.toFixed(2)}× (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`,
      target: 'expect ≤ 2× (2 cores, engine + PostgreSQL on them too)',
      pass: null,
      value: ratio.median,
      unit: '×',
      details: { pairs: ratio, ofMedians: s.r2.median / s.r1.median, notOk: s.notOk },
    },
  ]
}

// ── Failover ──────────────────────────────────────────────────────────────────────────────────

interface Failover {
  /** Kill → the first 200 for an order the new leader wrote. */
  ms: number
  /** Kill → the standby's health says it leads (polled every 25 ms). */
  ledMs: number
  /** Orders answered "trading is paused" meanwhile, and other non-200 answers. */
  paused: number
  other: Record<string, number>
}

/**
 * Two sequential clients place resting orders through `api` (a pause of 20 ms between orders); the
 * leader is killed with -9. The dead leader's last id is read from the database once its process
 * has exited (a commit it had sent finishes meanwhile; the standby cannot lead that fast, since it
 * asks for the lock once a second and then rebuilds the book): the new leader's orders are those past it.
 */
async function failover(api: Child, tokens: string[], leader: Child, standby: Child, maxId: () => Promise<number>, round: number): Promise<Failover> {
  const answers: { at: number; id: number }[] = []
  const other: Record<string, number> = {}
  let paused = 0
  let stop = false
  let serial = 0
  const client = async (k: number) => {
    while (!stop) {
      const i = serial++
      const res = await placeHttp(api.base, tokens[(k + i) % tokens.length] as string, { side: 'buy', price: (0.1 + (i % 50) / 1000).toFixed(3), size: '10', client_order_id: `f${round}x${i}` })
      if (res?.code === 200) answers.push({ at: performance.now(), id: res.data.id })
      else if (res?.code === 503) paused++
      else other[String(res?.code ?? 'no answer')] = (other[String(res?.code ?? 'no answer')] ?? 0) + 1
      await sleep(20)
    }
  }
  const load = [client(0), client(1)]
  try {
    await until(() => answers.length >= 20, 'orders before the kill')
    const before = Math.max(...answers.map((a) => a.id))
    killGroup(leader.proc)
    const killedAt = performance.now()
    let ledAt = 0
    const led = until(async () => (await leads(standby)) && (ledAt = performance.now()), 'the standby to lead', 15_000)
    // Awaited below; a failure before that must not surface as an unhandled rejection.
    led.catch(() => {})
    await leader.exited
    await sleep(20)
    const last = Math.max(before, await maxId())
    const first = await until(() => answers.find((a) => a.at > killedAt && a.id > last), 'an order accepted by the new leader', 20_000)
    await led
    return { ms: first.at - killedAt, ledMs: ledAt - killedAt, paused, other }
  } finally {
    stop = true
    await Promise.all(load)
  }
}

// ── Latency ───────────────────────────────────────────────────────────────────────────────────

/** One path's latency: one client, one order at a time, resting buys far under the mid, so none crosses. */
function sequential(base: string, token: string, tag: string) {
  const samples: number[] = []
  let serial = 0
  const place = async (n: number, keep: boolean) => {
    for (let k = 0; k < n; k++) {
      const i = serial++
      const s = performance.now()
      const res = await placeHttp(base, token, { side: 'buy', price: (0.05 + (i % 100) / 10_000).toFixed(4), size: '20', client_order_id: `${tag}${i}` })
      if (res?.code !== 200) throw new Error(`sequential order ${i} through ${base} answered ${JSON.stringify(res)}`)
      if (keep) samples.push(performance.now() - s)
    }
  }
  return { place, samples }
}

/** Both paths in alternating blocks, so that the machine's other work weighs on them alike. */
async function latencies(paths: { base: string; token: string; tag: string }[]) {
  const runs = paths.map((p) => sequential(p.base, p.token, p.tag))
  for (const r of runs) await r.place(LATENCY_WARM_UP, false)
  for (let b = 0; b < LATENCY_ORDERS / LATENCY_BLOCK; b++) for (const r of runs) await r.place(LATENCY_BLOCK, true)
  return runs.map(({ samples }) => {
    const sorted = [...samples].sort((x, y) => x - y)
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? 0, n: sorted.length }
  })
}

// ── The row ───────────────────────────────────────────────────────────────────────────────────

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  await bundleServer()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-bench-processes-'))
  const conn = openDatabase(url)
  const count = async (sql: string) => {
    const row = await conn.sql.get(statement<Record<string, unknown>>(sql))
    return Number((row && Object.values(row)[0]) ?? 0)
  }
  // Throughput, not the per-user limit of open orders (200): the windows rest thousands per user.
  const env = { NADI_DATABASE_URL: url, NADI_ROOT_INVITE_CODE: CODE, NADI_LOGIN_PER_IP: '100000', NADI_TRADE_MAX_OPEN_ORDERS: '100000' }
  const started: { name: string; child: Child }[] = []
  const start = async (name: string, args: string[], ready: string, withEnv: Record<string, string> = env) => {
    const child = await startChild(dir, withEnv, ready, args)
    started.push({ name, child })
    return child
  }
  const role = (r: string, ready: string) => start(r, ['--role', r], ready)
  try {
    const t0 = Date.now()
    // The engine first: it migrates and seeds, then the others find everything there.
    let leader = await role('engine', HEALTH)
    await until(() => leads(leader), 'the first engine to lead')
    const [a1, a2] = await Promise.all([role('api', READY), role('api', READY), role('jobs', HEALTH)])
    ctx.log(`processes: engine, 2 api, jobs started in ${seconds(Date.now() - t0)}`)
    const wallets = Array.from({ length: USERS }, () => Wallet.createRandom())
    const tokens: string[] = []
    for (let i = 0; i < wallets.length; i += 8) tokens.push(...(await Promise.all(wallets.slice(i, i + 8).map((w) => signInHttp(a1.base, w, CODE)))))
    await fundTraders(url, wallets.map((w) => w.address), 'bench-processes')

    const procs = [
      { name: 'api A', pid: a1.proc.pid! },
      { name: 'api B', pid: a2.proc.pid! },
      { name: 'engine', pid: leader.proc.pid! },
      { name: 'jobs', pid: started.find((s) => s.name === 'jobs')!.child.proc.pid! },
    ]
    const reads = await scaling(ctx, [a1, a2], readMix(tokens), 'reads', procs)
    const orders = await scaling(ctx, [a1, a2], orderMix(tokens, 'o'), 'orders', procs)

    // A server writing alone needs a database of its own: its writer lock is exclusive, the roles' shared.
    const allUrl = (await ctx.postgres()).database('processes_all')
    const all = await start('all', [], READY, { ...env, NADI_DATABASE_URL: allUrl })
    const alone = Wallet.createRandom()
    const aloneToken = await signInHttp(all.base, alone, CODE)
    await fundTraders(allUrl, [alone.address], 'bench-processes')
    const [viaRoles, viaAll] = await latencies([
      { base: a1.base, token: tokens[0]!, tag: 'lr' },
      { base: all.base, token: aloneToken, tag: 'la' },
    ])
    if (!viaRoles || !viaAll) throw new Error('latency: a path measured nothing')
    ctx.log(`processes: sequential orders p50/p99 through api + engine ${millis(viaRoles.p50)}/${millis(viaRoles.p99)}, through --role all ${millis(viaAll.p50)}/${millis(viaAll.p99)}`)

    const failovers: Failover[] = []
    const maxId = () => count('SELECT MAX(id) FROM trade_orders')
    for (let round = 0; round < FAILOVERS; round++) {
      const standby = await role('engine', HEALTH)
      if (await leads(standby)) throw new Error('a fresh engine leads beside a living leader')
      const f = await failover(a1, tokens, leader, standby, maxId, round)
      ctx.log(`processes: failover ${round + 1}: first order of the new leader ${seconds(f.ms)} after the kill (it led after ${seconds(f.ledMs)}; ${f.paused} answered paused)`)
      failovers.push(f)
      leader = standby
    }

    // Stopped in order before the audits, so that nothing is written meanwhile.
    const everyone = started.map((s) => s.child).filter((c) => c.proc.exitCode === null && c.proc.signalCode === null)
    for (const c of everyone) c.proc.kill('SIGTERM')
    await Promise.all(everyone.map((c) => c.exited))
    const allConn = openDatabase(allUrl)
    try {
      const r = await audit(allConn.sql)
      if (!r.ok) throw new Error(`ledger audit failed on the --role all database: ${r.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    } finally {
      await allConn.close()
    }

    const left = await count("SELECT COUNT(*) FROM trade_commands WHERE status IN ('pending', 'taken')")
    const report = await audit(conn.sql)
    if (!report.ok) throw new Error(`ledger audit failed after the processes run: ${report.violations.slice(0, 3).map((v) => v.message).join('; ')}`)
    if (left > 0) throw new Error(`${left} trading commands were left unanswered`)

    const fo = summarize(failovers.map((f) => f.ms))
    const note = 'load spread round-robin over the api processes by the client, no balancer; 2 cores shared with the engine, jobs, PostgreSQL and the load generator'
    return [
      ...scalingRows(`processes: HTTP reads (user/info, ticker, depth; ${SOCKETS} keep-alive sockets)`, reads, `GET user/info | trade/ticker | trade/depth, ${USERS} signed-in users; ${note}`),
      ...scalingRows(`processes: HTTP order placement (${SOCKETS} sockets, ${USERS} funded users)`, orders, `POST trade/placeOrder with client_order_id and Idempotency-Key, limit orders around 0.25 (10 % crossing); ${note}`),
      atMost({
        name: `processes: engine failover, kill -9 of the leader → first order accepted by the new leader (${FAILOVERS} kills)`,
        value: fo.max,
        unit: 'ms',
        max: FAILOVER_TARGET_MS,
        format: (v) => seconds(v),
        target: `≤ ${seconds(FAILOVER_TARGET_MS)} each`,
        details: { failovers, summary: fo, load: '2 sequential clients, resting orders, 20 ms apart, through one api process' },
      }),
      { ...info({ name: '  median of the kills', value: fo.median, unit: 'ms', format: seconds }), details: { ledMs: failovers.map((f) => f.ledMs) } },
      info({ name: `processes: order latency through api + engine (1 client, sequential, ${LATENCY_ORDERS} resting orders)`, value: viaRoles.p99, unit: 'ms', format: (v) => `p99 ${millis(v)} (p50 ${millis(viaRoles.p50)})`, details: viaRoles }),
      info({ name: '  the same through one --role all server (PostgreSQL, same cluster, alternating blocks)', value: viaAll.p99, unit: 'ms', format: (v) => `p99 ${millis(v)} (p50 ${millis(viaAll.p50)})`, details: viaAll }),
      info({
        name: '  extra for crossing processes',
        value: viaRoles.p50 - viaAll.p50,
        unit: 'ms',
        format: (v) => `p50 ${signed(v)}, p99 ${signed(viaRoles.p99 - viaAll.p99)}`,
        details: { p50Ms: viaRoles.p50 - viaAll.p50, p99Ms: viaRoles.p99 - viaAll.p99 },
      }),
    ]
  } finally {
    // What the processes logged at error level (pino's 50+), for whoever reads a surprising figure.
    for (const { name, child } of started) {
      const errors = child.output().split('\n').filter((l) => /"level":(5|6)\d/.test(l))
      if (errors.length) ctx.log(`processes: ${name} pid ${child.proc.pid} logged ${errors.length} errors, first: ${errors[0]!.slice(0, 400)}`)
    }
    killChildren()
    for (const a of agents.values()) a.destroy()
    agents.clear()
    await conn.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  return onPostgres(ctx, 'processes', (url) => measure(ctx, url))
}
