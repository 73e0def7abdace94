// A release day's pass is idempotent (issue 19): the same day run twice — one pass after another, or on
// PostgreSQL two connections at once (an operator's `release run` beside a jobs leader, two leaders
// overlapping) — pays each instalment once, advances each plan once and counts the day once, and the
// ledger audit stays clean.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, startServer, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { ReleasePlan } from '../../contract/release.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { releaseDay, releaseDue } from '../../server/modules/release/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { runCli } from './support/child.ts'
import { statement, type Sql } from '../../server/db/query/types.ts'

// Sessions outlive the days the tests move the clock through.
const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } }, { audited: true })
const API = '/api/v1'
const DAY = 86_400_000
const dirs: string[] = []
const dbs: TestDatabase[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})

/** A car paid by balance: its release plan, whose first instalment is the day after the payment's. */
async function buyCar(s: TestServer, me: SignedIn): Promise<ReleasePlan> {
  const list = (await s.get<PagedList<GoodsItem>>(`${API}/car/goodsList?page_size=50`, { lang: 'EN' })).body_.data.list
  const d = (await s.get<GoodsDetail>(`${API}/car/goodsDetail?id=${list[0]!.id}`, { lang: 'EN' })).body_.data
  const spec = d.specs[0]!
  await transfer(s.ctx.sql, { ref: `test:release-passes:${++credits}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: parseUnits(spec.price, 8) })
  const opts = { token: me.token, lang: 'EN' as const }
  const made = await s.post<PreOrderResult>(`${API}/preOrder/preOrder`, { area: 'car', goods_id: d.id, spec_id: spec.id, quantity: 1 }, { ...opts, idempotencyKey: idemKey() })
  expect(made.statusCode, made.body).toBe(200)
  const { order } = made.body_.data
  expect((await s.post(`${API}/orders/payByBalance`, { id: order.id }, { ...opts, idempotencyKey: idemKey() })).statusCode).toBe(200)
  const plans = (await s.get<PagedList<ReleasePlan>>(`${API}/car/releaseOrderList`, opts)).body_.data.list
  return plans.find((p) => p.order_id === order.id)!
}
let credits = 0

/** Two buyers, each with a car: two release plans. */
async function twoPlans(s: TestServer): Promise<{ buyers: SignedIn[]; plans: ReleasePlan[] }> {
  const buyers = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
  const plans = [await buyCar(s, buyers[0]!), await buyCar(s, buyers[1]!)]
  return { buyers, plans }
}

/** Two plans' first day, posted by the job's pass. */
async function firstDayPosted(s: TestServer): Promise<{ buyers: SignedIn[]; plans: ReleasePlan[]; day: number }> {
  const setup = await twoPlans(s)
  s.clock.advance(DAY)
  expect((await releaseDue(s.ctx)).map((r) => r.plans)).toEqual([2])
  return { ...setup, day: dayOf(s.clock.now()) }
}

/** What one posting of `day` leaves behind: each plan one instalment further, each buyer paid it once, the day counted once. */
async function expectPostedOnce(sql: Sql, day: number, buyers: SignedIn[], plans: ReleasePlan[]): Promise<void> {
  const one = (text: string, ...args: unknown[]) => sql.get(statement<Record<string, bigint>>(text), ...args)
  for (const [i, plan] of plans.entries()) {
    const daily = parseUnits(plan.daily, 8)
    expect(await one('SELECT released_days, released FROM release_plans WHERE id = ?', plan.id)).toEqual({ released_days: 1n, released: daily })
    expect((await balance(sql, fund(buyers[i]!.userId), 'NADI')).available).toBe(daily)
  }
  const total = plans.reduce((sum, p) => sum + parseUnits(p.daily, 8), 0n)
  expect(await one('SELECT plans, users, total FROM release_days WHERE day = ?', day)).toEqual({ plans: 2n, users: 2n, total })
  expect(await one("SELECT count(*) AS n FROM ledger_postings WHERE reason = 'release'")).toEqual({ n: 2n })
  expect((await audit(sql)).violations).toEqual([])
}

describe('a release day passed twice', () => {
  it('a second pass of a day already posted (one that looked before the first committed) pays, advances and counts nothing again', async () => {
    const s = await start()
    const { buyers, plans, day } = await firstDayPosted(s)
    // The jobs leader's pass and an operator's `release run` both read the day as due; the later runs it after the first committed.
    const again = await s.ctx.sql.transaction((tx) => releaseDay(tx, day, s.clock.now()))
    expect(await releaseDue(s.ctx)).toEqual([])
    await expectPostedOnce(s.ctx.sql, day, buyers, plans)
    expect(again).toBeNull()
  })

  it('a plan that joins a day already posted (its payment committed after the day’s pass) is paid by the next pass, once, beside its buyer’s first instalment of the day', async () => {
    const s = await start()
    const { buyers, plans, day } = await firstDayPosted(s)
    const late = await buyCar(s, buyers[0]!)
    await s.ctx.sql.run(statement('UPDATE release_plans SET start_day = ? WHERE id = ?'), day, late.id)
    expect(await releaseDue(s.ctx)).toMatchObject([{ day, plans: 1, users: 1, total: parseUnits(late.daily, 8) }])
    expect(await releaseDue(s.ctx)).toEqual([])
    const daily = (p: ReleasePlan) => parseUnits(p.daily, 8)
    expect((await balance(s.ctx.sql, fund(buyers[0]!.userId), 'NADI')).available).toBe(daily(plans[0]!) + daily(late))
    expect((await balance(s.ctx.sql, fund(buyers[1]!.userId), 'NADI')).available).toBe(daily(plans[1]!))
    expect(await s.count('SELECT released_days FROM release_plans WHERE id = ?', late.id)).toBe(1)
    expect(await s.count('SELECT plans FROM release_days WHERE day = ?', day)).toBe(3)
    expect(await s.count('SELECT total FROM release_days WHERE day = ?', day)).toBe(Number(daily(plans[0]!) + daily(plans[1]!) + daily(late)))
  })

  it.runIf(testBackend() === 'postgres')(
    'two connections passing the same day at once: the CLI’s `release run` waits on the lines the other inserted, then posts nothing',
    { timeout: 60_000 },
    async () => {
      const db = freshDatabase()
      dbs.push(db)
      // The plans are made through a server, which then stops: the CLI takes the writer lock the server held.
      const s = await startServer({ env: { NADI_DATABASE_URL: db.url } })
      let setup: Awaited<ReturnType<typeof twoPlans>>
      try {
        setup = await twoPlans(s)
      } finally {
        await s.close()
      }
      const { buyers, plans } = setup
      const day = Number(plans[0]!.start_date) / DAY
      const pass = openDatabase(db.url)
      const watch = openDatabase(db.url)
      try {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-release-'))
        dirs.push(dir)
        // The CLI passes every due day to now (the plans started in the test clock's past), the first being ours.
        const cli = runCli(dir, ['release', 'run'], { NADI_DATABASE_URL: db.url })
        const waiting = statement<{ n: bigint }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO release_lines%'",
        )
        const posted = await pass.sql.transaction(async (tx) => {
          const r = await releaseDay(tx, day, Date.now())
          // Our lines stay uncommitted until the CLI's pass waits on their keys, watched from another connection.
          const deadline = Date.now() + 30_000
          while (Number((await watch.sql.get(waiting))!.n) === 0) {
            if (Date.now() > deadline) throw new Error('the CLI’s release pass never waited on our lines')
            await sleep(20)
          }
          return r
        })
        expect(posted).toMatchObject({ day, plans: 2, users: 2 })
        const res = await cli
        expect(res.err).toBe('')
        expect(res.out.trim()).toBe('nothing due')
        expect(res.code).toBe(0)
        await expectPostedOnce(pass.sql, day, buyers, plans)
      } finally {
        await pass.close()
        await watch.close()
      }
    },
  )
})
