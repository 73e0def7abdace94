// A release day's pass is idempotent (issue 19): the same day run twice — one pass after another, or on
// PostgreSQL two connections at once (an operator's `release run` beside a jobs leader, two leaders
// overlapping) — pays each instalment once, advances each plan once and counts the day once, and the
// ledger audit stays clean.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, startServer, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { ReleasePlan } from '../../contract/release.ts'
import { openDatabase, transaction } from '../../server/db/index.ts'
import type { SqlConnection } from '../../server/db/connection.ts'
import { audit, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { releaseDay, releaseDue } from '../../server/modules/release/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { runCli } from './support/child.ts'

const start = useServers({}, { audited: true })
const API = '/api/v1'
const DAY = 86_400_000
const dirs: string[] = []
const dbs: TestDatabase[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})

/** Two buyers, each with a car paid by balance: two release plans whose first instalment is tomorrow's. */
async function twoPlans(s: TestServer): Promise<{ buyers: SignedIn[]; plans: ReleasePlan[] }> {
  const list = (await s.get<PagedList<GoodsItem>>(`${API}/car/goodsList?page_size=50`, { lang: 'EN' })).body_.data.list
  const d = (await s.get<GoodsDetail>(`${API}/car/goodsDetail?id=${list[0]!.id}`, { lang: 'EN' })).body_.data
  const spec = d.specs[0]!
  const buyers: SignedIn[] = []
  const plans: ReleasePlan[] = []
  for (const n of [1, 2]) {
    const me = await s.signIn(ROOT_CODE)
    transfer(s.ctx.sqlite, { ref: `test:release-passes:${n}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: parseUnits(spec.price, 8) })
    const opts = { token: me.token, idempotencyKey: idemKey(), lang: 'EN' as const }
    const { order } = (await s.post<PreOrderResult>(`${API}/preOrder/preOrder`, { area: 'car', goods_id: d.id, spec_id: spec.id, quantity: 1 }, opts)).body_.data
    expect((await s.post(`${API}/orders/payByBalance`, { id: order.id }, { ...opts, idempotencyKey: idemKey() })).statusCode).toBe(200)
    buyers.push(me)
    plans.push((await s.get<PagedList<ReleasePlan>>(`${API}/car/releaseOrderList`, { token: me.token, lang: 'EN' })).body_.data.list[0]!)
  }
  return { buyers, plans }
}

/** What one posting of `day` leaves behind: each plan one instalment further, each buyer paid it once, the day counted once. */
function expectPostedOnce(sqlite: SqlConnection, day: number, buyers: SignedIn[], plans: ReleasePlan[]): void {
  const one = (sql: string, ...args: unknown[]) => sqlite.prepare(sql).get(...args) as Record<string, bigint>
  for (const [i, plan] of plans.entries()) {
    const daily = parseUnits(plan.daily, 8)
    expect(one('SELECT released_days, released FROM release_plans WHERE id = ?', plan.id)).toEqual({ released_days: 1n, released: daily })
    expect(balance(sqlite, fund(buyers[i]!.userId), 'NADI').available).toBe(daily)
  }
  const total = plans.reduce((sum, p) => sum + parseUnits(p.daily, 8), 0n)
  expect(one('SELECT plans, users, total FROM release_days WHERE day = ?', day)).toEqual({ plans: 2n, users: 2n, total })
  expect(one("SELECT count(*) AS n FROM ledger_postings WHERE reason = 'release'")).toEqual({ n: 2n })
  expect(audit(sqlite).violations).toEqual([])
}

describe('a release day passed twice', () => {
  it('a second pass of a day already posted (one that looked before the first committed) pays, advances and counts nothing again', async () => {
    const s = await start()
    const { buyers, plans } = await twoPlans(s)
    s.clock.advance(DAY)
    const day = dayOf(s.clock.now())
    expect((await releaseDue(s.ctx)).map((r) => r.plans)).toEqual([2])
    // The jobs leader's pass and an operator's `release run` both read the day as due; the later runs it after the first committed.
    const again = transaction(s.ctx.sqlite, () => releaseDay(s.ctx, day, s.clock.now()))
    expect(await releaseDue(s.ctx)).toEqual([])
    expectPostedOnce(s.ctx.sqlite, day, buyers, plans)
    expect(again).toBeNull()
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
        const waiting = watch.sqlite.prepare(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO release_lines%'",
        )
        const nap = new Int32Array(new SharedArrayBuffer(4))
        const posted = transaction(pass.sqlite, () => {
          const r = releaseDay(pass, day, Date.now())
          // Our lines stay uncommitted until the CLI's pass waits on their keys (the wait is synchronous: PgSync blocks this thread).
          const deadline = Date.now() + 30_000
          while (Number(waiting.pluck().get()) === 0) {
            if (Date.now() > deadline) throw new Error('the CLI’s release pass never waited on our lines')
            Atomics.wait(nap, 0, 0, 20)
          }
          return r
        })
        expect(posted).toMatchObject({ day, plans: 2, users: 2 })
        const res = await cli
        expect(res.err).toBe('')
        expect(res.out.trim()).toBe('nothing due')
        expect(res.code).toBe(0)
        expectPostedOnce(pass.sqlite, day, buyers, plans)
      } finally {
        await pass.close()
        await watch.close()
      }
    },
  )
})
