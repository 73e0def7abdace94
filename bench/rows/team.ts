// Issue 12's rows: a purchase 10,000 levels down the referral tree updating every ancestor (the
// node purchase's tree work: performance and team node counts, one transaction), and the first page
// of the team list of a user with 100,000 members, on a random tree and on a star (all 100,000
// direct, where a walk that queued each member's children would queue them all). On a database file,
// as the server runs.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { openSqliteFile, transaction, type SqliteDatabase } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { createTeamService } from '../../server/modules/team/service.ts'
import { addPerformanceIn } from '../../server/modules/user/performance.ts'
import { statement } from '../../server/db/query/types.ts'
import { millis, summarize } from '../support/stats.ts'
import { atMost, type BenchContext, type Row } from '../support/types.ts'

export const id = 'team'

const DEPTH = 10_000
const MEMBERS = 100_000
const USDT = 100_000_000_000n // 1,000 USDT

async function withDb<T>(fn: (sqlite: SqliteDatabase['sqlite'], sql: SqliteDatabase['sql']) => T | Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-team-'))
  const conn = openSqliteFile(path.join(dir, 'nadi.sqlite'))
  try {
    migrate(conn.sqlite)
    return await fn(conn.sqlite, conn.sql)
  } finally {
    await conn.close()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

async function deepPurchase(ctx: BenchContext): Promise<Row> {
  return withDb(async (sqlite, sql) => {
    // A chain: user 1 at the top, user DEPTH + 1 at depth DEPTH.
    sqlite.exec(`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${DEPTH + 1})
      INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, team_num, created_at)
      SELECT x, printf('0x%040x', x), printf('U%09d', x), 'u' || x, nullif(x - 1, 0), x - 1, ${DEPTH + 1} - x, 0 FROM n`)
    const buyer = DEPTH + 1
    const samples: number[] = []
    for (let i = 0; i < ctx.runs + 1; i++) {
      const t0 = performance.now()
      await sql.transaction((tx) => addPerformanceIn(tx, sql, buyer, USDT, 'core'))
      if (i > 0) samples.push(performance.now() - t0) // the first warms the page cache
    }
    const n = BigInt(ctx.runs + 1)
    const wrong = Number(
      (await sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM users WHERE id < @buyer AND (team_performance <> @perf OR team_core <> @nodes)'), { buyer, perf: USDT * n, nodes: n }))!.n,
    )
    const s = summarize(samples)
    return atMost({
      name: `purchase at depth ${DEPTH.toLocaleString('en-US')}: every ancestor's team performance and node count updated, one transaction (max ${millis(s.max)}${wrong ? `, ${wrong} ancestors WRONG` : ''})`,
      value: wrong ? Infinity : s.median,
      unit: 'ms',
      max: 50,
      format: millis,
      details: { ...s, ancestorsWrong: wrong },
    })
  })
}

async function firstPage(ctx: BenchContext, shape: 'random' | 'star'): Promise<Row> {
  return withDb(async (sqlite, sql) => {
    ctx.log(`team: seeding ${MEMBERS.toLocaleString('en-US')} members (${shape})…`)
    const insert = sqlite.prepare('INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) VALUES (@id, @addr, @code, @name, @inviter, @depth, 0)')
    const depth = new Int32Array(MEMBERS + 2)
    let seed = 12345
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % n)
    transaction(sqlite, () => {
      insert.run({ id: 1, addr: null, code: 'B0000000', name: 'top', inviter: null, depth: 0 })
      for (let id = 2; id <= MEMBERS + 1; id++) {
        const inviter = shape === 'star' ? 1 : 1 + rand(id - 1)
        depth[id] = depth[inviter]! + 1
        insert.run({ id, addr: `0x${id.toString(16).padStart(40, '0')}`, code: `B${String(id).padStart(7, '0')}`, name: `m${id}`, inviter, depth: depth[id] })
      }
      sqlite.prepare('UPDATE users SET team_num = @n, zhi_num = (SELECT count(*) FROM users WHERE inviter_id = 1) WHERE id = 1').run({ n: MEMBERS })
    })
    const team = createTeamService({ sql })
    const samples: number[] = []
    let listed = 0
    for (let i = 0; i < ctx.runs + 1; i++) {
      const t0 = performance.now()
      const page = await team.list(1, 1, 10, undefined)
      if (i > 0) samples.push(performance.now() - t0)
      listed = page.total === MEMBERS ? page.list.length : -1
    }
    const s = summarize(samples)
    const direct = Number((await sql.get(statement<{ zhi_num: bigint }>('SELECT zhi_num FROM users WHERE id = 1')))!.zhi_num)
    return atMost({
      name: `team list, first page of a user with ${MEMBERS.toLocaleString('en-US')} members (${shape === 'star' ? 'all of them direct' : `random tree, ${direct} direct, ${Math.max(...depth)} deep`}; max ${millis(s.max)})`,
      value: listed === 10 ? s.median : Infinity,
      unit: 'ms',
      max: 50,
      format: millis,
      details: { ...s, shape, direct },
    })
  })
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  return [await deepPurchase(ctx), await firstPage(ctx, 'random'), await firstPage(ctx, 'star')]
}
