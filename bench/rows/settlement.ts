// Issue 11's settlement rows: one day settled for 1,000,000 positions over 100,000 users (time, and
// memory: the process's RSS growth up to its peak), a second run of the same day (posts nothing), and
// 30 missed days caught up for 10,000 positions.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { audit, custody, MINING, SAVINGS, transfer } from '../../server/ledger/index.ts'
import { auditSettlement, settleDue } from '../../server/modules/settlement/service.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { millis, seconds } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'

export const id = 'settlement'

const POSITIONS = 1_000_000
const USERS = 100_000
const CATCH_UP_POSITIONS = 10_000
const CATCH_UP_USERS = 1_000
const CATCH_UP_DAYS = 30
const MB = 2 ** 20

type Ctx = Parameters<typeof settleDue>[0]

async function withDatabase<T>(fn: (conn: Database_) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-settle-'))
  const conn = openDatabase(path.join(dir, 'nadi.sqlite'))
  try {
    migrate(conn.sqlite)
    return await fn(conn)
  } finally {
    await conn.close()
    conn.sqlite.close()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

/**
 * Users and positions written set-based: every user holds every kind, mostly mining (as in
 * production); half the pledges pay monthly; power capped by what remains; rates and bases varied so
 * the floors leave dust.
 */
function seed(conn: Database_, users: number, positions: number, startDay: number, now: number): void {
  conn.sqlite.exec(`
    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${users})
    INSERT INTO users (id, wallet_address, code, name, depth, created_at) SELECT x, printf('0x%040x', x), printf('U%09d', x), 'u' || x, 0, ${now} FROM n;
    WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ${positions - 1})
    INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, end_day, source, created_at)
      SELECT 1 + x % ${users}, kind, 'NADI', 1000000000 + (x * 7919) % 100000000000, CASE kind WHEN 'pledge' THEN 1000 ELSE 5000 + x % 7 END,
             CASE WHEN kind = 'pledge' AND x % 2 = 0 THEN 30 ELSE 1 END,
             CASE WHEN kind IN ('destroy', 'joint', 'trial') THEN 100000000000000 ELSE NULL END,
             ${startDay},
             CASE kind WHEN 'pledge' THEN ${startDay + 360} WHEN 'node' THEN ${startDay + 270} ELSE NULL END,
             'bench:' || x, ${now}
      -- Each user's positions take every kind in turn: mostly destroy power, as in production.
      FROM (SELECT x, CASE (x / ${users}) % 10 WHEN 0 THEN 'pledge' WHEN 1 THEN 'node' WHEN 2 THEN 'device' WHEN 3 THEN 'joint' WHEN 4 THEN 'trial' ELSE 'destroy' END AS kind FROM n)
  `)
  for (const account of [MINING, SAVINGS]) {
    transfer(conn.sqlite, { ref: `bench:fund:${'platform' in account ? account.platform : ''}`, reason: 'fund', userId: null, from: custody('nadi'), to: account, asset: 'NADI', amount: 10n ** 17n })
  }
}

const postings = (conn: Database_) => Number((conn.sqlite.prepare('SELECT count(*) AS n FROM ledger_postings').get() as { n: bigint }).n)
const silent = { error: () => {} } as unknown as Ctx['log']

async function oneDay(ctx: BenchContext): Promise<Row[]> {
  return withDatabase(async (conn) => {
    const now = Date.UTC(2026, 10, 25, 12)
    const day = dayOf(now) - 1
    ctx.log(`settlement: seeding ${POSITIONS.toLocaleString('en-US')} positions over ${USERS.toLocaleString('en-US')} users…`)
    seed(conn, USERS, POSITIONS, day, now)
    const c: Ctx = { sqlite: conn.sqlite, db: conn.db, now: () => now, log: silent }
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    ctx.log('settlement: settling the day…')
    const t0 = performance.now()
    const first = await settleDue(c)
    const ms = performance.now() - t0
    // The peak during the run, less the RSS before it (an upper bound when the seeding peaked higher).
    const peakGrowth = Math.max(0, process.resourceUsage().maxRSS * 1024 - rss0)
    const rssAfter = process.memoryUsage().rss - rss0
    const before = postings(conn)
    const t1 = performance.now()
    const second = await settleDue(c)
    const ms2 = performance.now() - t1
    const reposted = postings(conn) - before + second.reduce((n, d) => n + d.positions, 0)
    const settled = first.reduce((n, d) => n + d.positions, 0)
    const ok = audit(conn.sqlite).ok && auditSettlement(conn.sqlite).length === 0
    ctx.log(`settlement: ${settled} lines, ${first[0]?.users ?? 0} users paid in ${seconds(ms)}; peak RSS +${Math.round(peakGrowth / MB)} MB; re-run ${millis(ms2)}`)
    return [
      atMost({
        name: `settlement: one day, ${settled.toLocaleString('en-US')} positions of ${USERS.toLocaleString('en-US')} users (${(first[0]?.users ?? 0).toLocaleString('en-US')} postings, audit ${ok ? 'clean' : 'FAILED'})`,
        // Monthly pledges (half of one position in ten) do not pay on their first day.
        value: ok && settled === POSITIONS - POSITIONS / 20 ? ms : Infinity,
        unit: 'ms',
        max: 60_000,
        format: seconds,
        details: { days: first.map((d) => ({ ...d, paid: String(d.paid), dust: String(d.dust) })), ms, rssBefore: rss0, peakGrowth, rssAfter },
      }),
      atMost({
        name: `settlement: memory, peak RSS growth over the day's run (RSS after +${Math.round(rssAfter / MB)} MB)`,
        value: peakGrowth / MB,
        unit: 'MB',
        max: 1024,
        format: (v) => `${Math.round(v)} MB`,
      }),
      atMost({
        name: `settlement: a second run of the same day posts (${millis(ms2)})`,
        value: reposted,
        unit: 'postings',
        max: 0,
        format: (v) => `${v} postings`,
        target: '0 postings',
      }),
    ]
  })
}

async function catchUp(ctx: BenchContext): Promise<Row> {
  return withDatabase(async (conn) => {
    const now = Date.UTC(2026, 10, 25, 12)
    const first = dayOf(now) - CATCH_UP_DAYS
    ctx.log(`settlement: ${CATCH_UP_DAYS} missed days of ${CATCH_UP_POSITIONS.toLocaleString('en-US')} positions…`)
    seed(conn, CATCH_UP_USERS, CATCH_UP_POSITIONS, first, now - CATCH_UP_DAYS * DAY_MS)
    const c: Ctx = { sqlite: conn.sqlite, db: conn.db, now: () => now, log: silent }
    const t0 = performance.now()
    const days = await settleDue(c)
    const ms = performance.now() - t0
    const ok = days.length === CATCH_UP_DAYS && days.every((d, i) => d.day === first + i) && auditSettlement(conn.sqlite).length === 0
    return info({
      name: `settlement: catch-up of ${CATCH_UP_DAYS} missed days for ${CATCH_UP_POSITIONS.toLocaleString('en-US')} positions (${days.length} days in order${ok ? '' : ', WRONG'})`,
      value: ok ? ms : Infinity,
      unit: 'ms',
      format: seconds,
      details: { days: days.length, ms },
    })
  })
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  return [...(await oneDay(ctx)), await catchUp(ctx)]
}
