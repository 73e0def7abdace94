// Issue 10's rows: the catalog under 200 concurrent readers, 1,000 buyers racing for 100 units of
// stock, and the release job posting 1,000,000 due instalments (then a second run of the same day).
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Agent, request } from 'node:http'
import { Worker } from 'node:worker_threads'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { openSqliteFile } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { audit, custody, fund, RELEASES, transfer } from '../../server/ledger/index.ts'
import { releaseDue } from '../../server/modules/release/service.ts'
import { dayOf, DAY_MS } from '../../server/modules/release/schedule.ts'
import { onPostgres, POSTGRES, SQLITE } from '../support/postgres.ts'
import { millis, seconds } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'commerce'

const READERS = 200
const READ_WINDOW_MS = 3_000
/** A reader's mean pause between two pages. */
const THINK_MS = 200
const BUYERS = 1_000
const STOCK = 100
const PLANS = 1_000_000
const PLAN_USERS = 100_000

/** The app, demo content seeded, on a temp data folder; `databaseUrl`: its books on that PostgreSQL database. */
async function withServer<T>(root: string, fn: (origin: string, built: Awaited<ReturnType<typeof buildApp>>) => Promise<T>, databaseUrl?: string): Promise<T> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-commerce-'))
  const env = { NADI_ENV: 'test', NADI_DATA_DIR: dataDir, NADI_DEMO: '1', NADI_DEMO_MARKET: '0', NADI_GOLD_WALK_MS: '0', LOG_LEVEL: 'silent', PORT: '0' }
  const config = loadConfig(databaseUrl ? { ...env, NADI_DATABASE_URL: databaseUrl } : env, root)
  const built = await buildApp({ config })
  try {
    const address = await built.app.listen({ port: 0, host: '127.0.0.1' })
    return await fn(new URL(address).origin, built)
  } finally {
    await built.app.close()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

function call(agent: Agent, origin: string, method: string, pathname: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: string }> {
  const url = new URL(pathname, origin)
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number

/** Users with a live session each, written straight into the database (the sign-in has its own rows). */
async function usersWithSessions(built: Awaited<ReturnType<typeof buildApp>>, n: number, fundUsdt = 0n): Promise<string[]> {
  const { sql } = built.ctx
  const now = built.ctx.now()
  const root = (await sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE is_root = 1')))!.id
  const tokens: string[] = []
  await sql.transaction(async (tx) => {
    for (let i = 0; i < n; i++) {
      const u = (await tx.get(
        statement<{ id: bigint }>('INSERT INTO users (wallet_address, code, name, inviter_id, depth, created_at) VALUES (?, ?, ?, ?, 1, ?) RETURNING id'),
        `0x${crypto.randomBytes(20).toString('hex')}`,
        `B${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
        `bench ${i}`,
        root,
        now,
      ))!
      if (fundUsdt > 0n) {
        await transfer(tx, { ref: `bench:buyer:${u.id}`, reason: 'deposit', from: custody('bsc'), to: fund(u.id), asset: 'USDT', amount: fundUsdt })
      }
      const token = crypto.randomBytes(32).toString('base64url')
      await tx.run(
        statement('INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)'),
        crypto.createHash('sha256').update(token).digest('hex'),
        u.id,
        now,
        now,
        now + 3_600_000,
      )
      tokens.push(token)
    }
  })
  return tokens
}

/**
 * The readers run in a worker thread (their own event loop, the machine's other core), so the
 * server's loop serves and nothing else: each keeps one keep-alive connection and asks for a page
 * of one of the three catalogs, again as soon as the answer is in.
 */
const READERS_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { origin, readers, windowMs, warmUpMs, thinkMs } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: readers })
const get = (path) => new Promise((resolve, reject) => {
  const req = http.request(new URL(path, origin), { agent, headers: { lang: 'EN' } }, (res) => {
    res.resume()
    res.on('end', () => resolve(res.statusCode))
  })
  req.on('error', reject)
  req.end()
})
const samples = []
let bad = 0
const t0 = Date.now()
Promise.all(Array.from({ length: readers }, async (_, i) => {
  const path = '/api/v1/' + ['machine', 'gold', 'car'][i % 3] + '/goodsList?page=1&page_size=10'
  while (Date.now() - t0 < warmUpMs + windowMs) {
    const s = performance.now()
    const status = await get(path)
    const ms = performance.now() - s
    if (status !== 200) bad++
    if (Date.now() - t0 > warmUpMs) samples.push(ms)
    if (thinkMs > 0) await new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs))
  }
})).then(() => { agent.destroy(); parentPort.postMessage({ samples, bad }) }, (e) => parentPort.postMessage({ error: String(e) }))
`

async function readCatalog(origin: string, thinkMs: number): Promise<{ samples: number[]; perSecond: number }> {
  const worker = new Worker(READERS_WORKER, { eval: true, workerData: { origin, readers: READERS, windowMs: READ_WINDOW_MS, warmUpMs: 500, thinkMs } })
  const result = await new Promise<{ samples: number[]; bad: number; error?: string }>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  await worker.terminate()
  if (result.error) throw new Error(result.error)
  if (result.bad) throw new Error(`${result.bad} catalog reads did not answer 200`)
  return { samples: result.samples.sort((a, b) => a - b), perSecond: result.samples.length / (READ_WINDOW_MS / 1000) }
}

/**
 * 200 readers browsing (a page, a pause of 0–400 ms, the next page: about 1,000 requests a second
 * offered), p99 of the answers; and the same 200 asking back to back with no pause, the server's
 * ceiling, for context (its latency is then 200 ÷ throughput by Little's law, whatever the code).
 */
async function catalogReaders(ctx: BenchContext, suffix: string, databaseUrl?: string): Promise<Row[]> {
  return withServer(ctx.root, async (origin) => {
    const browsing = await readCatalog(origin, THINK_MS)
    const flat = await readCatalog(origin, 0)
    const p99 = pct(browsing.samples, 99)
    return [
      atMost({
        name: `catalog list, ${READERS} concurrent readers browsing (${Math.round(browsing.perSecond).toLocaleString('en-US')} req/s): p99 (p50 ${millis(pct(browsing.samples, 50))})${suffix}`,
        value: p99,
        unit: 'ms',
        max: 20,
        format: millis,
        details: { requests: browsing.samples.length, p50: pct(browsing.samples, 50), p99, max: browsing.samples.at(-1) },
      }),
      info({
        name: `catalog list, ${READERS} readers back to back: throughput (p50 ${millis(pct(flat.samples, 50))}, p99 ${millis(pct(flat.samples, 99))})${suffix}`,
        value: flat.perSecond,
        unit: 'req/s',
        format: (v) => `${Math.round(v).toLocaleString('en-US')}/s`,
      }),
    ]
  }, databaseUrl)
}

async function stockRace(ctx: BenchContext): Promise<Row> {
  return withServer(ctx.root, async (origin, built) => {
    const { sql } = built.ctx
    const car = (await sql.get(
      statement<{ spec: bigint; goods: bigint }>("SELECT s.id AS spec, p.id AS goods FROM product_specs s JOIN products p ON p.id = s.product_id WHERE p.area = 'car' ORDER BY s.id LIMIT 1"),
    ))!
    await sql.run(statement('UPDATE product_specs SET stock = ? WHERE id = ?'), STOCK, car.spec)
    // Buyers who can pay now: unpaid holds of those who cannot take only a share of the stock (the
    // hold rules, server/modules/orders/holds.ts), and this row races for the whole of it.
    const tokens = await usersWithSessions(built, BUYERS, 10n ** 15n)
    const agent = new Agent({ keepAlive: true, maxSockets: BUYERS })
    const t0 = performance.now()
    const results = await Promise.all(tokens.map((token) => call(agent, origin, 'POST', '/api/v1/preOrder/preOrder', { token, body: { area: 'car', goods_id: Number(car.goods), spec_id: Number(car.spec), quantity: 1 } })))
    const ms = performance.now() - t0
    agent.destroy()
    const orders = results.filter((r) => r.status === 200).length
    const refused = results.filter((r) => r.status === 409).length
    const stock = Number((await sql.get(statement<{ stock: bigint }>('SELECT stock FROM product_specs WHERE id = ?'), car.spec))!.stock)
    const made = Number((await sql.get(statement<{ n: bigint }>("SELECT count(*) AS n FROM pay_orders WHERE type = 'car'")))!.n)
    const oversold = Math.max(0, made - STOCK)
    return {
      name: `${BUYERS.toLocaleString('en-US')} buyers racing for ${STOCK} units: orders made / oversold (${refused} refused out of stock, ${seconds(ms)})`,
      measured: `${made} / ${oversold}`,
      target: `${STOCK} / 0`,
      pass: made === STOCK && orders === STOCK && oversold === 0 && stock === 0,
      value: oversold,
      unit: 'orders',
      limit: 0,
      details: { orders, refused, made, stockLeft: stock, ms },
    }
  })
}

export async function releaseJob(ctx: BenchContext): Promise<Row[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-release-'))
  const conn = openSqliteFile(path.join(dir, 'nadi.sqlite'))
  try {
    const { sqlite } = conn
    migrate(sqlite)
    const now = Date.UTC(2026, 10, 25, 12)
    const today = dayOf(now)
    ctx.log(`commerce: seeding ${PLANS.toLocaleString('en-US')} release plans over ${PLAN_USERS.toLocaleString('en-US')} users…`)
    sqlite.exec(`
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${PLAN_USERS})
      INSERT INTO users (id, wallet_address, code, name, depth, created_at) SELECT x, printf('0x%040x', x), printf('U%09d', x), 'u' || x, 0, ${now} FROM n;
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${PLANS})
      INSERT INTO pay_orders (id, order_no, user_id, type, asset, total, state, created_at, expires_at, fulfilment, paid_at)
        SELECT x, 'B' || x, 1 + (x % ${PLAN_USERS}), 'gold', 'USDT', 100000000000, 'open', ${now - DAY_MS}, ${now}, 'pending_shipment', ${now - DAY_MS} FROM n;
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${PLANS})
      INSERT INTO release_plans (user_id, order_id, area, asset, total, days, start_day, price, value, created_at)
        SELECT 1 + (x % ${PLAN_USERS}), x, 'gold', 'NADI', 400000000000 + x, 100, ${today}, '0.25', 100000000000, ${now - DAY_MS} FROM n;
    `)
    await transfer(conn.sql, { ref: 'bench:release-fund', reason: 'release_fund', userId: null, from: custody('nadi'), to: RELEASES, asset: 'NADI', amount: 10n ** 17n })
    const c = { db: conn.db, sql: conn.sql, now: () => now, log: { error: () => {} } as unknown as Parameters<typeof releaseDue>[0]['log'] }
    const rss0 = process.memoryUsage().rss
    const t0 = performance.now()
    const first = await releaseDue(c)
    const ms = performance.now() - t0
    const rss = process.memoryUsage().rss - rss0
    const t1 = performance.now()
    const second = await releaseDue(c)
    const ms2 = performance.now() - t1
    const posted = first.reduce((n, d) => n + d.plans, 0)
    const ok = (await audit(conn.sql)).ok
    return [
      atMost({
        name: `release job: ${posted.toLocaleString('en-US')} due instalments of ${PLAN_USERS.toLocaleString('en-US')} users posted (audit ${ok ? 'clean' : 'FAILED'}, +${Math.round(rss / 2 ** 20)} MB RSS)`,
        value: ok && posted === PLANS ? ms : Infinity,
        unit: 'ms',
        max: 60_000,
        format: seconds,
        details: { posted, days: first, ms, rssDelta: rss },
      }),
      atMost({
        name: `release job: a second run of the same day posts (${millis(ms2)})`,
        value: second.reduce((n, d) => n + d.plans, 0),
        unit: 'instalments',
        max: 0,
        format: (v) => `${v} instalments`,
        target: '0 instalments',
      }),
    ]
  } finally {
    await conn.close()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = []
  rows.push(...(await catalogReaders(ctx, SQLITE)))
  rows.push(...(await onPostgres(ctx, `catalog list, ${READERS} concurrent readers browsing: p99`, (url) => catalogReaders(ctx, POSTGRES, url))))
  rows.push(await stockRace(ctx))
  rows.push(...(await releaseJob(ctx)))
  return rows
}
