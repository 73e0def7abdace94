// Issue 11's settlement rows: one day settled for 1,000,000 positions over 100,000 users (time, and
// memory: the process's RSS growth up to its peak), a second run of the same day (posts nothing), and
// 30 missed days caught up for 10,000 positions.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
import { audit, custody, MINING, SAVINGS, transfer } from '../../server/ledger/index.ts'
import { auditSettlement, settleDue } from '../../server/modules/settlement/service.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { onPostgres, POSTGRES, SQLITE } from '../support/postgres.ts'
import { millis, seconds } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'settlement'

const POSITIONS = 1_000_000
const USERS = 100_000
const CATCH_UP_POSITIONS = 10_000
const CATCH_UP_USERS = 1_000
const CATCH_UP_DAYS = 30
const MB = 2 ** 20
const DAY_NAME = `settlement: one day, ${POSITIONS.toLocaleString('en-US')} positions of ${USERS.toLocaleString('en-US')} users`

type Ctx = Parameters<typeof settleDue>[0]

/** A fresh migrated database: a temp SQLite file, or the PostgreSQL database at `url`. */
async function withDatabase<T>(fn: (conn: Database_) => Promise<T>, url?: string): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-settle-'))
  const conn = openDatabase(url ?? path.join(dir, 'nadi.sqlite'))
  try {
    await migrateDatabase(conn)
    return await fn(conn)
  } finally {
    await conn.close()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

/**
 * Users and positions written set-based: every user holds every kind, mostly mining (as in
 * production); half the pledges pay monthly; power capped by what remains; rates and bases varied so
 * the floors leave dust.
 */
async function seed(conn: Database_, users: number, positions: number, startDay: number, now: number): Promise<void> {
  // The one difference: SQLite's printf is PostgreSQL's lpad and to_hex. Integers are 64-bit from the
  // first row on (x × 7919 overflows PostgreSQL's 32-bit integer).
  const pg = conn.sql.dialect === 'postgres'
  const wallet = pg ? `'0x' || lpad(to_hex(x), 40, '0')` : `printf('0x%040x', x)`
  const code = pg ? `'U' || lpad(CAST(x AS TEXT), 9, '0')` : `printf('U%09d', x)`
  await conn.sql.run(
    statement(`WITH RECURSIVE n(x) AS (SELECT CAST(1 AS BIGINT) UNION ALL SELECT x + 1 FROM n WHERE x < ${users})
    INSERT INTO users (id, wallet_address, code, name, depth, created_at) SELECT x, ${wallet}, ${code}, 'u' || x, 0, ${now} FROM n`),
  )
  await conn.sql.run(
    statement(`WITH RECURSIVE n(x) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT x + 1 FROM n WHERE x < ${positions - 1})
    INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, end_day, source, created_at)
      SELECT 1 + x % ${users}, kind, 'NADI', 1000000000 + (x * 7919) % 100000000000, CASE kind WHEN 'pledge' THEN 1000 ELSE 5000 + x % 7 END,
             CASE WHEN kind = 'pledge' AND x % 2 = 0 THEN 30 ELSE 1 END,
             CASE WHEN kind IN ('destroy', 'joint', 'trial') THEN 100000000000000 ELSE NULL END,
             ${startDay},
             CASE kind WHEN 'pledge' THEN ${startDay + 360} WHEN 'node' THEN ${startDay + 270} ELSE NULL END,
             'bench:' || x, ${now}
      -- Each user's positions take every kind in turn: mostly destroy power, as in production.
      FROM (SELECT x, CASE (x / ${users}) % 10 WHEN 0 THEN 'pledge' WHEN 1 THEN 'node' WHEN 2 THEN 'device' WHEN 3 THEN 'joint' WHEN 4 THEN 'trial' ELSE 'destroy' END AS kind FROM n) AS k`),
  )
  // Ids given explicitly leave PostgreSQL's sequence behind; the next user would collide.
  if (pg) await conn.sql.run(statement(`SELECT setval(pg_get_serial_sequence('users', 'id'), ${users})`))
  for (const account of [MINING, SAVINGS]) {
    await transfer(conn.sql, { ref: `bench:fund:${'platform' in account ? account.platform : ''}`, reason: 'fund', userId: null, from: custody('nadi'), to: account, asset: 'NADI', amount: 10n ** 17n })
  }
}

const postings = async (conn: Database_) => Number((await conn.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM ledger_postings')))!.n)
const silent = { error: () => {} } as unknown as Ctx['log']

/** The day's rows on one backend (`suffix`), under `maxMs`; `url`: PostgreSQL instead of a temp SQLite file. */
async function oneDay(ctx: BenchContext, suffix: string, maxMs: number, url?: string): Promise<Row[]> {
  return withDatabase(async (conn) => {
    const now = Date.UTC(2026, 10, 25, 12)
    const day = dayOf(now) - 1
    ctx.log(`settlement${suffix}: seeding ${POSITIONS.toLocaleString('en-US')} positions over ${USERS.toLocaleString('en-US')} users…`)
    const s0 = performance.now()
    await seed(conn, USERS, POSITIONS, day, now)
    const seedMs = performance.now() - s0
    ctx.log(`settlement${suffix}: seeded in ${seconds(seedMs)}`)
    const c: Ctx = { sql: conn.sql, now: () => now, log: silent }
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    ctx.log('settlement: settling the day…')
    const t0 = performance.now()
    const first = await settleDue(c)
    const ms = performance.now() - t0
    // The peak during the run, less the RSS before it (an upper bound when the seeding peaked higher).
    const peakGrowth = Math.max(0, process.resourceUsage().maxRSS * 1024 - rss0)
    const rssAfter = process.memoryUsage().rss - rss0
    const before = await postings(conn)
    const t1 = performance.now()
    const second = await settleDue(c)
    const ms2 = performance.now() - t1
    const reposted = await postings(conn) - before + second.reduce((n, d) => n + d.positions, 0)
    const settled = first.reduce((n, d) => n + d.positions, 0)
    const ok = (await audit(conn.sql)).ok && (await auditSettlement(conn.sql)).length === 0
    ctx.log(`settlement${suffix}: ${settled} lines, ${first[0]?.users ?? 0} users paid in ${seconds(ms)}; peak RSS +${Math.round(peakGrowth / MB)} MB; re-run ${millis(ms2)}`)
    return [
      atMost({
        name: `${DAY_NAME} (${(first[0]?.users ?? 0).toLocaleString('en-US')} postings, audit ${ok ? 'clean' : 'FAILED'}, seeded in ${seconds(seedMs)})${suffix}`,
        // Monthly pledges (half of one position in ten) do not pay on their first day.
        value: ok && settled === POSITIONS - POSITIONS / 20 ? ms : Infinity,
        unit: 'ms',
        max: maxMs,
        format: seconds,
        details: { days: first.map((d) => ({ ...d, paid: String(d.paid), dust: String(d.dust) })), ms, seedMs, rssBefore: rss0, peakGrowth, rssAfter },
      }),
      atMost({
        name: `settlement: memory, peak RSS growth over the day's run (RSS after +${Math.round(rssAfter / MB)} MB)${suffix}`,
        value: peakGrowth / MB,
        unit: 'MB',
        max: 1024,
        format: (v) => `${Math.round(v)} MB`,
      }),
      atMost({
        name: `settlement: a second run of the same day posts (${millis(ms2)})${suffix}`,
        value: reposted,
        unit: 'postings',
        max: 0,
        format: (v) => `${v} postings`,
        target: '0 postings',
      }),
    ]
  }, url)
}

async function catchUp(ctx: BenchContext): Promise<Row> {
  return withDatabase(async (conn) => {
    const now = Date.UTC(2026, 10, 25, 12)
    const first = dayOf(now) - CATCH_UP_DAYS
    ctx.log(`settlement: ${CATCH_UP_DAYS} missed days of ${CATCH_UP_POSITIONS.toLocaleString('en-US')} positions…`)
    await seed(conn, CATCH_UP_USERS, CATCH_UP_POSITIONS, first, now - CATCH_UP_DAYS * DAY_MS)
    const c: Ctx = { sql: conn.sql, now: () => now, log: silent }
    const t0 = performance.now()
    const days = await settleDue(c)
    const ms = performance.now() - t0
    const ok = days.length === CATCH_UP_DAYS && days.every((d, i) => d.day === first + i) && (await auditSettlement(conn.sql)).length === 0
    return info({
      name: `settlement: catch-up of ${CATCH_UP_DAYS} missed days for ${CATCH_UP_POSITIONS.toLocaleString('en-US')} positions (${days.length} days in order${ok ? '' : ', WRONG'})`,
      value: ok ? ms : Infinity,
      unit: 'ms',
      format: seconds,
      details: { days: days.length, ms },
    })
  })
}

/** The day on both backends (PostgreSQL's target is 120 s: each statement a round trip); the catch-up on SQLite. */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const sqlite = await oneDay(ctx, SQLITE, 60_000)
  const pg = await onPostgres(ctx, DAY_NAME, (url) => oneDay(ctx, POSTGRES, 120_000, url))
  return [...sqlite, ...pg, await catchUp(ctx)]
}
