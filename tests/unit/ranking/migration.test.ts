// The root account is everyone's ancestor: its team performance is the whole platform's, so if it
// ranked it would be #1 of the total ranking forever and take the total pool's first prize. 018's
// backfill once copied it in (no is_root filter); 020 removes what that left on databases already
// migrated, and the total ranking's reads exclude roots whatever the tables hold.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../server/config.ts'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { balance, custody, fund, PRIZE_TOTAL, transfer } from '../../../server/ledger/index.ts'
import { createRankingService, payTotal } from '../../../server/modules/ranking/service.ts'

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../server/db/migrations')
const NOW = Date.UTC(2026, 2, 10, 12)
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.splice(0)) f()
})

/** A database migrated up to (not including) `upTo`, as one made before that migration existed. */
function before(upTo: number): SqliteDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-mig-'))
  for (const f of fs.readdirSync(MIGRATIONS)) if (parseInt(f, 10) < upTo) fs.copyFileSync(path.join(MIGRATIONS, f), path.join(dir, f))
  const c = openSqliteFile(':memory:')
  cleanup.push(() => {
    c.sqlite.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  migrate(c.sqlite, dir)
  return c
}

/** The root (1) with the whole platform's team performance, and two members under it. */
function seedTree(c: SqliteDatabase): void {
  c.sqlite.exec(`
    INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, is_root, created_at, team_performance) VALUES (1, NULL, 'R', 'NADI', NULL, 0, 1, 0, 500000000000);
    INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at, team_performance) VALUES (2, '0x0000000000000000000000000000000000000002', 'A', 'a', 1, 1, 0, 100000000000);
    INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at, team_performance) VALUES (3, '0x0000000000000000000000000000000000000003', 'B', 'b', 2, 2, 0, 0);`)
}

function service(c: SqliteDatabase) {
  return createRankingService({ sql: c.sql, config: loadConfig({ NADI_ENV: 'test', NADI_DEMO: '0', LOG_LEVEL: 'silent' }), now: () => NOW })
}

describe('the root in the total ranking', () => {
  it('a database with team performance before 018 has no root in the total ranking once migrated to the latest', async () => {
    const c = before(18)
    seedTree(c)
    migrate(c.sqlite)
    const total = await service(c).total(1, 20)
    expect(total.list.map((r) => [r.rank, r.user_id])).toEqual([[1, 2]])
    expect(total.total).toBe(1)
    expect((await service(c).mine(1, undefined)).total.rank).toBeNull()
  })

  it('a database 018 already ranked the root in (the old backfill) has it removed by the later migrations', async () => {
    const c = before(20)
    seedTree(c)
    // What the old 018 backfill left behind.
    c.sqlite.exec('INSERT INTO ranking_totals (user_id, amount, reached_at) VALUES (1, 500000000000, 0), (2, 100000000000, 0)')
    migrate(c.sqlite)
    expect((await service(c).total(1, 20)).list.map((r) => r.user_id)).toEqual([2])
  })

  it('pay-total never pays a root, even one that has a ranking figure', async () => {
    const c = before(20)
    seedTree(c)
    c.sqlite.exec('INSERT INTO ranking_totals (user_id, amount, reached_at) VALUES (1, 500000000000, 0), (2, 100000000000, 0)')
    migrate(c.sqlite)
    // Whatever a later write or a hand edit does, the root's figure is the largest there is.
    c.sqlite.exec('UPDATE users SET team_performance = 900000000000 WHERE id = 1')
    transfer(c.sqlite, { ref: 'test:fund-total', reason: 'withdraw', from: custody('nadi'), to: PRIZE_TOTAL, asset: 'NADI', amount: 1_000_000_000n, at: NOW })
    const done = await c.sql.transaction((tx) => payTotal(tx, [600_000n, 400_000n], NOW))
    expect(done.winners).toBe(1)
    expect(balance(c.sqlite, fund(1), 'NADI').available).toBe(0n)
    expect(balance(c.sqlite, fund(2), 'NADI').available).toBe(600_000_000n)
    const results = c.sqlite.prepare("SELECT user_id FROM ranking_results WHERE pool = 'total'").all() as { user_id: bigint }[]
    expect(results.map((r) => r.user_id)).toEqual([2n])
  })
})
