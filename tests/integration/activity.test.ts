// Activities (issue 12 part 4): the operator's file through the CLI (good, bad, edit rules), the three
// endpoints with every refusal, scores from real purchases and registrations with ties broken by who
// got there first, and the payout: once per rank, halted whole and visibly when the prize account is
// short. The ledger audit passes after each test.

import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli } from '../../server/cli.ts'
import { statement } from '../../server/db/query/types.ts'
import { translate } from '../../server/i18n.ts'
import { ACTIVITY_PRIZES, balance, custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { readStandings, scorePurchase } from '../../server/modules/activity/scores.ts'
import { ActivityFileInvalid, checkActivityFile, loadActivities } from '../../server/modules/activity/activityFile.ts'
import { payDueActivities, SETTLE_GRACE_MS } from '../../server/modules/activity/payout.ts'
import type { ActivityDetail, ActivityItem, ActivityRank } from '../../contract/activity.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { UserInfo } from '../../contract/user.ts'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } }, { audited: true })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)

const msg = (key: string, params?: Record<string, string | number>, lang: 'EN' | 'TW' = 'EN') => translate(lang, key, params)
const get = <T>(s: TestServer, who: SignedIn | null, p: string, lang = 'EN') => s.get<T>(`${API}/${p}`, { token: who?.token, lang })
const post = <T>(s: TestServer, who: SignedIn, p: string, body: unknown) => s.post<T>(`${API}/${p}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
let refs = 0
const credit = (s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:activity:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: units(amount) })

const LANGS = ['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS']
const T = (text: string) => Object.fromEntries(LANGS.map((l) => [l, `${text} (${l})`]))
const iso = (ms: number) => new Date(ms).toISOString()
const entry = (over: Record<string, unknown> = {}) => ({
  slug: 'test-race',
  title: T('Test race'),
  body: T('Buy the most.'),
  cover: '/activities/device-sprint.svg',
  measure: 'purchases',
  starts_at: iso(Date.now() + DAY),
  ends_at: iso(Date.now() + 10 * DAY),
  prizes: [
    { from: 1, to: 1, asset: 'USDT', amount: '100' },
    { from: 2, to: 3, asset: 'NADI', amount: '50' },
  ],
  ...over,
})
/** Loads activities at the server's clock, as `activity load` would at that moment. */
const load = (s: TestServer, ...entries: Record<string, unknown>[]) => s.ctx.sql.transaction(async (tx) => loadActivities(tx, checkActivityFile({ activities: entries }), s.clock.now()))
const idOf = (s: TestServer, slug: string) => s.count('SELECT id FROM activities WHERE slug = ?', slug)

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}
const file = (s: TestServer, body: unknown) => {
  const f = path.join(s.dir, `activities-${Math.random().toString(36).slice(2)}.json`)
  fs.writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body))
  return f
}

const codeOf = async (s: TestServer, who: SignedIn) => (await get<UserInfo>(s, who, 'user/info')).body_.data.code

/**
 * A paid product order at `at` (the purchases measure reads paid product orders), written as the
 * paying transaction writes it: the row and its score, together (a real purchase below goes through the shop).
 */
let orders = 0
async function paidOrder(s: TestServer, userId: number, usdt: string, at: number, type = 'car') {
  await s.ctx.sql.transaction(async (tx) => {
    await tx.run(statement("INSERT INTO pay_orders (order_no, user_id, type, asset, total, state, created_at, expires_at, paid_at, fulfilment) VALUES (?, ?, ?, 'USDT', ?, 'completed', ?, ?, ?, 'completed')"), `T${++orders}`, userId, type, units(usdt), at, at, at)
    await scorePurchase(tx, { user_id: BigInt(userId), type, asset: 'USDT', total: units(usdt) }, at)
  })
}

describe('activity load (the operator\'s file)', () => {
  it('adds, then updates by slug; a bad file is refused naming the problem and writes nothing', async () => {
    const s = await start()
    const count = () => s.count('SELECT count(*) FROM activities')
    const before = await count()
    const ok = await runCli(s, 'activity', 'load', file(s, { activities: [entry(), entry({ slug: 'test-cup', measure: 'trading' })] }))
    expect(ok).toMatchObject({ code: 0, out: 'activities loaded: 2 added, 0 updated\n' })
    expect(await count()).toBe(before + 2)
    const again = await runCli(s, 'activity', 'load', file(s, { activities: [entry({ title: T('Renamed race') })] }))
    expect(again.out).toBe('activities loaded: 0 added, 1 updated\n')
    expect(await s.count("SELECT count(*) FROM activities WHERE slug = 'test-race' AND title LIKE '%Renamed race (EN)%'")).toBe(1)

    const bad: [unknown, RegExp][] = [
      ['{ not json', /activity load: /],
      [{ activities: [entry({ measure: 'likes' })] }, /does not match the schema/],
      [{ activities: [entry({ title: { ...T('x'), MS: undefined } })] }, /does not match the schema/],
      [{ activities: [entry({ ends_at: entry().starts_at })] }, /ends_at must be after starts_at/],
      [{ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '0.000000001' }] })] }, /does not match the schema/],
      [{ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '0' }] })] }, /above 0/],
      [{ activities: [entry({ prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '1' }, { from: 3, to: 3, asset: 'USDT', amount: '1' }] })] }, /without gaps/],
      // A good entry before a bad one: the whole file is refused, the good one not written either.
      [{ activities: [entry({ slug: 'would-be-new' }), entry({ slug: 'past', starts_at: iso(Date.now() - 3 * DAY), ends_at: iso(Date.now() - DAY) })] }, /must end in the future/],
    ]
    const snapshot = () => s.ctx.sql.all(statement<{ slug: string; title: string; measure: string; starts_at: bigint; ends_at: bigint }>('SELECT slug, title, measure, starts_at, ends_at FROM activities ORDER BY id'))
    const was = await snapshot()
    for (const [body, why] of bad) {
      const r = await runCli(s, 'activity', 'load', file(s, body))
      expect(r.code, JSON.stringify(body).slice(0, 80)).toBe(1)
      expect(r.err).toMatch(why)
    }
    expect(await snapshot()).toEqual(was)
    expect((await runCli(s, 'activity', 'load')).code).toBe(2)
  })

  it('once an activity runs, its measure, prizes and start stay; its texts and a later end may change; once ended, its window stays', async () => {
    const s = await start()
    const t0 = s.clock.now()
    const base = entry({ starts_at: iso(t0 + DAY), ends_at: iso(t0 + 5 * DAY) })
    await load(s, base)
    // Upcoming: anything may change.
    await load(s, { ...base, measure: 'destroy', prizes: [{ from: 1, to: 2, asset: 'NADI', amount: '10' }] })
    expect(await s.count("SELECT count(*) FROM activity_prizes WHERE activity_id = ? AND asset = 'NADI' AND rank_to = 2", await idOf(s, 'test-race'))).toBe(1)
    const running = { ...base, measure: 'destroy', prizes: [{ from: 1, to: 2, asset: 'NADI', amount: '10' }] }
    s.clock.advance(2 * DAY)
    await expect(load(s, { ...running, measure: 'purchases' })).rejects.toThrow(/has started; its measure can no longer change/)
    await expect(load(s, { ...running, prizes: [{ from: 1, to: 2, asset: 'NADI', amount: '11' }] })).rejects.toThrow(/its prizes can no longer change/)
    await expect(load(s, { ...running, starts_at: iso(t0) })).rejects.toThrow(/its starts_at can no longer change/)
    await expect(load(s, { ...running, ends_at: iso(t0 + DAY + 1000) })).rejects.toThrow(/not into the past/)
    expect(await load(s, { ...running, title: T('New name'), ends_at: iso(t0 + 6 * DAY) })).toEqual({ added: 0, updated: 1 })
    s.clock.advance(5 * DAY)
    await expect(load(s, { ...running, ends_at: iso(t0 + 8 * DAY) })).rejects.toThrow(ActivityFileInvalid)
    await expect(load(s, { ...running, ends_at: iso(t0 + 8 * DAY) })).rejects.toThrow(/has ended; its ends_at can no longer change/)
    expect(await load(s, { ...running, ends_at: iso(t0 + 6 * DAY), body: T('Thanks for taking part') })).toEqual({ added: 0, updated: 1 })
  })
})

describe('the endpoints', () => {
  it('list by status in the caller\'s language, paged; a page past the last is refused, localized', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const t0 = s.clock.now()
    await load(
      s,
      entry({ slug: 'up-a', starts_at: iso(t0 + DAY), ends_at: iso(t0 + 2 * DAY) }),
      entry({ slug: 'run-a', starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }),
      entry({ slug: 'run-b', starts_at: iso(t0 - DAY), ends_at: iso(t0 + 3 * DAY) }),
    )
    const running = (await get<PagedList<ActivityItem>>(s, me, 'activity/list?status=running&page_size=100')).body_.data
    // The demo's running activity too; each one running, in English.
    expect(running.list.map((a) => a.status)).toEqual(running.list.map(() => 'running'))
    expect(running.list.map((a) => a.title)).toEqual(expect.arrayContaining(['Test race (EN)']))
    expect(running.total).toBe(running.list.length)
    const runA = await idOf(s, 'run-a')
    expect(running.list.find((a) => a.id === runA)).toMatchObject({ measure: 'purchases', prizes: [{ from: 1, to: 1, asset: 'USDT', amount: '100' }, { from: 2, to: 3, asset: 'NADI', amount: '50' }] })
    const tw = (await get<PagedList<ActivityItem>>(s, me, 'activity/list?status=upcoming&page_size=100', 'TW')).body_.data
    const upA = await idOf(s, 'up-a')
    expect(tw.list.find((a) => a.id === upA)?.title).toBe('Test race (TW)')
    expect((await get<PagedList<ActivityItem>>(s, me, 'activity/list?status=ended')).body_.data).toEqual({ list: [], total: 0 })

    const page1 = (await get<PagedList<ActivityItem>>(s, me, 'activity/list?status=running&page_size=1')).body_.data
    expect(page1.list).toHaveLength(1)
    const past = await get(s, me, `activity/list?status=running&page_size=1&page=${page1.total + 1}`)
    expect(past.statusCode).toBe(400)
    expect(past.body_.msg).toBe(msg('activity.errors.pageOutOfRange', { pages: page1.total }))
    const pastTw = await get(s, me, 'activity/list?status=ended&page=2', 'TW')
    expect(pastTw.body_.msg).toBe(msg('activity.errors.pageOutOfRange', { pages: 1 }, 'TW'))
    for (const q of ['status=soon', 'page=0', 'page_size=101', 'page=abc', 'stauts=running', 'pagesize=5']) expect((await get(s, me, `activity/list?${q}`)).statusCode, q).toBe(400)
    expect((await get(s, null, 'activity/list')).statusCode).toBe(401)
  })

  it('detail in the caller\'s language; an unknown or hidden id is refused, localized', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 + DAY), ends_at: iso(t0 + 2 * DAY) }), entry({ slug: 'hidden', active: false, starts_at: iso(t0 + DAY), ends_at: iso(t0 + 2 * DAY) }))
    const d = (await get<ActivityDetail>(s, me, `activity/detail?id=${await idOf(s, 'test-race')}`, 'JP')).body_.data
    expect(d).toMatchObject({ title: 'Test race (JP)', body: 'Buy the most. (JP)', status: 'upcoming', starts_at: t0 + DAY, ends_at: t0 + 2 * DAY, settled: false, server_time: t0 })
    for (const id of [999_999, await idOf(s, 'hidden')]) {
      const r = await get(s, me, `activity/detail?id=${id}`, 'TW')
      expect(r.statusCode).toBe(404)
      expect(r.body_.msg).toBe(msg('activity.errors.notFound', {}, 'TW'))
    }
    expect((await get(s, me, 'activity/detail?id=x')).statusCode).toBe(400)
    // A mistyped parameter is refused, not silently ignored.
    expect((await get(s, me, `activity/detail?id=${await idOf(s, 'test-race')}&lang=TW`)).statusCode).toBe(400)
    expect((await get(s, me, `activity/rank?id=${await idOf(s, 'test-race')}&userid=1`)).statusCode).toBe(400)
  })

  it('a real purchase puts the buyer on the board; ties go to who reached the score first; the caller is pinned outside the top; an upcoming board and a user not in the activity are refused', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }), entry({ slug: 'later', starts_at: iso(t0 + DAY), ends_at: iso(t0 + 2 * DAY) }))
    const id = await idOf(s, 'test-race')
    const [a, b, c, outsider] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    // b and c tie at 300 USDT; c got there first. a has 500. An order before the window does not count.
    await paidOrder(s, a.userId, '500', t0 - 3600_000)
    await paidOrder(s, b.userId, '100', t0 - 7200_000)
    await paidOrder(s, b.userId, '200', t0 - 1800_000)
    await paidOrder(s, c.userId, '300', t0 - 3000_000, 'gold')
    await paidOrder(s, outsider.userId, '9999', t0 - 2 * DAY)
    // The outsider buys a car now, through the shop, paid from balance.
    const cars = (await get<PagedList<GoodsItem>>(s, null, 'car/goodsList?page_size=50')).body_.data.list
    const car = (await get<GoodsDetail>(s, null, `car/goodsDetail?id=${cars[0]!.id}`)).body_.data
    await credit(s, outsider.userId, 'USDT', '1000000')
    const { order } = (await post<PreOrderResult>(s, outsider, 'preOrder/preOrder', { area: 'car', goods_id: car.id, spec_id: car.specs[0]!.id, quantity: 1 })).body_.data
    expect((await post(s, outsider, 'orders/payByBalance', { id: order.id })).statusCode).toBe(200)

    const rank = (await get<ActivityRank>(s, outsider, `activity/rank?id=${id}&limit=2`)).body_.data
    expect(rank.participants).toBe(4)
    const carPrice = car.specs[0]!.price
    const order4 = [
      { user: a.userId, score: '500' },
      { user: c.userId, score: '300' },
      { user: b.userId, score: '300' },
      { user: outsider.userId, score: carPrice },
    ].sort((x, y) => Number(y.score) - Number(x.score))
    expect(rank.top.map((e) => [e.user_id, e.score])).toEqual(order4.slice(0, 2).map((x) => [x.user, x.score]))
    expect(rank.top[0]!.prize).toEqual({ asset: 'USDT', amount: '100' })
    const outsiderRank = order4.findIndex((x) => x.user === outsider.userId) + 1
    expect(rank.me).toMatchObject({ rank: outsiderRank, user_id: outsider.userId, score: carPrice })
    const full = (await get<ActivityRank>(s, a, `activity/rank?id=${id}`)).body_.data
    const cAt = full.top.findIndex((e) => e.user_id === c.userId)
    expect(full.top[cAt + 1]!.user_id).toBe(b.userId) // the tie: c reached 300 first
    expect(full.me?.user_id).toBe(a.userId)
    // The caller's own place by user ID; one of their team with no score is refused, localized.
    expect((await get<ActivityRank>(s, a, `activity/rank?id=${id}&user_id=${a.userId}`)).body_.data.me?.user_id).toBe(a.userId)
    const none = await s.signIn(ROOT_CODE)
    const recruit = await s.signIn(await codeOf(s, none))
    const notIn = await get(s, none, `activity/rank?id=${id}&user_id=${recruit.userId}`, 'TW')
    expect(notIn.statusCode).toBe(404)
    expect(notIn.body_.msg).toBe(msg('activity.errors.notInActivity', { user: recruit.userId }, 'TW'))
    // The caller without a score sees the board with no place pinned.
    expect((await get<ActivityRank>(s, none, `activity/rank?id=${id}`)).body_.data.me).toBeNull()
    const early = await get(s, a, `activity/rank?id=${await idOf(s, 'later')}`)
    expect(early.statusCode).toBe(409)
    expect(early.body_.msg).toBe(msg('activity.errors.notStarted'))
    expect((await get(s, a, 'activity/rank?id=999999')).statusCode).toBe(404)
    expect((await get(s, a, `activity/rank?id=${id}&limit=101`)).statusCode).toBe(400)

    // The board is live: a new score shows on the next read.
    await paidOrder(s, none.userId, '100000', t0 + 1000)
    s.clock.advance(2000)
    expect((await get<ActivityRank>(s, none, `activity/rank?id=${id}`)).body_.data.me).toMatchObject({ rank: 1, score: '100000' })
  })

  it('team growth counts every new member below a user, at any depth', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ measure: 'team_growth', starts_at: iso(t0 - 1000), ends_at: iso(t0 + DAY) }))
    const code = async (who: SignedIn) => (await get<UserInfo>(s, who, 'user/info')).body_.data.code
    const top = await s.signIn(ROOT_CODE)
    s.clock.advance(1000)
    const mid = await s.signIn(await code(top))
    s.clock.advance(1000)
    await s.signIn(await code(mid))
    await s.signIn(await code(mid))
    const board = (await get<ActivityRank>(s, top, `activity/rank?id=${await idOf(s, 'test-race')}`)).body_.data
    // The root account is the platform's own and never ranks.
    expect(board.top.map((e) => [e.user_id, e.score])).toEqual([
      [top.userId, '3'],
      [mid.userId, '2'],
    ])
  })

  it('destroy and trading read their own tables: NADI destroyed, and spot volume on both sides of a fill', async () => {
    const s = await start()
    const t0 = s.clock.now()
    const [a, b] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    await credit(s, a.userId, 'NADI', '1000')
    await credit(s, b.userId, 'USDT', '1000')
    await transfer(s.ctx.sql, { ref: 'test:a:trade', reason: 'transfer', from: fund(a.userId), to: trade(a.userId), asset: 'NADI', amount: units('1000') })
    await transfer(s.ctx.sql, { ref: 'test:b:trade', reason: 'transfer', from: fund(b.userId), to: trade(b.userId), asset: 'USDT', amount: units('1000') })
    await s.exchange!.place(a.userId, { side: 'sell', type: 'limit', price: 10_000, lots: 1000, clientOrderId: 'act-sell' })
    await s.exchange!.place(b.userId, { side: 'buy', type: 'limit', price: 10_000, lots: 1000, clientOrderId: 'act-buy' })
    const deals = await s.ctx.sql.all(statement<{ user_id: bigint; quote: bigint }>('SELECT user_id, quote FROM trade_deals WHERE user_id IN (?, ?)'), a.userId, b.userId)
    expect(deals).toHaveLength(2)
    const volume = await readStandings(s.ctx.sql, 'trading', t0 - DAY, t0 + DAY)
    expect(volume.map((x) => [x.userId, x.score]).sort()).toEqual(deals.map((d) => [Number(d.user_id), d.quote]).sort())
    expect(await readStandings(s.ctx.sql, 'destroy', t0 - DAY, t0 + DAY)).toEqual([])
  })
})

describe('scores kept at event time', () => {
  // Property-style: random registrations, shop purchases, destroys, fills and clock moves through the
  // real sites, with windows that close midway and a hidden activity; after them, every activity's kept
  // rows equal the scores recomputed from the raw tables, and the endpoint's board is that order.
  const SEED = Number(process.env.ACTIVITY_SEED ?? Date.now() % 100_000)
  it(`equal the scores recomputed from the raw tables after random events (seed ${SEED})`, async () => {
    let x = SEED
    const rnd = (n: number) => {
      x = (Math.imul(x ^ (x >>> 15), 2654435761) + 0x6d2b79f5) >>> 0
      return x % n
    }
    const s = await start()
    const t0 = s.clock.now()
    const measures = ['purchases', 'destroy', 'trading', 'team_growth'] as const
    await load(
      s,
      ...measures.map((m) => entry({ slug: `long-${m.replace("_", "-")}`, measure: m, starts_at: iso(t0 - 3600_000), ends_at: iso(t0 + 2 * DAY) })),
      ...measures.map((m) => entry({ slug: `short-${m.replace("_", "-")}`, measure: m, starts_at: iso(t0), ends_at: iso(t0 + 6 * 3600_000) })),
      entry({ slug: 'hidden', active: false, starts_at: iso(t0 - 3600_000), ends_at: iso(t0 + DAY) }),
    )
    const cars = (await get<PagedList<GoodsItem>>(s, null, 'car/goodsList?page_size=50')).body_.data.list
    const car = (await get<GoodsDetail>(s, null, `car/goodsDetail?id=${cars[0]!.id}`)).body_.data
    // The demo has a few cars of each kind; a seed that buys more than that would be refused out of stock.
    await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 1000 WHERE id = ?'), car.specs[0]!.id)
    const people: SignedIn[] = []
    const join = async () => {
      const inviter = people.length && rnd(4) ? await codeOf(s, people[rnd(people.length)]!) : ROOT_CODE
      const u = await s.signIn(inviter)
      await credit(s, u.userId, 'USDT', '10000000')
      await credit(s, u.userId, 'NADI', '10000000')
      await transfer(s.ctx.sql, { ref: `test:prop:${u.userId}:u`, reason: 'transfer', from: fund(u.userId), to: trade(u.userId), asset: 'USDT', amount: units('100000') })
      await transfer(s.ctx.sql, { ref: `test:prop:${u.userId}:n`, reason: 'transfer', from: fund(u.userId), to: trade(u.userId), asset: 'NADI', amount: units('100000') })
      people.push(u)
    }
    for (let i = 0; i < 3; i++) await join()
    let fills = 0
    for (let step = 0; step < 40; step++) {
      const who = people[rnd(people.length)]!
      switch (rnd(5)) {
        case 0:
          await join()
          break
        case 1: {
          const { order } = (await post<PreOrderResult>(s, who, 'preOrder/preOrder', { area: 'car', goods_id: car.id, spec_id: car.specs[0]!.id, quantity: 1 })).body_.data
          expect((await post(s, who, 'orders/payByBalance', { id: order.id })).statusCode).toBe(200)
          break
        }
        case 2: {
          const order = (await post<{ id: number }>(s, who, 'mining/destroy', { amount: String(100 + rnd(400)) })).body_.data
          expect((await post(s, who, 'orders/payByBalance', { id: order.id })).statusCode).toBe(200)
          break
        }
        case 3: {
          const other = people.filter((p) => p !== who)[rnd(people.length - 1)]!
          const lots = 1000 * (1 + rnd(5)) // above the market's minimum notional
          await s.exchange!.place(who.userId, { side: 'sell', type: 'limit', price: 10_000, lots, clientOrderId: `prop-s-${++fills}` })
          await s.exchange!.place(other.userId, { side: 'buy', type: 'limit', price: 10_000, lots, clientOrderId: `prop-b-${fills}` })
          break
        }
        default:
          s.clock.advance(rnd(3 * 3600_000))
      }
    }
    const all = await s.ctx.sql.all(statement<{ id: bigint; measure: (typeof measures)[number]; starts_at: bigint; ends_at: bigint; active: bigint }>('SELECT id, measure, starts_at, ends_at, active FROM activities'))
    let seen = 0
    for (const a of all) {
      const kept = (await s.ctx.sql.all(statement<{ user_id: bigint; score: bigint; reached_at: bigint }>('SELECT user_id, score, reached_at FROM activity_scores WHERE activity_id = ? ORDER BY score DESC, reached_at, user_id'), a.id)).map(
        (r) => [Number(r.user_id), r.score, Number(r.reached_at)],
      )
      const ref = (await readStandings(s.ctx.sql, a.measure, Number(a.starts_at), Number(a.ends_at))).map((r) => [r.userId, r.score, r.reachedAt])
      expect(kept, `activity ${a.id} (${a.measure}), seed ${SEED}`).toEqual(ref)
      seen += ref.length
      if (a.active === 1n && Number(a.starts_at) <= s.clock.now()) {
        const board = (await get<ActivityRank>(s, people[0]!, `activity/rank?id=${a.id}&limit=100`)).body_.data
        expect(board.participants).toBe(ref.length)
        expect(board.top.map((e) => e.user_id)).toEqual(ref.slice(0, 100).map((r) => r[0]))
      }
    }
    expect(seen).toBeGreaterThan(0)
  }, 60_000)
})

describe('whose place may be asked for (user_id)', () => {
  it('only the caller\'s own or a member of their team below them; anyone else is refused alike, whether or not they took part', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }))
    const id = await idOf(s, 'test-race')
    // top → mid → low (a chain); side is top's sibling; stranger has no score.
    const top = await s.signIn(ROOT_CODE)
    const mid = await s.signIn(await codeOf(s, top))
    const low = await s.signIn(await codeOf(s, mid))
    const side = await s.signIn(ROOT_CODE)
    const stranger = await s.signIn(ROOT_CODE)
    for (const [u, usdt] of [[top, '50'], [mid, '40'], [low, '30'], [side, '20']] as const) await paidOrder(s, u.userId, usdt, t0 - 1000)
    const place = (who: SignedIn, user: SignedIn, lang = 'EN') => get<ActivityRank>(s, who, `activity/rank?id=${id}&user_id=${user.userId}`, lang)

    // Allowed: oneself, and anyone strictly below in the referral tree, at any depth.
    expect((await place(top, top)).body_.data.me).toMatchObject({ user_id: top.userId, rank: 1 })
    expect((await place(top, mid)).body_.data.me).toMatchObject({ user_id: mid.userId, rank: 2 })
    expect((await place(top, low)).body_.data.me).toMatchObject({ user_id: low.userId, rank: 3 })
    expect((await place(mid, low)).body_.data.me).toMatchObject({ user_id: low.userId })

    // Refused: upwards, sideways, a stranger with no score, an id nobody has: one answer, localized.
    const refusals = [await place(low, mid, 'TW'), await place(mid, top, 'TW'), await place(side, top, 'TW'), await place(top, side, 'TW'), await place(top, stranger, 'TW')]
    const ghost = await get(s, top, `activity/rank?id=${id}&user_id=999999`, 'TW')
    for (const r of [...refusals, ghost]) {
      expect(r.statusCode).toBe(403)
      expect(r.body_.msg).toBe(msg('activity.errors.rankNotAllowed', {}, 'TW'))
      expect(r.body_.data ?? null).toBeNull()
    }
    // A participant and a non-participant are refused with the very same bytes.
    expect(refusals[3]!.body).toBe(refusals[4]!.body)
  })

  it('walks a deep chain without a recursion limit', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }))
    const id = await idOf(s, 'test-race')
    const top = await s.signIn(ROOT_CODE)
    // 5,000 members in a line below top, written directly (signing each in would take minutes).
    const depth0 = await s.count('SELECT depth FROM users WHERE id = ?', top.userId)
    const first = await s.count('SELECT max(id) FROM users') + 1
    await s.ctx.sql.run(statement(`WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 4999)
      INSERT INTO users (id, wallet_address, code, name, inviter_id, depth, created_at)
      SELECT ${first} + x, '0x' || substr('0000000000000000000000000000000000000000', 1, 40 - length(CAST(${first} + x AS TEXT))) || CAST(${first} + x AS TEXT),
             'DEEP' || x, 'deep' || x, CASE WHEN x = 0 THEN ${top.userId} ELSE ${first} + x - 1 END, ${depth0} + 1 + x, 0 FROM n`))
    // Ids written by hand: PostgreSQL's identity goes on after them, as SQLite's rowid does by itself.
    if (s.ctx.sql.dialect === 'postgres') await s.ctx.sql.run(statement("SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users))"))
    const bottom = first + 4999
    await paidOrder(s, bottom, '1', t0 - 1000)
    expect((await get<ActivityRank>(s, top, `activity/rank?id=${id}&user_id=${bottom}`)).body_.data.me?.user_id).toBe(bottom)
    const other = await s.signIn(ROOT_CODE)
    expect((await get(s, other, `activity/rank?id=${id}&user_id=${bottom}`)).statusCode).toBe(403)
  })
})

describe('the payout', () => {
  it('waits for the close, halts whole and visibly when the prize account is short, then pays each rank once into the money log', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }))
    const id = await idOf(s, 'test-race')
    const users = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    for (const [i, u] of users.entries()) await paidOrder(s, u.userId, String(400 - i * 100), t0 - 1000 * (i + 1))
    const usdt = async (u: SignedIn) => (await balance(s.ctx.sql, fund(u.userId), 'USDT')).available
    const nadi = async (u: SignedIn) => (await balance(s.ctx.sql, fund(u.userId), 'NADI')).available

    expect(await payDueActivities(s.ctx)).toEqual([]) // still running
    s.clock.advance(DAY + SETTLE_GRACE_MS - 1)
    expect(await payDueActivities(s.ctx)).toEqual([]) // closed, in the grace
    s.clock.advance(1)

    // The account holds the NADI but only 99 USDT of the 100 the first prize needs.
    await transfer(s.ctx.sql, { ref: 'test:fund:usdt', reason: 'activity_fund', userId: null, from: custody('bsc'), to: ACTIVITY_PRIZES, asset: 'USDT', amount: units('99') })
    await transfer(s.ctx.sql, { ref: 'test:fund:nadi', reason: 'activity_fund', userId: null, from: custody('nadi'), to: ACTIVITY_PRIZES, asset: 'NADI', amount: units('100') })
    const halted = await payDueActivities(s.ctx)
    expect(halted).toMatchObject([{ activityId: id, paid: [], halted: expect.stringMatching(/needs 100 USDT .* has 99/) }])
    expect(await usdt(users[0]!)).toBe(0n)
    expect(await nadi(users[1]!)).toBe(0n) // whole or nothing: the NADI prizes wait too
    expect(await s.count('SELECT count(*) FROM activity_winners')).toBe(0)
    const status = await runCli(s, 'activity', 'status', 'test-race')
    expect(status.code).toBe(1)
    expect(status.out).toMatch(/payout HALTED: .*needs 100 USDT/)
    expect((await runCli(s, 'activity', 'list')).out).toMatch(/test-race \[\w+, payout HALTED\]/)
    expect((await get<ActivityDetail>(s, users[0]!, `activity/detail?id=${id}`)).body_.data.settled).toBe(false)

    // Funded: ranks 1-3 are paid (3 prize ranks), rank 4 wins nothing; a re-run pays nothing.
    await transfer(s.ctx.sql, { ref: 'test:fund:usdt2', reason: 'activity_fund', userId: null, from: custody('bsc'), to: ACTIVITY_PRIZES, asset: 'USDT', amount: units('1') })
    const paid = await payDueActivities(s.ctx)
    expect(paid[0]!.paid.map((p) => [p.rank, p.userId, p.asset, p.amount])).toEqual([
      [1, users[0]!.userId, 'USDT', units('100')],
      [2, users[1]!.userId, 'NADI', units('50')],
      [3, users[2]!.userId, 'NADI', units('50')],
    ])
    expect([await usdt(users[0]!), await nadi(users[1]!), await nadi(users[2]!), await nadi(users[3]!)]).toEqual([units('100'), units('50'), units('50'), 0n])
    expect(await payDueActivities(s.ctx)).toEqual([])
    // Even with the activity's mark lost, each rank is paid once: its record and its ledger ref stand.
    await s.ctx.sql.run(statement('UPDATE activities SET settled_at = NULL WHERE id = ?'), id)
    expect(await payDueActivities(s.ctx)).toMatchObject([{ activityId: id, paid: [] }])
    expect(await s.count("SELECT count(*) FROM ledger_postings WHERE reason = 'activity_prize'")).toBe(3)
    expect(await s.count('SELECT count(*) FROM activities WHERE id = ? AND settled_at IS NOT NULL AND halted IS NULL', id)).toBe(1)

    // Visible: the winner's money log, the board's paid prizes, the operator's status.
    const log = (await get<{ list: { type: string; amount: string; coin?: string }[] }>(s, users[0]!, 'wallet/moneyLog')).body_.data.list
    expect(log[0]).toMatchObject({ type: 'activity_prize' })
    const board = (await get<ActivityRank>(s, users[3]!, `activity/rank?id=${id}`)).body_.data
    expect(board).toMatchObject({ status: 'ended', settled: true, participants: 4 })
    expect(board.top.map((e) => e.prize)).toEqual([{ asset: 'USDT', amount: '100' }, { asset: 'NADI', amount: '50' }, { asset: 'NADI', amount: '50' }, null])
    expect(board.me).toMatchObject({ rank: 4, prize: null })
    const after = await runCli(s, 'activity', 'status', 'test-race')
    expect(after.code).toBe(0)
    expect(after.out).toContain('3 of 3 prize ranks had a winner')
    expect(after.out).toContain(`#1 user ${users[0]!.userId} score 400 → 100 USDT (ref activity:${id}:rank:1)`)
    // (The CLI runs on the real clock, by which the demo's activities may have ended too: only this one matters.)
    expect((await runCli(s, 'activity', 'pay')).out).not.toContain('test-race')
  })

  it('once paid, the board shows each prize beside whom it was paid, even when a late event moved the board after it was first read', async () => {
    const s = await start()
    const t0 = s.clock.now()
    await load(s, entry({ starts_at: iso(t0 - DAY), ends_at: iso(t0 + DAY) }))
    const id = await idOf(s, 'test-race')
    const [a, b, c] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    await paidOrder(s, a.userId, '400', t0 - 3000)
    await paidOrder(s, b.userId, '300', t0 - 2000)
    await paidOrder(s, c.userId, '100', t0 - 1000)
    // Read inside the grace: a leads.
    s.clock.advance(DAY + 10_000)
    expect((await get<ActivityRank>(s, c, `activity/rank?id=${id}`)).body_.data.top[0]).toMatchObject({ user_id: a.userId })
    // A payment stamped inside the window lands late (inside the grace): b overtakes a.
    await paidOrder(s, b.userId, '200', t0 + DAY - 1)
    s.clock.advance(SETTLE_GRACE_MS)
    await transfer(s.ctx.sql, { ref: 'test:late:usdt', reason: 'activity_fund', userId: null, from: custody('bsc'), to: ACTIVITY_PRIZES, asset: 'USDT', amount: units('100') })
    await transfer(s.ctx.sql, { ref: 'test:late:nadi', reason: 'activity_fund', userId: null, from: custody('nadi'), to: ACTIVITY_PRIZES, asset: 'NADI', amount: units('100') })
    const paid = await payDueActivities(s.ctx)
    expect(paid[0]!.paid.map((p) => [p.rank, p.userId])).toEqual([[1, b.userId], [2, a.userId], [3, c.userId]])
    const board = (await get<ActivityRank>(s, c, `activity/rank?id=${id}`)).body_.data
    expect(board.settled).toBe(true)
    expect(board.top.map((e) => [e.rank, e.user_id, e.score, e.prize])).toEqual([
      [1, b.userId, '500', { asset: 'USDT', amount: '100' }],
      [2, a.userId, '400', { asset: 'NADI', amount: '50' }],
      [3, c.userId, '100', { asset: 'NADI', amount: '50' }],
    ])
    expect(board.me).toMatchObject({ rank: 3, user_id: c.userId, prize: { asset: 'NADI', amount: '50' } })
  })

  it('the operator funds the prize account from the treasury', async () => {
    const s = await start()
    const before = (await balance(s.ctx.sql, ACTIVITY_PRIZES, 'USDT')).available
    const r = await runCli(s, 'activity', 'fund', 'usdt', '250.5')
    expect(r).toMatchObject({ code: 0 })
    expect((await balance(s.ctx.sql, ACTIVITY_PRIZES, 'USDT')).available).toBe(before + units('250.5'))
    expect((await runCli(s, 'activity', 'fund', 'USDT', '90000000000')).err).toMatch(/the treasury has/)
    expect((await runCli(s, 'activity', 'fund', 'BTC', '1')).code).toBe(2)
  })
})
