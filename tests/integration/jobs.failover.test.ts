// The jobs leader killed in the middle of a settlement day (issue 19), with real processes on one
// PostgreSQL database: two `--role jobs` processes, one leads; a big day is seeded; while the leader's
// settlement transaction is open it is killed with kill -9. The standby leads within 5 s and settles
// the day: once — one settlement_days row, one `settle:<day>:<user>` posting per user, each user paid
// exactly their line, the funding account down by the day's total once, the ledger audit and the
// settlement audit clean.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { audit, balance, custody, fund, MINING, transfer } from '../../server/ledger/index.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { auditSettlement } from '../../server/modules/settlement/service.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { killChildren, killGroup, startChild, leadsJobs } from './support/child.ts'

const U = 100_000_000n
/**
 * Users with one position each, due the same day: enough that settling the day takes over a second,
 * so the kill lands inside its transaction. Since the ledger posts a day set-based (postMany), 1,000
 * users settle in ~350 ms on PostgreSQL here, and the test, which waits for a transaction 300 ms old,
 * missed it; 10,000 take ~1.6 s.
 */
const USERS = 10_000
const HEALTH = '/api/v1/common/health'

const dirs: string[] = []
const dbs: TestDatabase[] = []
afterAll(() => {
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})


describe.runIf(testBackend() === 'postgres')('the jobs leader killed mid-way', () => {
  it('a settlement day cut by kill -9 of the jobs leader is settled exactly once by its successor', { timeout: 120_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-jobs-'))
    dirs.push(dir)
    const env = { NADI_DATABASE_URL: db.url, NADI_RELEASE_POLL_MS: '200' }
    const a = await startChild(dir, env, HEALTH, ['--role', 'jobs'])
    await expect.poll(() => leadsJobs(a), { timeout: 10_000 }).toBe(true)
    const b = await startChild(dir, env, HEALTH, ['--role', 'jobs'])
    expect(await leadsJobs(b)).toBe(false)

    // Yesterday's positions (UTC), all due: the leader's next settlement pass takes the day.
    const day = dayOf(Date.now()) - 1
    // Named apart from the server's data connections ('nadi'), which the wait below looks for.
    const books = new PgPool(db.url, { appName: 'nadi tests' })
    try {
      const funded = 10n * BigInt(USERS) * 2n * U
      await books.transaction(async (tx) => {
        await transfer(tx, { ref: 'test:fund:mining', reason: 'fund', userId: null, from: custody('nadi'), to: MINING, asset: 'NADI', amount: funded })
        await tx.run(
          statement<never, [number, number]>("INSERT INTO users (wallet_address, code, name, depth, created_at) SELECT '0x' || lpad(to_hex(g), 40, '0'), 'F' || g, 'u', 0, CAST(? AS BIGINT) FROM generate_series(1, CAST(? AS INTEGER)) g"),
          Date.now(),
          USERS,
        )
        // 1 % a day of 100 NADI and a little more per user, so each line is its own amount.
        await tx.run(
          statement<never, [bigint, number, number]>(
            `INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, start_day, source, created_at)
             SELECT id, 'device', 'NADI', CAST(? AS BIGINT) + id * 100, 10000, 1, CAST(? AS BIGINT), 'test:' || CAST(id AS TEXT), CAST(? AS BIGINT) FROM users WHERE code LIKE 'F%'`,
          ),
          100n * U,
          day,
          Date.now(),
        )
      })

      // The leader's settlement transaction, open for a while (its data connection is the one named plainly 'nadi').
      const inSettlement = statement<{ n: bigint }, []>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nadi'
           AND state IN ('active', 'idle in transaction') AND xact_start < now() - interval '300 milliseconds'`,
      )
      await expect.poll(async () => (await books.get(inSettlement))?.n, { timeout: 20_000, interval: 20 }).toBe(1n)
      const killedAt = Date.now()
      killGroup(a.proc)
      await a.exited
      // Nothing of the day was committed: the leader died inside its one transaction.
      const daysSettled = async () => (await books.get(statement<{ n: bigint }, [number]>('SELECT count(*) AS n FROM settlement_days WHERE day = ?'), day))?.n
      expect(await daysSettled()).toBe(0n)

      await expect.poll(() => leadsJobs(b), { timeout: 5000, interval: 50 }).toBe(true)
      const takeover = Date.now() - killedAt
      console.log(`jobs leader killed mid-settlement of ${USERS} users: the standby led after ${takeover} ms`)
      expect(takeover).toBeLessThan(5000)
      await expect.poll(daysSettled, { timeout: 45_000, interval: 200 }).toBe(1n)
      console.log(`… and had settled the day ${Date.now() - killedAt} ms after the kill`)

      // Once: one posting per user, each user paid exactly their line, the funding account down by the day once.
      expect((await books.get(statement<{ n: bigint }, [string]>("SELECT count(*) AS n FROM ledger_postings WHERE ref LIKE ? AND ref NOT LIKE '%:dust:%'"), `settle:${day}:%`))?.n).toBe(BigInt(USERS))
      const lines = await books.all(statement<{ user_id: bigint; amount: bigint }, [number]>('SELECT p.user_id AS user_id, l.amount AS amount FROM settlement_lines l JOIN positions p ON p.id = l.position_id WHERE l.day = ?'), day)
      expect(lines).toHaveLength(USERS)
      const paid = await Promise.all(lines.map(async (l) => ({ ...l, paid: (await balance(books, fund(l.user_id), 'NADI')).available })))
      expect(paid.filter((l) => l.paid !== l.amount)).toEqual([])
      const computed = (await books.get(statement<{ n: bigint }, [number]>('SELECT sum(computed) AS n FROM settlement_totals WHERE day = ?'), day))!.n
      expect((await balance(books, MINING, 'NADI')).available).toBe(funded - computed)
      expect(await auditSettlement(books)).toEqual([])
      expect((await audit(books)).violations).toEqual([])
      // The survivor leads, as its row says.
      expect(Number((await books.get(statement<{ pid: bigint }, []>("SELECT pid FROM role_leaders WHERE name = 'jobs'")))?.pid)).toBe(b.proc.pid)
      expect(dayOf(Date.now() - DAY_MS)).toBeGreaterThanOrEqual(day)
    } finally {
      await books.close()
      killGroup(b.proc)
    }
  })
})
