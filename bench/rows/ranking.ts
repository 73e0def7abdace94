// Issue 12's ranking row: the daily ranking over 1,000,000 users computed and paid by the settlement
// in ≤ 30 s. A day where a million users each added team performance (amounts drawn so that ties are
// common, reached at random times), and income for the pools; the measured pass is the settlement of
// that day: the pools fed from the day's income, the top N read off the ranking index and paid
// through the ledger. The winners are checked against the pure ranking of all million rows, and a
// second pass must pay nothing. The own rank of the last-ranked user and the first page are read too.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../server/config.ts'
import { openSqliteFile } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { audit, custody, FEES, transfer } from '../../server/ledger/index.ts'
import { DAY_MS, dayOf } from '../../server/modules/release/schedule.ts'
import { createRankingService, registerRankingSteps } from '../../server/modules/ranking/service.ts'
import { rank, type Entry } from '../../server/modules/ranking/rules.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { millis, seconds } from '../support/stats.ts'
import { atMost, info, type BenchContext, type Row } from '../support/types.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'ranking'

const USERS = 1_000_000

export async function run(ctx: BenchContext): Promise<Row[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-ranking-'))
  const conn = openSqliteFile(path.join(dir, 'nadi.sqlite'))
  try {
    const { sqlite, sql } = conn
    migrate(sqlite)
    const now = Date.UTC(2026, 10, 25, 12)
    const day = dayOf(now) - 1
    const dayStartMs = day * DAY_MS
    ctx.log(`ranking: seeding ${USERS.toLocaleString('en-US')} users and their figures of one day…`)
    const t0 = performance.now()
    // Amounts in whole USDT from 1 to 5,000 (ties common), reached at any second of the day: a cheap
    // hash of the id spreads them.
    sqlite.exec(`
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${USERS})
      INSERT INTO users (id, wallet_address, code, name, depth, created_at) SELECT x, printf('0x%040x', x), printf('U%09d', x), 'u' || x, 0, ${dayStartMs} FROM n;
      WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${USERS})
      INSERT INTO ranking_days (day, user_id, amount, reached_at)
        SELECT ${day}, x, (1 + ((x * 2654435761) % 5000)) * 100000000, ${dayStartMs} + ((x * 40503) % 86400) * 1000 FROM n;
    `)
    const seedMs = performance.now() - t0
    // The day's income: 10,000 NADI of withdraw fees.
    await sql.run(statement(
        `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
         VALUES (1, 'NADI', 'nadi', 100000000, 1000000000000, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', '0x${'b'.repeat(64)}', '0x', 0, 3, @at, @at, @at)`,
      ), { at: dayStartMs + 1000 })
    await transfer(sql, { ref: 'bench:ranking:fees', reason: 'withdraw', from: custody('nadi'), to: FEES, asset: 'NADI', amount: 1_000_000_000_000n, at: dayStartMs + 1000 })

    const config = loadConfig({ NADI_ENV: 'test', NADI_DEMO: '0', LOG_LEVEL: 'silent' })
    const c = { db: conn.db, sql: conn.sql, config, now: () => now, log: { error: () => {} } as unknown as Parameters<typeof settleDue>[0]['log'] }
    registerRankingSteps(c)
    const shares = config.ranking.dailyShares

    const t1 = performance.now()
    const settled = await settleDue(c)
    const ms = performance.now() - t1
    const t2 = performance.now()
    const again = await settleDue(c)
    const ms2 = performance.now() - t2

    // The winners paid, against the pure ranking of every row.
    const results = await sql.all(statement<{ rank: bigint; user_id: bigint; prize_nadi: bigint }>("SELECT rank, user_id, prize_nadi FROM ranking_results WHERE pool = 'daily' AND day = ? ORDER BY rank"), day)
    const all = (await sql.all(statement<{ user_id: bigint; amount: bigint; reached_at: bigint }>('SELECT user_id, amount, reached_at FROM ranking_days WHERE day = ?'), day)).map(
      (r): Entry => ({ userId: r.user_id, amount: r.amount, reachedAt: r.reached_at }),
    )
    const ranked = rank(all)
    const expected = ranked.slice(0, shares.length).map((e) => e.userId)
    const winnersRight = JSON.stringify(results.map((r) => r.user_id.toString())) === JSON.stringify(expected.map(String))
    const paidRows = results.filter((r) => r.prize_nadi > 0n).length
    const ok = (await audit(conn.sql)).ok

    const svc = createRankingService(c)
    const last = Number(ranked.at(-1)!.userId)
    const t3 = performance.now()
    const page = await svc.daily(day, 1, 20)
    const pageMs = performance.now() - t3
    const t4 = performance.now()
    const mine = await svc.mine(last, day)
    const mineMs = performance.now() - t4

    return [
      atMost({
        name: `ranking: the day of ${USERS.toLocaleString('en-US')} users settled — pools fed, top ${shares.length} paid (${paidRows} prizes; winners ${winnersRight ? 'match the pure ranking' : 'WRONG'}; audit ${ok ? 'clean' : 'FAILED'})`,
        value: ok && winnersRight && settled.length === 1 && paidRows === shares.length ? ms : Infinity,
        unit: 'ms',
        max: 30_000,
        format: seconds,
        details: { ms, seedMs, settled: settled.map((d) => d.day), results: results.map((r) => [Number(r.rank), Number(r.user_id), r.prize_nadi.toString()]) },
      }),
      atMost({
        name: `ranking: a second settlement pass pays (${millis(ms2)})`,
        value: again.length,
        unit: 'days',
        max: 0,
        format: (v) => `${v} days`,
        target: '0 days',
      }),
      info({ name: `ranking: first page of the day's ranking of ${page.total.toLocaleString('en-US')}`, value: pageMs, unit: 'ms', format: millis }),
      info({ name: `ranking: the own rank of the last-ranked user (#${mine.daily.rank?.toLocaleString('en-US')})`, value: mineMs, unit: 'ms', format: millis }),
    ]
  } finally {
    await conn.close()
    await fs.rm(dir, { recursive: true, force: true })
  }
}
