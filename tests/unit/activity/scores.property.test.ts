// Kept activity scores (migration 022, the hooks in scores.ts) against the reference recompute from
// the raw tables, on random data: a database with events from before 022 is backfilled by it, then
// more random events go through the hooks the paying sites call; after each phase every activity's
// kept rows equal readStandings() of its window. Runs at the database level, so it covers far more events
// than the integration test that goes through the real endpoints.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteFile } from '../../../server/db/index.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { readStandings, scoreFills, scoreMiningBuy, scorePurchase, scoreRegistration } from '../../../server/modules/activity/scores.ts'
import { MEASURES, type Measure } from '../../../contract/activity.ts'

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../server/db/migrations')
const H = 3600_000

function rng(seed: number) {
  let x = seed >>> 0
  return (n: number) => {
    x = (Math.imul(x ^ (x >>> 15), 2654435761) + 0x6d2b79f5) >>> 0
    return x % n
  }
}

describe('kept activity scores', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`equal the recompute from the raw tables after the backfill and after random events through the hooks (seed ${seed})`, async () => {
      const rnd = rng(seed)
      // Migrated up to the one before 022, as a running server's database was.
      const before = fs.mkdtempSync(path.join(os.tmpdir(), 'act-scores-'))
      for (const f of fs.readdirSync(MIGRATIONS)) if (parseInt(f, 10) < 22) fs.copyFileSync(path.join(MIGRATIONS, f), path.join(before, f))
      const c = openSqliteFile(':memory:')
      const s = c.sqlite
      migrate(s, before)
      s.pragma('foreign_keys = OFF') // events stand alone here: no positions, fills or orders behind them

      // The root (no wallet), a demo trader (no wallet), then users each invited by an earlier one.
      let users = 0
      const addUser = (at: number, wallet = true) => {
        const id = ++users
        const inviter = id === 1 || !wallet ? null : 1 + rnd(id - 1)
        s.prepare('INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at) VALUES (@id, @w, @code, @name, @inviter, 0, @at)').run({
          id,
          w: wallet && id !== 1 ? `0x${id.toString(16).padStart(40, '0')}` : null,
          code: `C${id}`,
          name: `u${id}`,
          inviter,
          at,
        })
        return id
      }
      addUser(0, false)
      addUser(0, false)
      const t0 = 100 * H
      // Activities of every measure, windows overlapping, some past, some ahead, one hidden.
      const activities: { id: number; measure: Measure; from: number; to: number }[] = []
      for (let i = 0; i < 10; i++) {
        const measure = MEASURES[i % 4]!
        const from = t0 + (rnd(40) - 20) * H
        const to = from + (1 + rnd(30)) * H
        s.prepare(
          `INSERT INTO activities (slug, title, body, cover, measure, starts_at, ends_at, active, created_at, updated_at) VALUES (@slug, '{}', '{}', '', @measure, @from, @to, @active, 0, 0)`,
        ).run({ slug: `a${i}`, measure, from, to, active: i === 9 ? 0 : 1 })
        activities.push({ id: i + 1, measure, from, to })
      }
      let now = t0 - 30 * H
      let seq = 0
      const order = (user: number, at: number) => {
        const type = ['device', 'gold', 'car', 'destroy', 'node'][rnd(5)]!
        const asset = rnd(4) ? 'USDT' : 'NADI'
        const total = BigInt(1 + rnd(5)) * 100_000_000n * BigInt(1 + rnd(3))
        s.prepare(
          "INSERT INTO pay_orders (order_no, user_id, type, asset, total, state, created_at, expires_at, paid_at, fulfilment) VALUES (@no, @user, @type, @asset, @total, 'completed', @at, @at, @at, 'completed')",
        ).run({ no: `P${++seq}`, user, type, asset, total, at })
        return { user_id: BigInt(user), type, asset, total }
      }
      const buy = (user: number, at: number) => {
        const kind = rnd(3) ? 'destroy' : 'trial'
        const amount = kind === 'trial' ? 0n : BigInt(100 + rnd(500)) * 100_000_000n
        s.prepare(
          'INSERT INTO mining_buys (user_id, kind, order_id, position_id, asset, amount, price, usdt_value, power, gift, created_at) VALUES (@user, @kind, NULL, @pos, @asset, @amount, 1, 1, 1, 0, @at)',
        ).run({ user, kind, pos: ++seq, asset: 'NADI', amount, at })
        return { kind, amount }
      }
      const fill = (buyer: number, seller: number, at: number) => {
        const quote = BigInt(1 + rnd(1000)) * 1_000_000n
        const deal = s.prepare(
          "INSERT INTO trade_deals (fill_id, order_id, user_id, side, role, price, size, quote, fee, fee_asset, created_at) VALUES (@fill, @order, @user, @side, 'maker', 1, 1, @quote, 0, 'USDT', @at)",
        )
        deal.run({ fill: ++seq, order: seq, user: buyer, side: 'buy', quote, at })
        deal.run({ fill: seq, order: seq + 1, user: seller, side: 'sell', quote, at })
        return quote
      }
      const anyone = () => 1 + rnd(users) // the root and the demo trader too: never ranked
      const same = async () => {
        for (const a of activities) {
          const kept = (s.prepare('SELECT user_id, score, reached_at FROM activity_scores WHERE activity_id = ? ORDER BY score DESC, reached_at, user_id').all(a.id) as {
            user_id: bigint
            score: bigint
            reached_at: bigint
          }[]).map((r) => [Number(r.user_id), r.score, Number(r.reached_at)])
          expect(kept, `activity ${a.id} ${a.measure} seed ${seed}`).toEqual((await readStandings(c.sql, a.measure, a.from, a.to)).map((r) => [r.userId, r.score, r.reachedAt]))
        }
      }

      // Phase 1: history before 022 (raw rows only), with ties on purpose (equal amounts, equal times).
      for (let i = 0; i < 300; i++) {
        now += (rnd(3) * H) / 10 // 300 events ≈ 30 h: phase 1 ends near t0, phase 2 runs through the windows
        const k = rnd(4)
        if (k === 0) addUser(now)
        else if (k === 1) order(anyone(), now)
        else if (k === 2) buy(anyone(), now)
        else fill(anyone(), anyone(), now)
      }
      // The backfill (022) and what came with it, up to 024: 025 rebuilds payments, and the foreign-key
      // check of a rebuild would find the stand-alone events this test writes with foreign keys off.
      migrate(s, MIGRATIONS, 24)
      expect(s.prepare('SELECT count(*) FROM activity_scores').pluck().get()).toBeGreaterThan(0n)
      await same()
      const kept = () => Number(s.prepare('SELECT count(*) FROM activity_scores').pluck().get())
      const afterBackfill = kept()

      // Phase 2: events as the sites write them, each raw row with its hook, sometimes out of time order.
      for (let i = 0; i < 300; i++) {
        now += (rnd(3) * H) / 10 // 300 events ≈ 30 h: phase 1 ends near t0, phase 2 runs through the windows
        const at = rnd(5) ? now : now - rnd(4) * H
        const k = rnd(4)
        if (k === 0) {
          const id = addUser(now)
          await scoreRegistration(c.db, id, now)
        } else if (k === 1) {
          const u = anyone()
          await scorePurchase(c.sql, order(u, at), at)
        } else if (k === 2) {
          const u = anyone()
          const b = buy(u, at)
          await scoreMiningBuy(c.sql, b.kind, u, b.amount, at)
        } else {
          const [buyer, seller] = [anyone(), anyone()]
          await scoreFills(c.sql, [{ buyerId: buyer, sellerId: seller, quote: fill(buyer, seller, at), at }])
        }
      }
      await same()
      expect(kept()).toBeGreaterThan(afterBackfill) // the hooks did count something
      await c.close()
    })
  }
})
