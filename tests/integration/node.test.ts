// Super Miner nodes over HTTP (issue 11 part 4): the demo tiers, a core node bought and paid (level
// T2, the stake frozen in the fund account), seats never oversold and given back when an unpaid order
// ends, the per-user limit, the settlement paying the node's mining, its share of the day's withdraw
// fees and its dividends from the day's trading fees, and the stake returned after its days. The
// ledger audit and the node grants' audit pass after each test.

import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { MyNode, NodeConfig, NodeTier } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { UserInfo } from '../../contract/user.ts'
import type { DayEarnings, MoneyRecord } from '../../contract/wallet.ts'
import { main as cli } from '../../server/cli.ts'
import { translate } from '../../server/i18n.ts'
import { DUST, FEES, balance, custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { auditNodeGrants } from '../../server/modules/node/service.ts'
import { expireOrders } from '../../server/modules/orders/service.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_GOLD_WALK_MS: '0', NADI_TRIAL_POWER: '0' } }, { audited: true, checks: [auditNodeGrants] })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
let refs = 0
const credit = (s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:node:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: units(amount) })
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const get = <T>(s: TestServer, who: SignedIn, path: string) => s.get<T>(`${API}/${path}`, { token: who.token, lang: 'EN' })
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const usdt = (s: TestServer, userId: number) => balance(s.ctx.sql, fund(userId), 'USDT')
const nadi = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'NADI')).available

async function tier(s: TestServer, who: SignedIn, type: NodeTier['type']): Promise<NodeTier> {
  const r = await get<NodeConfig>(s, who, 'node/config')
  expect(r.statusCode).toBe(200)
  return r.body_.data.tiers.find((t) => t.type === type)!
}

async function buyAndPay(s: TestServer, who: SignedIn, type: NodeTier['type']): Promise<PayOrder> {
  const t = await tier(s, who, type)
  const order = await post<PayOrder>(s, who, 'node/buy', { node_id: t.id })
  expect(order.statusCode).toBe(200)
  const paid = await post<PayOrder>(s, who, 'orders/payByBalance', { id: order.body_.data.id })
  expect(paid.statusCode).toBe(200)
  return paid.body_.data
}

/** A NADI withdrawal confirmed at `at` whose fee went to the fees account, as the withdraw job leaves it. */
async function confirmedWithdrawal(s: TestServer, userId: number, fee: string, at: number) {
  const id = (await s.ctx.sql.get(statement<{ id: bigint }>(
      `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
       VALUES (?, 'NADI', 'nadi', ?, ?, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', ?, '0x', 0, 3, ?, ?, ?) RETURNING id`), userId, units('1'), units(fee), `0x${String(++refs).padStart(64, '0')}`, at, at, at))!.id
  await transfer(s.ctx.sql, { ref: `test:wfee:${id}`, reason: 'withdraw', from: custody('nadi'), to: FEES, asset: 'NADI', amount: units(fee), at })
}

describe('node tiers', () => {
  it('node/config gives the elite, core and genesis tiers with seats, limit, stake, days, power, level and rates', async () => {
    const s = await start()
    const me = await s.signIn()
    const c = (await get<NodeConfig>(s, me, 'node/config')).body_.data
    expect(c.tiers.map((t) => t.type)).toEqual(['elite', 'core', 'genesis'])
    expect(c.tiers.map((t) => [t.amount, t.level_id])).toEqual([
      ['1000', 1],
      ['5000', 2],
      ['20000', 3],
    ])
    const core = c.tiers[1]!
    expect(core).toMatchObject({ total: 300, seats_left: 300, limit_num: 3, held: 0, days: 270, power: '6000', machine_rate: '0.4', withdraw_rate: '6', airdrop_multiplier: 2, advanced_agent: true })
    expect(c.fee_pool_share).toBe('50')
    expect((await s.get(`${API}/node/config`)).statusCode).toBe(401)
  })
})

describe('buying a node', () => {
  it('a core node paid from balance: level T2, the stake frozen in the fund account, the grants recorded, the seat taken', async () => {
    const s = await start()
    const me = await s.signIn()
    await credit(s, me.userId, 'USDT', '6000')
    expect((await get<UserInfo>(s, me, 'user/info')).body_.data.level).toBe(0)
    const order = await buyAndPay(s, me, 'core')
    expect(order).toMatchObject({ type: 'node', asset: 'USDT', total: '5000', status: 'completed' })
    expect((await get<UserInfo>(s, me, 'user/info')).body_.data.level).toBe(2)
    expect(await usdt(s, me.userId)).toEqual({ available: units('1000'), frozen: units('5000') })
    const core = await tier(s, me, 'core')
    expect(core).toMatchObject({ seats_left: 299, held: 1 })
    const mine = (await post<PagedList<MyNode>>(s, me, 'node/getOrder', { page: 1 })).body_.data
    expect(mine.total).toBe(1)
    expect(mine.list[0]).toMatchObject({ type: 'core', status: 'active', amount: '5000', days: 270, days_left: 270, level_id: 2, advanced_agent: true, airdrop_multiplier: 2, mined: '0', fee_share: '0', loan_debt: '0' })
    expect(mine.list[0]!.order_no).toBe(order.order_no)
    // Bought today, a 270-day node shows 270 days left and ends on the 270th day after today.
    expect(mine.list[0]!.end_at).toBe((Math.floor(s.clock.now() / DAY) + 270) * DAY)
    // A later elite node does not lower the level.
    await credit(s, me.userId, 'USDT', '1000')
    await buyAndPay(s, me, 'elite')
    expect((await get<UserInfo>(s, me, 'user/info')).body_.data.level).toBe(2)
    // One tier's nodes only.
    const onlyCore = (await post<PagedList<MyNode>>(s, me, 'node/getOrder', { tier_id: core.id })).body_.data
    expect(onlyCore.list.map((n) => n.type)).toEqual(['core'])
    // The user's performance counts the stake, as any paid order's value.
    expect(await s.count('SELECT me_performance FROM users WHERE id = ?', me.userId)).toBe(Number(units('6000')))
  })

  it('the per-user limit counts open and paid orders; a cancelled one frees its place and its seat', async () => {
    const s = await start()
    const me = await s.signIn()
    const core = await tier(s, me, 'core')
    await credit(s, me.userId, 'USDT', '10000')
    await buyAndPay(s, me, 'core')
    await buyAndPay(s, me, 'core')
    const open = await post<PayOrder>(s, me, 'node/buy', { node_id: core.id })
    expect(open.statusCode).toBe(200)
    expect((await tier(s, me, 'core')).seats_left).toBe(297)
    // Buying again while that one waits for payment resumes it (issue 33): no fourth seat.
    const again = await post<PayOrder>(s, me, 'node/buy', { node_id: core.id })
    expect(again.body_.data.id).toBe(open.body_.data.id)
    expect((await tier(s, me, 'core')).seats_left).toBe(297)
    expect(await s.count("SELECT count(*) FROM pay_orders WHERE type = 'node'")).toBe(3)
    expect((await post<PayOrder>(s, me, 'orders/cancel', { id: open.body_.data.id })).body_.data.status).toBe('cancelled')
    expect((await tier(s, me, 'core')).seats_left).toBe(298)
    expect((await post(s, me, 'node/buy', { node_id: core.id })).statusCode).toBe(200)
    // Unknown tier and bad input change nothing.
    expect((await post(s, me, 'node/buy', { node_id: 999 })).statusCode).toBe(404)
    expect((await post(s, me, 'node/buy', { node_id: core.id, extra: 1 })).statusCode).toBe(400)
    expect((await post(s, me, 'node/buy', { node_id: 'x' })).statusCode).toBe(400)
    expect((await tier(s, me, 'core')).seats_left).toBe(297)
  })

  it('seats never oversell: the last seat goes to one buyer, and comes back when the unpaid order expires', async () => {
    const s = await start()
    const [a, b] = [await s.signIn(), await s.signIn()]
    await s.ctx.sql.run(statement("UPDATE node_tiers SET seats_total = 1, seats_left = 1 WHERE type = 'genesis'"))
    const genesis = await tier(s, a, 'genesis')
    const both = await Promise.all([post(s, a, 'node/buy', { node_id: genesis.id }), post(s, b, 'node/buy', { node_id: genesis.id })])
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(both.find((r) => r.statusCode === 409)!.body_.msg).toBe(msg('errors.nodeSoldOut'))
    expect(await s.count("SELECT seats_left FROM node_tiers WHERE type = 'genesis'")).toBe(0)
    s.clock.advance(s.config.orders.holds.holdMs + 1000)
    expect(await expireOrders(s.ctx)).toBe(1)
    expect(await s.count("SELECT seats_left FROM node_tiers WHERE type = 'genesis'")).toBe(1)
    expect(await s.count("SELECT count(*) FROM node_orders WHERE status = 'cancelled'")).toBe(1)
  })
})

describe('the settlement and nodes', () => {
  it('pays the node mining and its share of the day’s withdraw fees, then returns the stake after its days', async () => {
    const s = await start()
    const [a, b, other] = [await s.signIn(), await s.signIn(), await s.signIn()]
    await credit(s, a.userId, 'USDT', '5000')
    await credit(s, b.userId, 'USDT', '1000')
    await buyAndPay(s, a, 'core') // power 6000, 0.4 %/day → 24 NADI; fee weight 6 %
    await buyAndPay(s, b, 'elite') // power 1000, 0.3 %/day → 3 NADI; fee weight 1 %
    // Nothing earns on the day of payment: the first day settled is the next.
    const d0 = dayOf(s.clock.now())
    // The next day: the nodes mine, and a 10 NADI withdrawal fee is taken.
    s.clock.advance(DAY)
    await confirmedWithdrawal(s, other.userId, '10', s.clock.now())
    s.clock.advance(DAY)
    const days = await settleDue(s.ctx)
    expect(days.map((d) => d.day)).toEqual([d0 + 1])
    // Pool 5 NADI (50 %) split 6 : 1 → 4.28571428 and 0.71428571, one unit of dust.
    expect(await nadi(s, a.userId)).toBe(units('24') + units('4.28571428'))
    expect(await nadi(s, b.userId)).toBe(units('3') + units('0.71428571'))
    expect((await balance(s.ctx.sql, DUST, 'NADI')).available).toBeGreaterThanOrEqual(1n)
    expect(await s.count('SELECT dust FROM node_fee_days WHERE day = ?', d0 + 1)).toBe(1)
    // The other half stays in the fees account, less the ranking's prize pools' shares of the same
    // day's fees (10 % + 5 % by default, issue 12): a share of the income each, never of the balance.
    expect((await balance(s.ctx.sql, FEES, 'NADI')).available).toBe(units('3.5'))
    const mine = (await post<PagedList<MyNode>>(s, a, 'node/getOrder', {})).body_.data.list[0]!
    expect(mine).toMatchObject({ mined: '24', fee_share: '4.28571428', days_left: 269 })
    // A second pass pays nothing more.
    expect(await settleDue(s.ctx)).toEqual([])
    expect(await nadi(s, a.userId)).toBe(units('24') + units('4.28571428'))

    // 270 days of mining from the day after payment; the stake comes back with the last one.
    s.clock.advance(268 * DAY)
    await settleDue(s.ctx)
    expect((await usdt(s, a.userId)).frozen).toBe(units('5000'))
    s.clock.advance(DAY)
    await settleDue(s.ctx)
    expect(await usdt(s, a.userId)).toEqual({ available: units('5000'), frozen: 0n })
    const back = (await post<PagedList<MyNode>>(s, a, 'node/getOrder', {})).body_.data.list[0]!
    expect(back).toMatchObject({ status: 'returned', days_left: 0, mined: String(24 * 270) })
    expect(back.returned_at).not.toBeNull()
    // The elite node (180 days) came back earlier; the level stays.
    expect(await usdt(s, b.userId)).toEqual({ available: units('1000'), frozen: 0n })
    expect((await get<UserInfo>(s, a, 'user/info')).body_.data.level).toBe(2)
    s.clock.advance(DAY)
    await settleDue(s.ctx)
    expect(await nadi(s, a.userId)).toBe(units(String(24 * 270)) + units('4.28571428'))
  })
  it('pays node dividends apart from the fee share: a share of the day’s trading fees, split by stake, once', async () => {
    const s = await start()
    const [a, b, seller, buyer] = [await s.signIn(), await s.signIn(), await s.signIn(), await s.signIn()]
    await credit(s, a.userId, 'USDT', '5000')
    await credit(s, b.userId, 'USDT', '1000')
    await buyAndPay(s, a, 'core') // stake 5000 USDT
    await buyAndPay(s, b, 'elite') // stake 1000 USDT: dividends split 5 : 1
    const d0 = dayOf(s.clock.now())
    // The next day two traders fill 100 NADI at 2 USDT: the seller (maker) pays 0.2 USDT, the buyer
    // (taker) 0.1 NADI of fees (0.1 % each).
    s.clock.advance(DAY)
    for (const [who, asset] of [
      [seller, 'NADI'],
      [buyer, 'USDT'],
    ] as const) {
      await transfer(s.ctx.sql, { ref: `test:node:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(who.userId), asset, amount: units('1000') })
    }
    const order = (who: SignedIn, side: 'buy' | 'sell') =>
      post(s, who, 'trade/placeOrder', { inst_id: 'NADI-USDT', client_order_id: `div${++refs}`, side, type: 'limit', price: '2', size: '100' })
    expect((await order(seller, 'sell')).statusCode).toBe(200)
    expect((await order(buyer, 'buy')).statusCode).toBe(200)
    expect(await s.count('SELECT count(*) FROM trade_deals WHERE fee > 0')).toBe(2)
    const [aNadi, bNadi, aUsdt, bUsdt] = [await nadi(s, a.userId), await nadi(s, b.userId), (await usdt(s, a.userId)).available, (await usdt(s, b.userId)).available]
    s.clock.advance(DAY)
    expect((await settleDue(s.ctx)).map((d) => d.day)).toEqual([d0 + 1])
    // Pools of 20 %: 0.04 USDT and 0.02 NADI, 5 : 1 by stake, one unit of dust each. No withdraw fee
    // that day, so no fee share.
    expect((await usdt(s, a.userId)).available - aUsdt).toBe(units('0.03333333'))
    expect((await usdt(s, b.userId)).available - bUsdt).toBe(units('0.00666666'))
    expect(await nadi(s, a.userId) - aNadi - units('24')).toBe(units('0.01666666'))
    expect(await nadi(s, b.userId) - bNadi - units('3')).toBe(units('0.00333333'))
    expect(await s.ctx.sql.all(statement<{ asset: unknown; fees: unknown; pool: unknown; paid: unknown; dust: unknown }>('SELECT asset, fees, pool, paid, dust FROM node_dividend_days WHERE day = ? ORDER BY asset'), d0 + 1)).toEqual([
      { asset: 'NADI', fees: units('0.1'), pool: units('0.02'), paid: units('0.01999999'), dust: 1n },
      { asset: 'USDT', fees: units('0.2'), pool: units('0.04'), paid: units('0.03999999'), dust: 1n },
    ])
    expect(await s.count('SELECT count(*) FROM node_fee_days')).toBe(0)
    const log = (await get<PagedList<MoneyRecord>>(s, a, 'wallet/moneyLog?type=node_dividend')).body_.data.list
    expect(log.map((r) => [r.asset, r.amount, r.link])).toEqual(
      expect.arrayContaining([
        ['USDT', '0.03333333', { screen: 'earnings', day: d0 + 1 }],
        ['NADI', '0.01666666', { screen: 'earnings', day: d0 + 1 }],
      ]),
    )
    const day = (await get<DayEarnings>(s, a, `wallet/earnings?day=${d0 + 1}`)).body_.data
    expect(day.list.filter((l) => l.reason === 'node_dividend').map((l) => [l.asset, l.amount])).toEqual([
      ['NADI', '0.01666666'],
      ['USDT', '0.03333333'],
    ])
    const mine = (await post<PagedList<MyNode>>(s, a, 'node/getOrder', {})).body_.data.list[0]!
    expect(mine).toMatchObject({ fee_share: '0', dividends: { USDT: '0.03333333', NADI: '0.01666666' } })
    expect((await get<NodeConfig>(s, a, 'node/config')).body_.data).toMatchObject({ fee_pool_share: '50', dividend_pool_share: '20' })
    expect(await auditNodeGrants(s.ctx.sql)).toEqual([])
    // A second pass pays nothing more.
    const postings = await s.count('SELECT count(*) FROM ledger_postings')
    expect(await settleDue(s.ctx)).toEqual([])
    expect(await s.count('SELECT count(*) FROM ledger_postings')).toBe(postings)
    expect((await usdt(s, a.userId)).available - aUsdt).toBe(units('0.03333333'))
  })
})

describe("the operator's node commands", () => {
  it("'node load' updates a tier and the plans beside the running server, keeps seats taken, refuses a bad file without writing; 'node list' shows them", async () => {
    const s = await start()
    const me = await s.signIn()
    await credit(s, me.userId, 'USDT', '5000')
    await buyAndPay(s, me, 'core')
    const run = async (...argv: string[]) => {
      let out = ''
      let err = ''
      const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
      return { code, out, err }
    }
    const file = (body: unknown) => {
      const f = path.join(s.dir, `nodes-${Math.random().toString(36).slice(2)}.json`)
      fs.writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body))
      return f
    }
    const core = { type: 'core', seats: 500, limit_num: 2, amount: '6000', days: 100, power: '7000', level_id: 2, withdraw_rate: '7', machine_rate: '0.5' }
    expect(await run('node', 'load', file({ tiers: [core], loan_plans: [{ slug: 'flex-30', ltv: '40', daily_rate: '0.1', max_days: 10 }] }))).toMatchObject({ code: 0, out: 'node tiers loaded: 1; loan plans loaded: 1\n' })
    const tier = (await get<NodeConfig>(s, me, 'node/config')).body_.data.tiers.find((t) => t.type === 'core')!
    expect(tier).toMatchObject({ total: 500, seats_left: 499, limit_num: 2, amount: '6000', days: 100, machine_rate: '0.5' })
    // The node bought keeps the terms it was bought on.
    expect((await post<PagedList<MyNode>>(s, me, 'node/getOrder', {})).body_.data.list[0]).toMatchObject({ amount: '5000', days: 270 })
    // Fewer seats than are taken: the taken ones stay taken.
    expect((await run('node', 'load', file({ tiers: [{ ...core, seats: 0 }] }))).code).toBe(0)
    expect(await s.count("SELECT seats_total FROM node_tiers WHERE type = 'core'")).toBe(1)
    expect(await s.count("SELECT seats_left FROM node_tiers WHERE type = 'core'")).toBe(0)
    for (const bad of ['{', { tiers: [{ ...core, type: 'gold' }] }, { tiers: [{ ...core, machine_rate: '101' }] }, { tiers: [core, core] }, { loan_plans: [{ slug: 'x', ltv: '0', daily_rate: '1', max_days: 1 }] }]) {
      const r = await run('node', 'load', file(bad))
      expect(r.code).toBe(1)
      expect(r.err).toMatch(/node load: /)
    }
    expect(await s.count("SELECT seats_total FROM node_tiers WHERE type = 'core'")).toBe(1)
    const list = await run('node', 'list')
    expect(list.code).toBe(0)
    expect(list.out).toMatch(/core seats 0\/1 limit 2 stake 6000 USDT 100 days power 7000 T2 withdraw 70000 ppm machine 5000 ppm/)
    expect(list.out).toMatch(/plan \d+ flex-30 ltv 400000 ppm daily 1000 ppm 10 days/)
  })
})
