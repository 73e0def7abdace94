// 017_team.sql on a database that already has nodes: the team node counts start out right, counting
// each active node at every strict ancestor of its holder, and pending, returned or cancelled ones nowhere.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../server/db/migrations')
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.splice(0)) f()
})

it('backfills the team node counts from the nodes already active', () => {
  // Migrations up to 016 only, as a database made before this one.
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-mig-'))
  for (const f of fs.readdirSync(MIGRATIONS)) if (parseInt(f, 10) < 17) fs.copyFileSync(path.join(MIGRATIONS, f), path.join(before, f))
  const c: SqliteDatabase = openSqliteFile(':memory:')
  cleanup.push(() => {
    c.sqlite.close()
    fs.rmSync(before, { recursive: true, force: true })
  })
  const { sqlite } = c
  migrate(sqlite, before)
  // 1 ← 2 ← 3 ← 4, and 5 under 1.
  for (const [id, inviter, depth] of [[1, null, 0], [2, 1, 1], [3, 2, 2], [4, 3, 3], [5, 1, 1]] as const) {
    sqlite.prepare('INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) VALUES (@id, @a, @c, @n, @inviter, @depth, 0)').run({ id, a: `0x${String(id).padStart(40, '0')}`, c: `C${id}`, n: `u${id}`, inviter, depth })
  }
  for (const [id, type] of [[1, 'elite'], [2, 'core'], [3, 'genesis']] as const) {
    sqlite.prepare('INSERT INTO node_tiers (id, type, seats_total, seats_left, limit_num, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, created_at, updated_at) VALUES (@id, @type, 10, 10, 5, 1, 10, 1, @id, 0, 0, 0, 0)').run({ id, type })
  }
  let order = 0
  const node = (user: number, tier: number, status: string) => {
    order++
    sqlite.prepare("INSERT INTO pay_orders (id, order_no, user_id, type, asset, total, state, created_at, expires_at) VALUES (@id, @no, @user, 'node', 'USDT', 1, 'completed', 0, 0)").run({ id: order, no: `N${order}`, user })
    sqlite.prepare('INSERT INTO node_orders (user_id, tier_id, order_id, status, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, airdrop_multiplier, advanced_agent, created_at) VALUES (@user, @tier, @order, @status, 1, 10, 1, 1, 0, 0, 2, 1, 0)').run({ user, tier, order, status })
  }
  node(4, 2, 'active') // core under 3, 2, 1
  node(4, 2, 'active')
  node(3, 3, 'active') // genesis under 2, 1
  node(5, 1, 'active') // elite under 1
  node(4, 1, 'pending')
  node(4, 3, 'returned')
  node(2, 1, 'cancelled')

  migrate(sqlite)
  const counts = sqlite.prepare('SELECT id, team_elite AS e, team_core AS c, team_genesis AS g FROM users ORDER BY id').safeIntegers(false).all()
  expect(counts).toEqual([
    { id: 1, e: 1, c: 2, g: 1 },
    { id: 2, e: 0, c: 2, g: 1 },
    { id: 3, e: 0, c: 2, g: 0 },
    { id: 4, e: 0, c: 0, g: 0 },
    { id: 5, e: 0, c: 0, g: 0 },
  ])
})
