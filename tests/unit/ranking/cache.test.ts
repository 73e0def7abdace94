// What the ranking keeps instead of re-reading (issue 12 review): today's income for the pools is read
// at most once per push interval, and the counts over a ranking (its size, how many rank ahead of
// someone) once per ranking version. A purchase bumps the version, so counts are never stale past it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../../server/config.ts'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { setRankingRecorder } from '../../../server/modules/ranking/record.ts'
import { createRankingService, poolsNow } from '../../../server/modules/ranking/service.ts'
import { addPerformanceIn } from '../../../server/modules/user/performance.ts'

const NOW = Date.UTC(2026, 2, 10, 12)
const DAY = Math.floor(NOW / 86_400_000)
const config = loadConfig({ NADI_ENV: 'test', NADI_DEMO: '0', LOG_LEVEL: 'silent', NADI_RANKING_PUSH_MS: '2000', NADI_RANKING_DAILY_POOL_PPM: '100000' })
const open: SqliteDatabase[] = []
afterEach(() => {
  vi.restoreAllMocks()
  for (const c of open.splice(0)) c.sqlite.close()
})

function db(): SqliteDatabase {
  const c = openSqliteFile(':memory:')
  open.push(c)
  migrate(c.sqlite)
  // 1 ← 2 ← 3 ← 4
  c.sqlite.exec(`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 4)
    INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) SELECT x, printf('0x%040x', x), 'C' || x, 'u' || x, nullif(x - 1, 0), x - 1, 0 FROM n`)
  return c
}

let refs = 0
function withdrawFee(c: SqliteDatabase, fee: bigint): void {
  c.sqlite
    .prepare(
      `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
       VALUES (1, 'NADI', 'nadi', 100000000, @fee, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', @hash, '0x', @nonce, 3, @at, @at, @at)`,
    )
    .run({ fee, hash: `0x${String(++refs).padStart(64, '0')}`, nonce: refs, at: NOW - 1000 })
}

describe('the pools’ accrual', () => {
  it('reads today’s income at most once per push interval, and again once it has passed or the day changed', async () => {
    const c = db()
    let wall = 1_000_000
    vi.spyOn(performance, 'now').mockImplementation(() => wall)
    withdrawFee(c, 1_000_000_000n) // 10 NADI
    expect((await poolsNow(c.sql, config.ranking, NOW)).daily.today.NADI).toBe('1')
    withdrawFee(c, 1_000_000_000n)
    wall += 1999
    expect((await poolsNow(c.sql, config.ranking, NOW)).daily.today.NADI).toBe('1')
    wall += 1
    expect((await poolsNow(c.sql, config.ranking, NOW)).daily.today.NADI).toBe('2')
    // The next day is read at once, whatever the interval.
    expect((await poolsNow(c.sql, config.ranking, NOW + 86_400_000)).daily.today.NADI).toBe('0')
  })
})

describe('ranking counts', () => {
  it('are counted once per ranking version: a purchase recounts, a read does not', async () => {
    const c = db()
    setRankingRecorder(c.sql, { now: () => NOW, measure: 'team' })
    const svc = createRankingService({ sql: c.sql, config, now: () => NOW })
    await c.sql.transaction((tx) => addPerformanceIn(tx, c.sql, 4, 100_000_000n))
    expect((await svc.daily(DAY, 1, 20)).total).toBe(3)
    expect((await svc.total(1, 20)).total).toBe(3)
    expect((await svc.mine(3, DAY)).daily.rank).toBe(3)
    // A row written behind the recorder's back (no version bump) is not counted: the counts are kept.
    c.sqlite.exec(`INSERT INTO ranking_days (day, user_id, amount, reached_at) VALUES (${DAY}, 4, 900000000, 0)`)
    expect((await svc.daily(DAY, 1, 20)).total).toBe(3)
    expect((await svc.mine(3, DAY)).daily.rank).toBe(3)
    // A purchase bumps the version: everything is counted again.
    await c.sql.transaction((tx) => addPerformanceIn(tx, c.sql, 4, 100_000_000n))
    expect((await svc.daily(DAY, 1, 20)).total).toBe(4)
    expect((await svc.mine(3, DAY)).daily.rank).toBe(4)
    expect((await svc.mine(3, DAY)).total.rank).toBe(3)
  })
})
