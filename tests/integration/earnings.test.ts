// Every earning traceable (issue 11 part 7): the money log links each record to what produced it —
// a settlement and a node's fee share to their day, a stake and a pledge to the node and the pledge —
// and GET wallet/earnings answers the caller's earnings of one settled day, position by position,
// each with where the app shows it. Only the caller's own positions; a bad, out-of-range or unsettled
// day is refused in the user's language.

import { afterEach, describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { MyPledge, PledgeProduct } from '../../contract/pledge.ts'
import type { DayEarnings, MoneyRecord } from '../../contract/wallet.ts'
import { formatMoney } from '../../contract/money.ts'
import { translate } from '../../server/i18n.ts'
import { audit, custody, FEES, fund, transfer } from '../../server/ledger/index.ts'
import { auditSettlement, isoDay, settleDue } from '../../server/modules/settlement/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_GOLD_WALK_MS: '0', NADI_TRIAL_POWER: '100' } })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
const live: TestServer[] = []
afterEach(async () => {
  for (const s of live.splice(0)) {
    expect((await audit(s.ctx.sql)).violations).toEqual([])
    expect(await auditSettlement(s.ctx.sql)).toEqual([])
  }
})
let refs = 0
const credit = (s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:earn:${++refs}`, reason: 'deposit', from: custody(asset === 'USDT' ? 'bsc' : 'nadi'), to: fund(userId), asset, amount: units(amount) })
const get = <T>(s: TestServer, who: SignedIn, path: string, lang = 'EN') => s.get<T>(`${API}/${path}`, { token: who.token, lang })
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const moneyLog = async (s: TestServer, who: SignedIn, type?: string) =>
  (await get<PagedList<MoneyRecord>>(s, who, `wallet/moneyLog?page_size=50${type ? `&type=${type}` : ''}`)).body_.data.list

/** A user with a core node (stake 5000 USDT, mining from tomorrow) and a 200 NADI daily pledge. */
async function invested(s: TestServer) {
  const me = await s.signIn()
  await credit(s, me.userId, 'USDT', '5000')
  await credit(s, me.userId, 'NADI', '1000')
  const core = (await get<NodeConfig>(s, me, 'node/config')).body_.data.tiers.find((t) => t.type === 'core')!
  const order = await post<PayOrder>(s, me, 'node/buy', { node_id: core.id })
  expect((await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.body_.data.id })).statusCode).toBe(200)
  const product = (await get<PledgeProduct[]>(s, me, 'pledge/list')).body_.data[0]!
  const pledged = await post<MyPledge>(s, me, 'pledge/pledge', { product_id: product.id, amount: '200', mode: 'day' })
  expect(pledged.statusCode).toBe(200)
  const node = (await s.ctx.sql.get(statement<{ id: bigint; tier_id: bigint; position_id: bigint }>('SELECT id, tier_id, position_id FROM node_orders WHERE user_id = ?'), me.userId))!
  return { me, node: { id: Number(node.id), tier: Number(node.tier_id), position: Number(node.position_id) }, pledge: pledged.body_.data.id }
}

describe('earnings linked to their positions and days', () => {
  it('a settlement record opens its day, whose lines are the caller’s positions with where each is shown, summing to the record', async () => {
    const s = await start()
    live.push(s)
    const t0 = s.clock.now()
    const d1 = dayOf(t0) + 1
    const { me, node, pledge } = await invested(s)
    const other = await s.signIn()
    // A withdrawal fee taken on d1, which the node holders share at that day's settlement.
    await s.ctx.sql.run(statement(
        `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
         VALUES (?, 'NADI', 'nadi', ?, ?, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', '0x01', '0x', 0, 3, ?, ?, ?)`,
      ), other.userId, units('1'), units('10'), t0 + DAY, t0 + DAY, t0 + DAY)
    await transfer(s.ctx.sql, { ref: 'test:earn:fee', reason: 'withdraw', from: custody('nadi'), to: FEES, asset: 'NADI', amount: units('10'), at: t0 + DAY })
    s.clock.set(t0 + 2 * DAY)
    await settleDue(s.ctx)

    const log = await moneyLog(s, me)
    const settled = log.find((r) => r.type === 'settlement' && r.link?.screen === 'earnings' && r.link.day === d1)
    expect(settled, JSON.stringify(log)).toBeDefined()
    expect(log.find((r) => r.type === 'node_fee_share')).toMatchObject({ link: { screen: 'earnings', day: d1 }, asset: 'NADI' })
    // (The stake itself moves into the frozen bucket, which the money log does not list; its return does.)
    expect(log.find((r) => r.type === 'pledge')).toMatchObject({ link: { screen: 'pledge', pledge_id: pledge }, amount: '-200' })
    expect(log.find((r) => r.type === 'deposit')?.link).toBeUndefined()

    const day = await get<DayEarnings>(s, me, `wallet/earnings?day=${d1}`)
    expect(day.statusCode).toBe(200)
    const e = day.body_.data
    expect(e).toMatchObject({ day: d1, date: d1 * DAY })
    const pledgePosition = Number(await s.count('SELECT position_id FROM pledges WHERE id = ?', pledge))
    expect(e.list).toEqual(
      expect.arrayContaining([
        { position_id: node.position, kind: 'node', source: `node:${node.id}`, reason: 'settlement', asset: 'NADI', amount: '24', target: { screen: 'node', node_id: node.id, tier_id: node.tier } },
        { position_id: pledgePosition, kind: 'pledge', source: `pledge:${pledge}`, reason: 'settlement', asset: 'NADI', amount: '0.2', target: { screen: 'pledge', pledge_id: pledge } },
        expect.objectContaining({ kind: 'trial', reason: 'settlement', target: expect.objectContaining({ screen: 'powerLog' }) }),
        expect.objectContaining({ position_id: node.position, kind: 'node', reason: 'node_fee_share', asset: 'NADI', target: { screen: 'node', node_id: node.id, tier_id: node.tier } }),
      ]),
    )
    // The settlement record is the sum of the day's settlement lines, the fee-share record of its shares.
    const sum = (reason: string) => e.list.filter((l) => l.reason === reason).reduce((n, l) => n + units(l.amount), 0n)
    expect(settled!.amount).toBe(formatMoney(sum('settlement')))
    expect(log.find((r) => r.type === 'node_fee_share')!.amount).toBe(formatMoney(sum('node_fee_share')))
    expect(e.totals).toEqual([{ asset: 'NADI', amount: formatMoney(sum('settlement') + sum('node_fee_share')) }])

    // Another user's day holds only their own lines (their trial power), none of the first user's positions.
    const theirs = (await get<DayEarnings>(s, other, `wallet/earnings?day=${d1}`)).body_.data.list
    const mine = new Set(e.list.map((l) => l.position_id))
    expect(theirs.length).toBeGreaterThan(0)
    expect(theirs.filter((l) => mine.has(l.position_id))).toEqual([])
  })

  it('refuses a day that is not an integer, out of range, or not settled, in the user’s language and for no one else', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn()
    const today = dayOf(s.clock.now())
    const ask = (day: string, lang = 'EN') => get<DayEarnings>(s, me, `wallet/earnings?day=${encodeURIComponent(day)}`, lang)
    for (const bad of ['abc', '1.5', '', '1e3', '12x']) {
      const r = await ask(bad)
      expect(r.statusCode, bad).toBe(400)
      expect(r.body_.msg).toBe(translate('EN', 'errors.earningsDayInvalid', { day: bad }))
    }
    for (const out of ['-1', String(today + 1), '99999999999']) {
      const r = await ask(out)
      expect(r.statusCode, out).toBe(400)
      expect(r.body_.msg).toBe(translate('EN', 'errors.earningsDayRange', { day: out, today }))
    }
    const unsettled = await ask(String(today), 'TW')
    expect(unsettled.statusCode).toBe(404)
    expect(unsettled.body_.msg).toBe(translate('TW', 'errors.earningsDayNotSettled', { date: isoDay(today) }))
    expect((await ask('0')).statusCode).toBe(404)
    expect((await s.get(`${API}/wallet/earnings?day=${today - 1}`)).statusCode).toBe(401)
  })

  it('filters the money log by a reason with a dot (pledge.release)', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn()
    const r = await get<PagedList<MoneyRecord>>(s, me, 'wallet/moneyLog?type=pledge.release')
    expect(r.statusCode).toBe(200)
    expect(r.body_.data).toEqual({ total: 0, list: [] })
  })
})
