// The referral tree's figures against brute force, on a real SQLite (issue 12 part 1): over random
// trees and random purchases, every member's team performance is the sum of me_performance over
// their subtree (the member excluded, as team_num counts), the direct performance is the sum over
// direct referrals, and the team node counts are the nodes held below. The team list's order, paging
// and search match a breadth-first walk done in JS. And a chain 100,000 levels deep neither overflows
// nor hits a recursion limit.

import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteFile, transaction, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { addPerformanceIn, addTeamNodeIn } from '../../../server/modules/user/performance.ts'
import { createTeamService } from '../../../server/modules/team/service.ts'
import { parseMoney } from '../../../contract/money.ts'
import { parseTeamSearch } from '../../../contract/teamRules.ts'

const TYPES = ['elite', 'core', 'genesis'] as const
const open: SqliteDatabase[] = []
afterEach(async () => {
  for (const c of open.splice(0)) {
    await c.close()
    c.sqlite.close()
  }
})

function freshDatabase() {
  const c = openSqliteFile(':memory:')
  migrate(c.sqlite)
  open.push(c)
  return c
}

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (((t ^ (t >>> 14)) >>> 0) % n) as number
  }
}

/** Users 1..n; user 1 is the root, each later user invited by a random earlier one (a chain, a star, or anything between). */
function randomTree(sqlite: SqliteDatabase['sqlite'], n: number, rand: (n: number) => number): number[] {
  const parent = [0, 0] // parent[id], 1-based; 0 = none
  const depth = [0, 0]
  const insert = sqlite.prepare('INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) VALUES (@id, @addr, @code, @name, @inviter, @depth, 0)')
  const count = sqlite.prepare(`WITH RECURSIVE up(id) AS (SELECT @inviter UNION ALL SELECT u.inviter_id FROM users u JOIN up ON u.id = up.id WHERE u.inviter_id IS NOT NULL)
    UPDATE users SET team_num = team_num + 1 WHERE id IN (SELECT id FROM up)`)
  const direct = sqlite.prepare('UPDATE users SET zhi_num = zhi_num + 1 WHERE id = @inviter')
  transaction(sqlite, () => {
    insert.run({ id: 1, addr: '0x'.padEnd(42, '0'), code: 'R0000001', name: 'root', inviter: null, depth: 0 })
    for (let id = 2; id <= n; id++) {
      // Lean towards recent users half the time, so some trees grow deep.
      const inviter = rand(2) === 0 ? Math.max(1, id - 1 - rand(3)) : 1 + rand(id - 1)
      parent[id] = inviter
      depth[id] = depth[inviter]! + 1
      insert.run({ id, addr: `0x${id.toString(16).padStart(40, '0')}`, code: `U${String(id).padStart(7, '0')}`, name: `u${id}`, inviter, depth: depth[id] })
      direct.run({ inviter })
      count.run({ inviter })
    }
  })
  return parent
}

interface Row {
  id: bigint
  zhi_num: bigint
  team_num: bigint
  me_performance: bigint
  zhi_performance: bigint
  team_performance: bigint
  team_elite: bigint
  team_core: bigint
  team_genesis: bigint
}

describe('team figures on random trees and purchases', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: each member's team performance is the sum over their subtree, direct the sum over their referrals, nodes the ones held below`, async () => {
      const c = freshDatabase()
      const sqlite = c.sqlite
      const rand = prng(seed)
      const n = 2 + rand(300)
      const parent = randomTree(sqlite, n, rand)
      const own = new Array<bigint>(n + 1).fill(0n)
      const held = Array.from({ length: n + 1 }, () => ({ elite: 0, core: 0, genesis: 0 }))
      const nodes: { user: number; type: (typeof TYPES)[number] }[] = []
      for (let k = 0, purchases = rand(400); k < purchases; k++) {
        const user = 1 + rand(n)
        const usdt = BigInt(1 + rand(10 ** 9)) * BigInt(1 + rand(1000))
        await c.sql.transaction(async (tx) => {
          if (rand(4) === 0) {
            // A node bought: its performance and its count in one walk.
            const type = TYPES[rand(3)]!
            await addPerformanceIn(tx, c.sql, user, usdt, type)
            nodes.push({ user, type })
            return
          }
          await addPerformanceIn(tx, c.sql, user, usdt)
          if (nodes.length && rand(6) === 0) {
            // A stake comes back: the node leaves the counts.
            const [gone] = nodes.splice(rand(nodes.length), 1)
            await addTeamNodeIn(tx, gone!.user, gone!.type, -1)
          }
        })
        own[user]! += usdt
      }
      for (const x of nodes) held[x.user]![x.type]++

      const expect_ = Array.from({ length: n + 1 }, () => ({ zhi: 0, team: 0, zhiPerf: 0n, teamPerf: 0n, elite: 0, core: 0, genesis: 0 }))
      for (let id = 2; id <= n; id++) {
        expect_[parent[id]!]!.zhi++
        expect_[parent[id]!]!.zhiPerf += own[id]!
        for (let p = parent[id]!; p !== 0; p = parent[p] ?? 0) {
          const e = expect_[p]!
          e.team++
          e.teamPerf += own[id]!
          e.elite += held[id]!.elite
          e.core += held[id]!.core
          e.genesis += held[id]!.genesis
        }
      }
      const rows = sqlite.prepare('SELECT * FROM users ORDER BY id').all() as Row[]
      expect(rows).toHaveLength(n)
      for (const r of rows) {
        const id = Number(r.id)
        const e = expect_[id]!
        expect(
          [r.zhi_num, r.team_num, r.me_performance, r.zhi_performance, r.team_performance, r.team_elite, r.team_core, r.team_genesis],
          `seed ${seed}, user ${id}`,
        ).toEqual([BigInt(e.zhi), BigInt(e.team), own[id], e.zhiPerf, e.teamPerf, BigInt(e.elite), BigInt(e.core), BigInt(e.genesis)])
      }
    })
  }
})

describe('the team list on random trees', () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: pages follow the breadth-first order (generation, then ID) and search finds exactly the members below`, async () => {
      const c = freshDatabase()
      const sqlite = c.sqlite
      const rand = prng(seed)
      const n = 50 + rand(150)
      const parent = randomTree(sqlite, n, rand)
      const kids = Array.from({ length: n + 1 }, () => [] as number[])
      for (let id = 2; id <= n; id++) kids[parent[id]!]!.push(id)
      const team = createTeamService({ sql: c.sql })
      for (const me of [1, 2, 1 + rand(n), 1 + rand(n)]) {
        // Breadth first in JS: generation by generation, each sorted by ID.
        const order: { id: number; gen: number }[] = []
        for (let level = [me], gen = 1; level.length; gen++) {
          level = level.flatMap((x) => kids[x]!).sort((a, b) => a - b)
          for (const id of level) order.push({ id, gen })
        }
        const size = 1 + rand(12)
        const pages = Math.max(1, Math.ceil(order.length / size))
        const got: { id: number; gen: number }[] = []
        for (let page = 1; page <= pages; page++) {
          const p = await team.list(me, page, size, undefined)
          expect(p.total).toBe(order.length)
          got.push(...p.list.map((m) => ({ id: m.id, gen: m.generation })))
        }
        expect(got).toEqual(order)
        await expect(team.list(me, pages + 1, size, undefined)).rejects.toThrow()
        const below = new Set(order.map((o) => o.id))
        for (let id = 1; id <= n + 2; id++) {
          const r = await team.list(me, 1, 10, String(id))
          expect(r.list.map((m) => m.id), `me ${me}, search ${id}`).toEqual(below.has(id) ? [id] : [])
        }
      }
    })
  }
})

describe('depth', () => {
  it('a purchase 100,000 levels down reaches the root: the walk is a loop in SQLite, no stack, no recursion limit', async () => {
    const c = freshDatabase()
    const sqlite = c.sqlite
    const N = 100_000
    sqlite.exec(`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${N + 1})
      INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, team_num, created_at)
      SELECT x, printf('0x%040x', x), printf('U%09d', x), 'u' || x, nullif(x - 1, 0), x - 1, ${N + 1} - x, 0 FROM n`)
    await c.sql.transaction((tx) => addPerformanceIn(tx, c.sql, N + 1, parseMoney('12.5')!, 'genesis'))
    const stats = sqlite.prepare('SELECT count(*) AS n, min(team_performance) AS lo, max(team_performance) AS hi, sum(team_genesis) AS g FROM users WHERE id <= @last').get({ last: N }) as Record<string, bigint>
    expect(stats).toEqual({ n: BigInt(N), lo: parseMoney('12.5'), hi: parseMoney('12.5'), g: BigInt(N) })
    // The root finds the deepest member by ID, 100,000 generations down; its first page is the ten nearest.
    const team = createTeamService({ sql: c.sql })
    expect((await team.list(1, 1, 10, String(N + 1))).list).toMatchObject([{ id: N + 1, generation: N, me_performance: '12.5' }])
    const first = await team.list(1, 1, 10, undefined)
    expect(first.total).toBe(N)
    expect(first.list.map((m) => [m.id, m.generation, m.team_performance])).toEqual(Array.from({ length: 10 }, (_, i) => [i + 2, i + 1, '12.5']))
  })
})

describe('the search rule (contract/teamRules.ts)', () => {
  it('takes an exact ID, trims spaces, and refuses control characters and anything that is not an ID', () => {
    expect(parseTeamSearch(undefined)).toEqual({ ok: true, id: null })
    expect(parseTeamSearch('  ')).toEqual({ ok: true, id: null })
    expect(parseTeamSearch(' 42 ')).toEqual({ ok: true, id: 42 })
    for (const bad of ['4\u00002', '\u001b[1m', '42\n', '\u200b42', '\u202e42']) expect(parseTeamSearch(bad), JSON.stringify(bad)).toEqual({ ok: false, error: 'team.errors.searchControl' })
    for (const bad of ['abc', '4 2', '0', '-1', '+1', '1e3', '0x10', '１２', '99999999999999999']) expect(parseTeamSearch(bad), bad).toEqual({ ok: false, error: 'team.errors.searchNotId' })
  })
})
