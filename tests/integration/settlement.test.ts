// The daily settlement (DESIGN §11) on a real SQLite file: a day pays once, missed days are caught up
// in order, a short funding account halts the day and pays nothing of it, and over random users,
// positions and days the ledger sums to zero, nothing is negative, and every day's paid + dust equals
// what was computed.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { sqliteOf } from '../../server/db/connection.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { audit, balance, custody, DUST, fund, MINING, SAVINGS, transfer } from '../../server/ledger/index.ts'
import { auditSettlement, nextDay, settleDay, settleDue, SettlementFundingShort, type PositionKind } from '../../server/modules/settlement/service.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { main as cli } from '../../server/cli.ts'
import { parseStatusArgs } from '../../server/modules/settlement/commands.ts'
import { statement, type Sql } from '../../server/db/query/types.ts'

const U = 100_000_000n
const T0 = Date.UTC(2026, 2, 10, 12)
const D0 = dayOf(T0)
const open: { conn: Database_; dir: string; pg: TestDatabase | null }[] = []
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.conn.close()
    fs.rmSync(o.dir, { recursive: true, force: true })
    o.pg?.drop()
  }
})

/** A migrated database on the run's backend: a SQLite file, or on the PostgreSQL run a database of its own. */
function fresh() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-settle-'))
  const pg = testBackend() === 'postgres' ? freshDatabase() : null
  const conn = openDatabase(pg?.url ?? path.join(dir, 'nadi.sqlite'))
  if (!pg) migrate(sqliteOf(conn, 'the settlement tests on SQLite'))
  open.push({ conn, dir, pg })
  /** What an operator command beside it is told: its folder and its database. */
  const operatorEnv = { NADI_ENV: 'test', NADI_DATA_DIR: dir, NADI_DB_FILE: path.join(dir, 'nadi.sqlite'), ...(pg ? { NADI_DATABASE_URL: pg.url } : {}) }
  let t = T0
  const ctx = { db: conn.db, sql: conn.sql, now: () => t, log: { error: () => {} } as never }
  const users = async (n: number) => {
    for (let i = 0; i < n; i++) await conn.sql.run(statement("INSERT INTO users (wallet_address, code, name, depth, created_at) VALUES (?, ?, 'u', 0, ?)"), `0x${String(i).padStart(40, '0')}`, `C${i}`, T0)
  }
  const fundAccount = (account: typeof MINING, amount: bigint, asset = 'NADI') =>
    transfer(conn.sql, { ref: `test:fund:${Math.random()}`, reason: 'fund', userId: null, from: custody('nadi'), to: account, asset, amount })
  let sources = 0
  const position = async (p: { user: number; kind?: PositionKind; base: bigint; rate: number; period?: number; remaining?: bigint | null; start?: number; end?: number | null; asset?: string }) =>
    Number(
      (await conn.sql.get(statement<{ id: bigint }>(
          'INSERT INTO positions (user_id, kind, asset, base, rate_ppm, period_days, remaining, start_day, end_day, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
        ), p.user, p.kind ?? 'device', p.asset ?? 'NADI', p.base, p.rate, p.period ?? 1, p.remaining ?? null, p.start ?? D0, p.end ?? null, `test:${++sources}`, T0))!.id,
    )
  return { ctx, conn, operatorEnv, users, fundAccount, position, advance: (ms: number) => void (t += ms), set: (v: number) => void (t = v) }
}

const nadi = async (sql: Sql, user: number) => (await balance(sql, fund(user), 'NADI')).available

describe('the settlement', () => {
  it('settles a day once it has ended, pays each position once, and a second pass pays nothing', async () => {
    const f = fresh()
    await f.users(2)
    await f.fundAccount(MINING, 1_000_000n * U)
    await f.position({ user: 1, base: 100n * U, rate: 10_000 }) // 1 % of 100 = 1 NADI a day
    await f.position({ user: 2, base: 333n, rate: 333_333 }) // 110.999889 units: floor 110, 0.999889 to dust
    expect(await settleDue(f.ctx)).toEqual([]) // day D0 has not ended
    f.advance(DAY_MS)
    const [day] = await settleDue(f.ctx)
    expect(day).toMatchObject({ day: D0, positions: 2, users: 2, paid: U + 110n })
    expect(await nadi(f.conn.sql, 1)).toBe(U)
    expect(await nadi(f.conn.sql, 2)).toBe(110n)
    expect(await settleDue(f.ctx)).toEqual([])
    expect(await nadi(f.conn.sql, 1)).toBe(U)
    expect(await auditSettlement(f.conn.sql)).toEqual([])
    expect((await audit(f.conn.sql)).violations).toEqual([])
  })

  it('a second pass of a settled day (one that read it as next before the first committed) pays and advances nothing: the day’s record refuses it and its transaction rolls back', async () => {
    const f = fresh()
    await f.users(1)
    await f.fundAccount(MINING, 1_000n * U)
    const id = await f.position({ user: 1, base: 100n * U, rate: 10_000 })
    f.advance(DAY_MS)
    expect((await settleDue(f.ctx)).map((d) => d.day)).toEqual([D0])
    const position = () => f.conn.sql.get(statement<{ paid: unknown; settled_day: unknown }>('SELECT paid, settled_day FROM positions WHERE id = ?'), id)
    expect(await position()).toEqual({ paid: U, settled_day: BigInt(D0) })
    await expect(f.ctx.sql.transaction((tx) => settleDay(f.ctx, tx, D0, f.ctx.now()))).rejects.toThrow()
    expect(await position()).toEqual({ paid: U, settled_day: BigInt(D0) })
    expect(await nadi(f.conn.sql, 1)).toBe(U)
    expect(await f.conn.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM settlement_days'))).toEqual({ n: 1n })
    expect(await auditSettlement(f.conn.sql)).toEqual([])
    expect((await audit(f.conn.sql)).violations).toEqual([])
  })

  it('the floors of many small lines add up to dust that goes to the dust account, never lost', async () => {
    const f = fresh()
    await f.users(3)
    await f.fundAccount(MINING, 1_000_000n * U)
    for (let i = 0; i < 3; i++) await f.position({ user: i + 1, base: 1n, rate: 500_000 }) // each 0.5 unit: floor 0
    f.advance(DAY_MS)
    const [day] = await settleDue(f.ctx)
    expect(day).toMatchObject({ paid: 0n, dust: 1n })
    expect((await balance(f.conn.sql, DUST, 'NADI')).available).toBe(1n)
    const t = await f.conn.sql.get(statement<{ computed: unknown; paid: unknown; dust: unknown }>('SELECT computed, paid, dust FROM settlement_totals'))
    expect(t).toEqual({ computed: 1n, paid: 0n, dust: 1n })
    expect(await auditSettlement(f.conn.sql)).toEqual([])
  })

  it('catches up missed days in order, pays a capped position until it is exhausted, and ends it', async () => {
    const f = fresh()
    await f.users(1)
    await f.fundAccount(MINING, 1_000n * U)
    const id = await f.position({ user: 1, kind: 'destroy', base: 10n * U, rate: 200_000, remaining: 5n * U }) // 2 a day, 5 in all
    f.advance(5 * DAY_MS)
    const days = await settleDue(f.ctx)
    expect(days.map((d) => d.day)).toEqual([D0, D0 + 1, D0 + 2, D0 + 3, D0 + 4])
    expect(days.map((d) => d.paid)).toEqual([2n * U, 2n * U, U, 0n, 0n])
    expect(await nadi(f.conn.sql, 1)).toBe(5n * U)
    expect(await f.conn.sql.get(statement<{ status: unknown; remaining: unknown; paid: unknown }>('SELECT status, remaining, paid FROM positions WHERE id = ?'), id)).toEqual({ status: 'ended', remaining: 0n, paid: 5n * U })
    expect(await auditSettlement(f.conn.sql)).toEqual([])
  })

  it('pays a monthly position every 30 days and stops at its end day', async () => {
    const f = fresh()
    await f.users(1)
    await f.fundAccount(SAVINGS, 1_000n * U)
    await f.position({ user: 1, kind: 'pledge', base: 100n * U, rate: 30_000, period: 30, end: D0 + 60 })
    f.advance(70 * DAY_MS)
    const days = await settleDue(f.ctx)
    expect(days.filter((d) => d.paid > 0n).map((d) => d.day - D0)).toEqual([29, 59])
    expect(await nadi(f.conn.sql, 1)).toBe(6n * U)
    expect(await f.conn.sql.get(statement<{ status: unknown }>("SELECT status FROM positions"))).toEqual({ status: 'ended' })
  })

  it('a funding account short of money halts at that day and pays nothing of it until funded', async () => {
    const f = fresh()
    await f.users(1)
    await f.fundAccount(MINING, U)
    await f.position({ user: 1, base: 100n * U, rate: 10_000 }) // 1 a day
    f.advance(3 * DAY_MS)
    await expect(settleDue(f.ctx)).rejects.toBeInstanceOf(SettlementFundingShort)
    expect(await nadi(f.conn.sql, 1)).toBe(U) // day one paid, day two halted whole
    expect(await nextDay(f.ctx)).toBe(D0 + 1)
    expect(await f.conn.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM settlement_lines WHERE day = ?'), D0 + 1)).toEqual({ n: 0n })
    await f.fundAccount(MINING, 10n * U)
    expect((await settleDue(f.ctx)).map((d) => d.day)).toEqual([D0 + 1, D0 + 2])
    expect(await nadi(f.conn.sql, 1)).toBe(3n * U)
  })

  it('property: random users, positions and days — the ledger sums to zero, nothing is negative, every day paid + dust = computed', async () => {
    for (const seed of [1, 7, 42]) {
      const f = fresh()
      let x = seed
      const rand = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n)
      const users = 5 + rand(20)
      await f.users(users)
      await f.fundAccount(MINING, 10n ** 15n)
      await f.fundAccount(SAVINGS, 10n ** 15n)
      const kinds: PositionKind[] = ['device', 'destroy', 'joint', 'trial', 'node', 'pledge']
      for (let i = 0; i < 60; i++) {
        const kind = kinds[rand(kinds.length)]!
        const base = BigInt(rand(10 ** 9)) * BigInt(1 + rand(1000))
        const rate = rand(1_000_001)
        const period = kind === 'pledge' && rand(2) ? 30 : 1
        const remaining = kind === 'destroy' || kind === 'joint' ? BigInt(rand(10 ** 9)) : null
        await f.position({ user: 1 + rand(users), kind, base, rate, period, remaining, start: D0 + rand(5), end: rand(3) ? null : D0 + 6 + rand(40) })
      }
      f.advance((10 + rand(50)) * DAY_MS)
      const days = await settleDue(f.ctx)
      expect(days.length).toBeGreaterThan(0)
      expect(await settleDue(f.ctx)).toEqual([])
      expect(await auditSettlement(f.conn.sql)).toEqual([])
      const report = await audit(f.conn.sql)
      expect(report.violations).toEqual([])
      for (const t of report.totals) expect(t.sum).toBe(0n)
      const paidToUsers = (await f.conn.sql.get(statement<{ s: bigint }>("SELECT coalesce(sum(available), 0) AS s FROM ledger_accounts WHERE user_id IS NOT NULL")))!.s
      const lines = (await f.conn.sql.get(statement<{ s: bigint }>('SELECT coalesce(sum(amount), 0) AS s FROM settlement_lines')))!.s
      expect(paidToUsers).toBe(lines)
    }
  })
})

describe('settlement status (operator)', () => {
  const run = async (env: Record<string, string>, ...argv: string[]) => {
    let out = ''
    let err = ''
    const code = await cli(argv, { env, io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
    return { code, out, err }
  }

  it('shows each settled day with its positions, users and computed / paid / dust per kind, the next day and the funding accounts', async () => {
    const { ctx, operatorEnv, users, fundAccount, position, set } = fresh()
    await users(2)
    await fundAccount(MINING, 1_000n * U)
    await position({ user: 1, base: 100n * U, rate: 10_000 })
    await position({ user: 2, kind: 'destroy', base: 3n, rate: 333_333, remaining: 3n })
    set(T0 + 2 * DAY_MS)
    expect(await settleDue(ctx)).toHaveLength(2)
    const r = await run(operatorEnv, 'settlement', 'status')
    expect(r, r.err).toMatchObject({ code: 0 })
    const day = (d: number) => new Date(d * DAY_MS).toISOString().slice(0, 10)
    expect(r.out).toContain(`${day(D0 + 1)}: 2 positions, 1 users paid`)
    expect(r.out).toContain(`${day(D0)}: 2 positions, 1 users paid`)
    expect(r.out).toMatch(/device +NADI +1 lines +computed 1 +paid 1 +dust 0/)
    expect(r.out).toContain(`next day: ${day(D0 + 2)} — due now`)
    expect(r.out).toContain("mining account: 0 USDT, 998 NADI")
    expect((await run(operatorEnv, 'settlement', 'status', '--days', '1')).out).not.toContain(`${day(D0)}:`)
  })

  it('refuses other words with its usage and reads nothing', async () => {
    for (const bad of [['x'], ['--days'], ['--days', '0'], ['--days', '367'], ['--days', '1e2'], ['--days', '2', 'more']]) expect(parseStatusArgs(bad)).toBeNull()
    expect(parseStatusArgs([])).toBe(7)
    expect(parseStatusArgs(['--days', '30'])).toBe(30)
    const { operatorEnv } = fresh()
    const r = await run(operatorEnv, 'settlement', 'status', '--days', 'all')
    expect(r.code).toBe(2)
    expect(r.err).toContain('usage: settlement status')
  })
})
