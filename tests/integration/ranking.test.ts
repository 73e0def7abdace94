// The ranking over HTTP and the settlement (issue 12 part 3): paid orders move the day's ranking and
// the total; the settlement feeds the pools once per day from that day's income, then pays the day's
// top N exactly once, ties going to who reached the amount first, ranks nobody reached staying in the
// pool; the operator pays the total pool at most once a day; every bad request is refused with a
// localized message and changes nothing. The ledger audit passes after each test.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli } from '../../server/cli.ts'
import { translate } from '../../server/i18n.ts'
import { balance, BURNED, custody, FEES, fund, PRIZE_DAILY, PRIZE_TOTAL, transfer, TREASURY } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { auditRanking } from '../../server/modules/ranking/service.ts'
import { dayOf, dayStart } from '../../server/modules/release/schedule.ts'
import { addPerformanceIn } from '../../server/modules/user/performance.ts'
import { idemKey, T0, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { DailyRanking, MyRanking, RankingPools, TotalRanking } from '../../contract/ranking.ts'
import type { UserInfo } from '../../contract/user.ts'
import type { Address } from '../../contract/address.ts'
import type { GoodsDetail } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
// Three ranks paid 50/30/20 % of the daily pool; 10 % and 5 % of the income to the pools; the node
// share of withdraw fees stays at its default 50 %.
const start = useServers({
  env: {
    NADI_SESSION_IDLE_MS: YEARS,
    NADI_SESSION_MAX_AGE_MS: YEARS,
    NADI_GOLD_WALK_MS: '0',
    NADI_TRIAL_POWER: '0',
    NADI_RANKING_DAILY_SHARES: '500000,300000,200000',
    NADI_RANKING_TOTAL_SHARES: '600000,400000',
    NADI_RANKING_DAILY_POOL_PPM: '100000',
    NADI_RANKING_TOTAL_POOL_PPM: '50000',
  },
}, { audited: true, checks: [auditRanking] })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
let refs = 0
const get = <T>(s: TestServer, who: SignedIn, path: string, lang = 'EN') => s.get<T>(`${API}/${path}`, { token: who.token, lang })
const codeOf = async (s: TestServer, who: SignedIn) => (await get<UserInfo>(s, who, 'user/info')).body_.data.code
/** A chain of newcomers, each invited by the one before: [a, b, c…]. */
async function chain(s: TestServer, n: number): Promise<SignedIn[]> {
  const out: SignedIn[] = []
  for (let i = 0; i < n; i++) out.push(await s.signIn(i === 0 ? undefined : await codeOf(s, out[i - 1]!)))
  return out
}
/** What a paid order does to performance, at the server's clock (what preOrder, mining and node services call). */
const buy = (s: TestServer, who: SignedIn, usdt: string) => s.ctx.sql.transaction((tx) => addPerformanceIn(tx, s.ctx.sql, who.userId, units(usdt)))
/** Income of the day: fees the fees account received (as a confirmed withdrawal records them). */
async function withdrawFee(s: TestServer, userId: number, fee: string, at: number) {
  const id = (await s.ctx.sql.get(statement<{ id: bigint }>(
      `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
       VALUES (?, 'NADI', 'nadi', ?, ?, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', ?, '0x', 0, 3, ?, ?, ?) RETURNING id`), userId, units('1'), units(fee), `0x${String(++refs).padStart(64, '0')}`, at, at, at))!.id
  await transfer(s.ctx.sql, { ref: `test:wfee:${id}`, reason: 'withdraw', from: custody('nadi'), to: FEES, asset: 'NADI', amount: units(fee), at })
}
const nadi = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'NADI')).available
const pool = async (s: TestServer, which: typeof PRIZE_DAILY, asset = 'NADI') => (await balance(s.ctx.sql, which, asset)).available
const closeDay = (s: TestServer) => {
  s.clock.advance(DAY)
  return settleDue(s.ctx)
}
/** Everything a refused request could have changed. */
const state = async (s: TestServer) =>
  JSON.stringify(
    await Promise.all(['ranking_days', 'ranking_results', 'ranking_payouts', 'ranking_pool_days', 'ledger_postings'].map((t) => s.ctx.sql.get(statement<{ n: bigint }>(`SELECT count(*) AS n FROM ${t}`)))),
    (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
  )

describe('recording', () => {
  it('a purchase moves the day’s ranking and the total of every ancestor, never the buyer (team measure) nor the root', async () => {
    const s = await start()
    const [a, b, c] = await chain(s, 3)
    await buy(s, c!, '100')
    const today = (await get<DailyRanking>(s, a!, 'ranking/daily')).body_.data
    expect(today.live).toBe(true)
    expect(today.paid).toBe(false)
    // Reached in the same statement: the lower user id first.
    expect(today.list.map((r) => [r.rank, r.user_id, r.amount])).toEqual([
      [1, a!.userId, '100'],
      [2, b!.userId, '100'],
    ])
    const mine = (await get<MyRanking>(s, c!, 'ranking/mine')).body_.data
    expect(mine.daily).toEqual({ rank: null, amount: '0', prize_usdt: null, prize_nadi: null })
    const total = (await get<TotalRanking>(s, b!, 'ranking/total')).body_.data
    expect(total.total).toBe(2)
    expect(total.list.every((r) => r.amount === '100')).toBe(true)
  })

  it('the device a newcomer buys and pays by balance moves both ancestors’ figures in the payment', async () => {
    const s = await start()
    const [a, b, c] = await chain(s, 3)
    const o = { token: c!.token, lang: 'EN' }
    await transfer(s.ctx.sql, { ref: 'test:rank:credit', reason: 'deposit', from: custody('bsc'), to: fund(c!.userId), asset: 'USDT', amount: units('100000') })
    const address = (await s.post<Address>(`${API}/address/addAddress`, { name: 'Ana', phone: '0912345678', area: 'Lisbon', address: 'Rua 1', is_default: true }, { ...o, idempotencyKey: idemKey() })).body_.data
    const goods = (await s.get<{ list: { id: number; power: string }[] }>(`${API}/machine/goodsList?page_size=50`, { lang: 'EN' })).body_.data.list.find((g) => g.power !== '0')!
    const spec = (await s.get<GoodsDetail>(`${API}/machine/goodsDetail?id=${goods.id}`, { lang: 'EN' })).body_.data.specs[0]!
    const { order } = (await s.post<PreOrderResult>(`${API}/preOrder/preOrder`, { area: 'machine', goods_id: goods.id, spec_id: spec.id, quantity: 1, address_id: address.id }, { ...o, idempotencyKey: idemKey() })).body_.data
    expect((await s.post(`${API}/orders/payByBalance`, { id: order.id }, { ...o, idempotencyKey: idemKey() })).statusCode).toBe(200)
    for (const who of [a!, b!]) {
      const me = (await get<MyRanking>(s, who, 'ranking/mine')).body_.data
      expect(me.daily.rank).not.toBeNull()
      expect(Number(me.daily.amount)).toBeGreaterThan(0)
      expect((await get<UserInfo>(s, who, 'user/info')).body_.data.team_performance).toBe(me.daily.amount)
    }
  })

  it('NADI_RANKING_MEASURE=own ranks each buyer by their own purchases of the day', async () => {
    const s = await start({ env: { NADI_RANKING_MEASURE: 'own' } })
    const [a, b] = await chain(s, 2)
    await buy(s, b!, '40')
    await buy(s, a!, '30')
    const list = (await get<DailyRanking>(s, a!, 'ranking/daily')).body_.data.list
    expect(list.map((r) => [r.user_id, r.amount])).toEqual([
      [b!.userId, '40'],
      [a!.userId, '30'],
    ])
  })
})

describe('the pools', () => {
  it('are fed once per ended day with their share of that day’s fees and destroy, and show today’s accrual live', async () => {
    const s = await start()
    const [a] = await chain(s, 1)
    await withdrawFee(s, a!.userId, '10', s.clock.now())
    // A destroy of 1000 NADI: burned, as the mining service leaves it.
    await s.ctx.sql.run(statement(`INSERT INTO positions (user_id, kind, asset, base, rate_ppm, start_day, source, created_at) VALUES (?, 'destroy', 'NADI', 1, 0, ?, 'test:d', ?)`), a!.userId, dayOf(s.clock.now()) + 1, s.clock.now())
    const pos = (await s.ctx.sql.get(statement<{ id: bigint }>('SELECT max(id) AS id FROM positions')))!.id
    await s.ctx.sql.run(statement(`INSERT INTO mining_buys (user_id, kind, order_id, position_id, asset, amount, price, usdt_value, power, gift, created_at) VALUES (?, 'destroy', NULL, ?, 'NADI', ?, 1, 1, 1, 0, ?)`), a!.userId, pos, units('1000'), s.clock.now())
    await transfer(s.ctx.sql, { ref: 'test:treasury', reason: 'treasury_fund', from: custody('nadi'), to: TREASURY, asset: 'NADI', amount: units('5000') })
    await transfer(s.ctx.sql, { ref: 'test:burn', reason: 'destroy', from: TREASURY, to: BURNED, asset: 'NADI', amount: units('1000') })

    const p = (await get<RankingPools>(s, a!, 'ranking/pools')).body_.data
    expect(p.daily.balance).toEqual({ USDT: '0', NADI: '0' })
    // 10 % of 10 NADI fees + 10 % of 1000 NADI destroyed; 5 % of each.
    expect(p.daily.today).toEqual({ USDT: '0', NADI: '101' })
    expect(p.total.today).toEqual({ USDT: '0', NADI: '50.5' })
    expect(p.daily.share).toBe('10')
    expect(p.daily.prizes).toEqual(['50', '30', '20'])

    const fees = await pool(s, FEES)
    await closeDay(s)
    expect(await pool(s, PRIZE_DAILY)).toBe(units('101'))
    expect(await pool(s, PRIZE_TOTAL)).toBe(units('50.5'))
    // The node holders' half of the withdraw fees is not taken (no node holder), the pools' 15 % is.
    expect(fees - await pool(s, FEES)).toBe(units('1.5'))
    // A second pass, and the next day with no income, feed nothing more.
    await settleDue(s.ctx)
    await closeDay(s)
    expect(await pool(s, PRIZE_DAILY)).toBe(units('101'))
    expect(await pool(s, PRIZE_TOTAL)).toBe(units('50.5'))
    const after = (await get<RankingPools>(s, a!, 'ranking/pools')).body_.data
    expect(after.daily.balance.NADI).toBe('101')
    expect(after.daily.today.NADI).toBe('0')
  })

  it('take no more than the fees account holds, recording what was short', async () => {
    const s = await start()
    const [a] = await chain(s, 1)
    await withdrawFee(s, a!.userId, '10', s.clock.now())
    // An operator moved most fees out meanwhile.
    await transfer(s.ctx.sql, { ref: 'test:sweep', reason: 'fee_sweep', from: FEES, to: TREASURY, asset: 'NADI', amount: units('9.5') })
    await closeDay(s)
    expect(await pool(s, PRIZE_DAILY)).toBe(units('0.5'))
    expect(await pool(s, PRIZE_TOTAL)).toBe(0n)
    const row = (await s.ctx.sql.get(statement<Record<string, bigint>>('SELECT to_daily, to_total, short FROM ranking_pool_days')))!
    expect(row).toEqual({ to_daily: units('0.5'), to_total: 0n, short: units('1') })
  })
})

describe('the daily payout', () => {
  it('pays the day’s top N once from the daily pool; ties go to who reached the amount first; a re-run pays nothing', async () => {
    const s = await start()
    const users = await Promise.all([0, 1, 2, 3].map(() => s.signIn()))
    // Four heads of their own teams: each gets a direct referral who buys.
    const buyers: SignedIn[] = []
    for (const u of users) buyers.push(await s.signIn(await codeOf(s, u)))
    await withdrawFee(s, users[0]!.userId, '100', s.clock.now())
    await buy(s, buyers[1]!, '50') // users[1] reaches 50 first
    s.clock.advance(1000)
    await buy(s, buyers[2]!, '50') // users[2] reaches 50 later: ranks after users[1]
    s.clock.advance(1000)
    await buy(s, buyers[0]!, '80')
    await buy(s, buyers[3]!, '10')
    const day = dayOf(s.clock.now())
    const ranks = (await get<DailyRanking>(s, users[0]!, 'ranking/daily')).body_.data.list.map((r) => r.user_id)
    expect(ranks).toEqual([users[0]!.userId, users[1]!.userId, users[2]!.userId, users[3]!.userId])

    const before = await Promise.all(users.map((u) => nadi(s, u.userId)))
    await closeDay(s)
    // The pool got 10 NADI (10 % of 100); ranks 1–3 get 5, 3 and 2; rank 4 nothing.
    expect(await Promise.all(users.map(async (u, i) => await nadi(s, u.userId) - before[i]!))).toEqual([units('5'), units('3'), units('2'), 0n])
    expect(await pool(s, PRIZE_DAILY)).toBe(0n)

    const past = (await get<DailyRanking>(s, users[3]!, `ranking/daily?day=${day}`)).body_.data
    expect(past.paid).toBe(true)
    expect(past.live).toBe(false)
    expect(past.list.map((r) => [r.rank, r.prize_nadi])).toEqual([
      [1, '5'],
      [2, '3'],
      [3, '2'],
      [4, null],
    ])
    const mine = (await get<MyRanking>(s, users[1]!, `ranking/mine?day=${day}`)).body_.data
    expect(mine.daily).toMatchObject({ rank: 2, amount: '50', prize_nadi: '3' })
    const log = (await get<{ list: { type: string; amount: string }[] }>(s, users[0]!, 'wallet/moneyLog?type=ranking_prize')).body_.data.list
    expect(log).toEqual([expect.objectContaining({ type: 'ranking_prize', amount: '5' })])

    // Settling again (and a replayed payout) pays nothing more.
    const after = await Promise.all(users.map((u) => nadi(s, u.userId)))
    await settleDue(s.ctx)
    const { payPool } = await import('../../server/modules/ranking/service.ts')
    expect(await s.ctx.sql.transaction((tx) => payPool(tx, 'daily', s.config.ranking.dailyShares, day, s.clock.now()))).toBeNull()
    expect(await Promise.all(users.map((u) => nadi(s, u.userId)))).toEqual(after)
  })

  it('the audit command reports a ranking row that no longer matches the ledger', async () => {
    const s = await start()
    const [a, b] = await chain(s, 2)
    await withdrawFee(s, a!.userId, '100', s.clock.now())
    await buy(s, b!, '50')
    const day = dayOf(s.clock.now())
    await closeDay(s)
    const runAudit = async () => {
      let out = ''
      const code = await cli(['audit'], { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: () => {} } })
      return { code, out }
    }
    const clean = await runAudit()
    expect(clean.out).toMatch(/ranking: every pool fed and every payout paid as the ledger moved it/)
    expect(clean.code).toBe(0)
    const tamper = [
      ["UPDATE ranking_results SET prize_nadi = prize_nadi + 1 WHERE pool = 'daily' AND day = @day AND rank = 1", "UPDATE ranking_results SET prize_nadi = prize_nadi - 1 WHERE pool = 'daily' AND day = @day AND rank = 1", /daily NADI: the payout recorded 5 paid, its winners' prizes sum to 5.00000001/],
      ["UPDATE ranking_payouts SET paid_nadi = paid_nadi - 1 WHERE pool = 'daily' AND day = @day", "UPDATE ranking_payouts SET paid_nadi = paid_nadi + 1 WHERE pool = 'daily' AND day = @day", /the ledger moved 5 out of the pool/],
      ["UPDATE ranking_pool_days SET to_daily = to_daily + 100000000 WHERE day = @day AND asset = 'NADI'", "UPDATE ranking_pool_days SET to_daily = to_daily - 100000000 WHERE day = @day AND asset = 'NADI'", /pools NADI: prize_daily fed 11 by ranking_pool_days, the ledger moved 10/],
    ] as const
    for (const [edit, undo, reported] of tamper) {
      await s.ctx.sql.run(statement(edit), { day })
      const r = await runAudit()
      expect(r.code).toBe(1)
      expect(r.out).toMatch(reported)
      expect((await auditRanking(s.ctx.sql)).length).toBeGreaterThan(0)
      await s.ctx.sql.run(statement(undo), { day })
    }
    expect((await runAudit()).code).toBe(0)
  })

  it('with fewer winners than N, the unpaid ranks stay in the pool for the next day', async () => {
    const s = await start()
    const [a, b] = await chain(s, 2)
    await withdrawFee(s, a!.userId, '100', s.clock.now())
    await buy(s, b!, '10')
    await closeDay(s)
    // One winner: 50 % of 10 NADI; 30 % + 20 % stay.
    expect(await pool(s, PRIZE_DAILY)).toBe(units('5'))
    const payout = (await s.ctx.sql.get(statement<Record<string, bigint>>('SELECT winners, paid_nadi FROM ranking_payouts')))!
    expect(payout).toEqual({ winners: 1n, paid_nadi: units('5') })
    // A day nobody ranks pays nobody and keeps the pool.
    await closeDay(s)
    expect(await pool(s, PRIZE_DAILY)).toBe(units('5'))
  })
})

describe('the total pool', () => {
  it('is paid by the operator’s command to the total ranking’s top N, at most once a day', async () => {
    const s = await start()
    const [a, b, c] = await chain(s, 3)
    await withdrawFee(s, a!.userId, '200', s.clock.now())
    await buy(s, c!, '10')
    await buy(s, b!, '5') // a: 15, b: 10
    await closeDay(s) // feeds the total pool 10 NADI (5 % of 200)
    expect(await pool(s, PRIZE_TOTAL)).toBe(units('10'))
    const run = async (...argv: string[]) => {
      let out = ''
      let err = ''
      const code = await cli(argv, { env: { ...operatorEnv(s.config), NADI_RANKING_TOTAL_SHARES: '600000,400000' }, io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
      return { code, out, err }
    }
    const status = await run('ranking', 'status')
    expect(status.code).toBe(0)
    expect(status.out).toMatch(/total pool: 0 USDT, 10 NADI/)
    const before = [await nadi(s, a!.userId), await nadi(s, b!.userId)]
    const paid = await run('ranking', 'pay-total')
    expect(paid.code).toBe(0)
    expect([await nadi(s, a!.userId) - before[0]!, await nadi(s, b!.userId) - before[1]!]).toEqual([units('6'), units('4')])
    const again = await run('ranking', 'pay-total')
    expect(again.code).toBe(1)
    expect(again.err).toMatch(/already paid/)
    expect(await nadi(s, a!.userId) - before[0]!).toBe(units('6'))
    const total = (await get<TotalRanking>(s, a!, 'ranking/total')).body_.data
    expect(total.paid_day).not.toBeNull()
    expect(total.list.map((r) => r.prize_nadi)).toEqual(['6', '4'])
  })
})

describe('refusals', () => {
  it.each([
    ['a page past the last', 'ranking/daily?page=2', 'ranking.errors.pageOutOfRange', { page: 2, pages: 1 }],
    ['a page past the last of the total', 'ranking/total?page=3', 'ranking.errors.pageOutOfRange', { page: 3, pages: 1 }],
    ['a day in the future', `ranking/daily?day=${dayOf(T0) + 1}`, 'ranking.errors.futureDay', { day: '2026-03-11', today: '2026-03-10' }],
    ['a day in the future for the own rank', `ranking/mine?day=${dayOf(T0) + 1}`, 'ranking.errors.futureDay', { day: '2026-03-11', today: '2026-03-10' }],
  ])('%s is refused with a localized message and changes nothing', async (_name, path, key, params) => {
    const s = await start()
    const [a, b] = await chain(s, 2)
    await buy(s, b!, '10')
    const before = await state(s)
    for (const lang of ['EN', 'JP']) {
      const r = await get(s, a!, path, lang)
      expect(r.statusCode).toBe(400)
      expect(r.body_.msg).toBe(translate(lang as 'EN', key, params))
    }
    expect(await state(s)).toBe(before)
  })

  it.each([
    ['a day that is not an integer', 'ranking/daily?day=1.5'],
    ['a day that is not a number', 'ranking/daily?day=yesterday'],
    ['a negative day', 'ranking/daily?day=-1'],
    ['a day out of range', 'ranking/mine?day=99999999'],
    ['page 0', 'ranking/total?page=0'],
    ['an unknown parameter', 'ranking/daily?x=1'],
  ])('%s is refused as invalid input naming the field', async (_name, path) => {
    const s = await start()
    const [a] = await chain(s, 1)
    const before = await state(s)
    const r = await get(s, a!, path)
    expect(r.statusCode).toBe(400)
    expect(r.body_.msg).toMatch(/^Invalid /)
    expect(await state(s)).toBe(before)
  })

  it('a visitor is asked to sign in', async () => {
    const s = await start()
    const r = await s.get(`${API}/ranking/pools`)
    expect(r.statusCode).toBe(401)
  })

  it('a past day nobody ranked answers an empty, unpaid list', async () => {
    const s = await start()
    const [a] = await chain(s, 1)
    const r = (await get<DailyRanking>(s, a!, `ranking/daily?day=${dayOf(T0) - 3}`)).body_.data
    expect(r).toEqual({ day: dayOf(T0) - 3, live: false, paid: false, list: [], total: 0 })
    expect(dayStart(r.day)).toBeLessThan(T0)
  })
})
