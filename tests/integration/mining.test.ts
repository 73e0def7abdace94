// Destroy and joint mining over HTTP (issue 11 part 3): an order below the minimum is refused with
// "minimum destroy amount is X" and changes nothing; paid, the NADI is burned and the power (×
// multiplier, plus gift) is released daily by the settlement until exhausted; the destroy list and
// the power log show it; a newcomer's trial power when it is on; joint mining holds the price previewed.

import { afterEach, describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { DestroyRecord, MiningInfo, MiningJointQuote, PowerLogItem } from '../../contract/mining.ts'
import type { PayOrder } from '../../contract/orders.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, BURNED, custody, fund, MINING, trade, transfer, TREASURY } from '../../server/ledger/index.ts'
import { FLOW_POOL_TTL_MS } from '../../server/modules/mining/service.ts'
import { dayOf, dayStart } from '../../server/modules/release/schedule.ts'
import { auditSettlement, SettlementFundingShort, settleDue } from '../../server/modules/settlement/service.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } })
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
const live: TestServer[] = []
afterEach(async () => {
  for (const s of live.splice(0)) {
    expect((await audit(s.ctx.sql)).violations).toEqual([])
    expect(await auditSettlement(s.ctx.sql)).toEqual([])
  }
})
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`/api/v1/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const get = <T>(s: TestServer, who: SignedIn, path: string) => s.get<T>(`/api/v1/${path}`, { token: who.token, lang: 'EN' })

describe('destroy mining', () => {
  it('below the minimum is refused; paid, the NADI is burned and 3× power + 10 % gift is released 0.5 % a day', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    await transfer(s.ctx.sql, { ref: 'test:mining:credit', reason: 'deposit', from: custody('nadi'), to: fund(me.userId), asset: 'NADI', amount: units('1000') })
    const low = await post(s, me, 'mining/destroy', { amount: '99.99' })
    expect(low.statusCode).toBe(400)
    expect(low.body_.msg).toBe(translate('EN', 'errors.destroyMin', { amount: '100' }))
    for (const bad of ['abc', '-1', '1.123456789', '']) expect((await post(s, me, 'mining/destroy', { amount: bad })).statusCode).toBe(400)
    expect(await s.count('SELECT count(*) FROM pay_orders')).toBe(0)

    const order = (await post<PayOrder>(s, me, 'mining/destroy', { amount: '200' })).body_.data
    expect(order).toMatchObject({ type: 'destroy', asset: 'NADI', total: '200', status: 'pending_payment' })
    const burned = (await balance(s.ctx.sql, BURNED, 'NADI')).available
    expect((await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.id })).body_.data.status).toBe('completed')
    expect((await balance(s.ctx.sql, BURNED, 'NADI')).available - burned).toBe(units('200'))
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('800'))

    const info = (await get<MiningInfo>(s, me, 'mining/info')).body_.data
    expect(info).toMatchObject({ power: '660', today_estimate: '0', yesterday: '0', destroy_min: '100', destroy_multiplier: '3', gift_percent: '10', release_percent: '0.5' })
    const list = (await get<PagedList<DestroyRecord>>(s, me, 'mining/destroyList')).body_.data.list
    expect(list).toEqual([expect.objectContaining({ type: 'destroy', amount: '200', asset: 'NADI', status: 3, price: '0.25', usdt_value: '50' })])

    s.clock.advance(DAY)
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.today_estimate).toBe('3.3')
    s.clock.advance(DAY)
    await settleDue(s.ctx)
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('803.3'))
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.yesterday).toBe('3.3')
    const log = (await get<PagedList<PowerLogItem>>(s, me, 'mining/powerLog')).body_.data.list
    expect(log[0]).toMatchObject({ type: 'destroy', buy_power: '600', gift_power: '60', released: '3.3', remaining: '656.7', daily: '3.3', release_percent: '0.5', days: null, status: 'active' })
  })

  it('joint mining converts USDT at the NADI price; a trial power is given to a newcomer when on', async () => {
    const s = await start({ env: { NADI_TRIAL_POWER: '100', NADI_TRIAL_DAYS: '7' } })
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    expect((await get<PagedList<DestroyRecord>>(s, me, 'mining/destroyList')).body_.data.list).toEqual([expect.objectContaining({ type: 'trial', status: 1 })])
    await transfer(s.ctx.sql, { ref: 'test:mining:usdt', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100') })
    expect((await post(s, me, 'mining/joint', { amount: '9', price: '0.25' })).body_.msg).toBe(translate('EN', 'errors.jointMin', { amount: '10' }))
    const order = (await post<PayOrder>(s, me, 'mining/joint', { amount: '10', price: '0.25' })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    // 10 USDT at 0.25 = 40 NADI's worth × 2 = 80 power + 8 gift, plus the trial's 100.
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.power).toBe('188')
    s.clock.advance(10 * DAY)
    await settleDue(s.ctx)
    const log = (await get<PagedList<PowerLogItem>>(s, me, 'mining/powerLog')).body_.data.list
    expect(log.find((p) => p.type === 'trial')).toMatchObject({ released: '100', remaining: '0', status: 'ended', days: 7 })
  })

  it('power pauses (status 2, the reason and since when) while the mining reward pool cannot fund a day, and resumes with the paused days paid once it is funded', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    await transfer(s.ctx.sql, { ref: 'test:pause:credit', reason: 'deposit', from: custody('nadi'), to: fund(me.userId), asset: 'NADI', amount: units('1000') })
    const order = (await post<PayOrder>(s, me, 'mining/destroy', { amount: '200' })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    const firstDay = dayOf(s.clock.now()) + 1
    const pool = (await balance(s.ctx.sql, MINING, 'NADI')).available
    await transfer(s.ctx.sql, { ref: 'test:pause:drain', reason: 'test', from: MINING, to: TREASURY, asset: 'NADI', amount: pool })

    s.clock.advance(3 * DAY)
    await expect(settleDue(s.ctx)).rejects.toBeInstanceOf(SettlementFundingShort)
    const pause = { reason: 'reward_pool', since: dayStart(firstDay) }
    expect((await get<PagedList<DestroyRecord>>(s, me, 'mining/destroyList')).body_.data.list).toEqual([expect.objectContaining({ type: 'destroy', status: 2, pause })])
    expect((await get<PagedList<PowerLogItem>>(s, me, 'mining/powerLog')).body_.data.list[0]).toMatchObject({ type: 'destroy', status: 'paused', pause, released: '0', remaining: '660' })
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data).toMatchObject({ pause, power: '660' })
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('800'))

    await transfer(s.ctx.sql, { ref: 'test:pause:refill', reason: 'test', from: TREASURY, to: MINING, asset: 'NADI', amount: pool })
    await settleDue(s.ctx)
    expect((await get<PagedList<DestroyRecord>>(s, me, 'mining/destroyList')).body_.data.list[0]).toMatchObject({ status: 3, pause: null })
    expect((await get<PagedList<PowerLogItem>>(s, me, 'mining/powerLog')).body_.data.list[0]).toMatchObject({ status: 'active', pause: null, released: '6.6' })
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.pause).toBeNull()
    // Both paused days are paid: nothing is lost while paused.
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('806.6'))
  })
})

describe('the account pools (SPEC §3)', () => {
  it('the destroy pool is the NADI burned by destroy mining; the flow pool the NADI users hold, refreshed at most once a minute', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    const held = () => s.count("SELECT coalesce(sum(available + frozen), 0) FROM ledger_accounts WHERE user_id IS NOT NULL AND asset = 'NADI'")
    const before = (await get<MiningInfo>(s, me, 'mining/info')).body_.data
    expect(units(before.destroy_pool)).toBe((await balance(s.ctx.sql, BURNED, 'NADI')).available)
    expect(units(before.flow_pool)).toBe(BigInt(await held()))

    await transfer(s.ctx.sql, { ref: 'test:pools:credit', reason: 'deposit', from: custody('nadi'), to: fund(me.userId), asset: 'NADI', amount: units('1000') })
    const order = (await post<PayOrder>(s, me, 'mining/destroy', { amount: '300' })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    const after = (await get<MiningInfo>(s, me, 'mining/info')).body_.data
    expect(units(after.destroy_pool) - units(before.destroy_pool)).toBe(units('300'))
    expect(after.flow_pool).toBe(before.flow_pool)

    s.clock.advance(FLOW_POOL_TTL_MS)
    const later = (await get<MiningInfo>(s, me, 'mining/info')).body_.data
    // 1,000 came in, 300 was burned.
    expect(units(later.flow_pool) - units(before.flow_pool)).toBe(units('700'))
    expect(units(later.flow_pool)).toBe(BigInt(await held()))
  })
})

/** Two traders fill 20 NADI at `price`: the market's last price, which joint mining converts at, becomes it. */
async function moveMarket(s: TestServer, price: string) {
  const [seller, buyer] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
  await transfer(s.ctx.sql, { ref: `test:mining:seller:${price}`, reason: 'deposit', from: custody('nadi'), to: trade(seller.userId), asset: 'NADI', amount: units('20') })
  await transfer(s.ctx.sql, { ref: `test:mining:buyer:${price}`, reason: 'deposit', from: custody('bsc'), to: trade(buyer.userId), asset: 'USDT', amount: units('1000') })
  for (const [who, side] of [[seller, 'sell'], [buyer, 'buy']] as const) {
    const placed = await post(s, who, 'trade/placeOrder', { inst_id: 'NADI-USDT', client_order_id: `move-${side}`, side, type: 'limit', price, size: '20' })
    expect(placed.body_.code).toBe(200)
  }
}

describe('joint mining holds the price previewed', () => {
  it('an order pays at the price it was placed at though the market moved before payment; a preview the market has left is refused naming both prices, and creates nothing', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    await transfer(s.ctx.sql, { ref: 'test:mining:joint:credit', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100') })
    const previewed = (await get<MiningInfo>(s, me, 'mining/info')).body_.data.nadi_price
    expect(previewed).toBe('0.25')
    const order = (await post<PayOrder>(s, me, 'mining/joint', { amount: '10', price: previewed })).body_.data

    await moveMarket(s, '0.5')
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.nadi_price).toBe('0.5')
    expect((await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.id })).body_.data.status).toBe('completed')
    // 10 USDT at the held 0.25 = 40 NADI's worth × 2 = 80 power + 8 gift — not the 40 + 4 of 0.5.
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.power).toBe('88')
    const [bought] = (await get<PagedList<DestroyRecord>>(s, me, 'mining/destroyList')).body_.data.list
    expect(bought).toMatchObject({ type: 'joint', price: '0.25', usdt_value: '10' })

    const orders = await s.count('SELECT count(*) FROM pay_orders')
    const moved = await post(s, me, 'mining/joint', { amount: '10', price: '0.25' })
    expect(moved.statusCode).toBe(409)
    expect(moved.body_.msg).toBe(translate('EN', 'errors.jointPriceMoved', { now: '0.5', previewed: '0.25' }))
    for (const body of [{ amount: '10', price: '0' }, { amount: '10', price: 'abc' }, { amount: '10' }]) expect((await post(s, me, 'mining/joint', body)).statusCode).toBe(400)
    expect(await s.count('SELECT count(*) FROM pay_orders')).toBe(orders)
    // Previewed again at the new price, the order goes through.
    expect((await post<PayOrder>(s, me, 'mining/joint', { amount: '10', price: '0.5' })).body_.data.status).toBe('pending_payment')
  })
})


describe('trial power', () => {
  it('mining/info says how much of the power is the newcomer’s trial power, and bought power does not count as trial', async () => {
    const s = await start({ env: { NADI_TRIAL_POWER: '100' } })
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    const first = (await get<MiningInfo>(s, me, 'mining/info')).body_.data
    expect(first).toMatchObject({ power: '100', trial_power: '100' })
    await transfer(s.ctx.sql, { ref: 'test:mining:trial', reason: 'deposit', from: custody('nadi'), to: fund(me.userId), asset: 'NADI', amount: units('200') })
    const order = (await post<PayOrder>(s, me, 'mining/destroy', { amount: '200' })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data).toMatchObject({ power: '760', trial_power: '100' })
  })
})

describe('joint mining at a quoted price (issue 33 §4)', () => {
  it('a quote confirmed within its validity places the order at exactly its price though the market moved; a second use, an expired quote and another user’s are refused naming the new price, and change nothing', async () => {
    const s = await start()
    live.push(s)
    const me = await s.signIn(ROOT_CODE)
    await transfer(s.ctx.sql, { ref: 'test:mining:quote:credit', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100') })
    const quote = (await get<MiningJointQuote>(s, me, 'mining/jointQuote')).body_.data
    expect(quote).toMatchObject({ price: '0.25', expires_at: s.clock.now() + 30_000 })

    await moveMarket(s, '0.5')
    s.clock.advance(29_999)
    const order = (await post<PayOrder>(s, me, 'mining/joint', { amount: '10', quote_id: quote.quote_id })).body_.data
    expect(order).toMatchObject({ type: 'joint', total: '10', status: 'pending_payment' })
    expect((await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.id })).body_.data.status).toBe('completed')
    // 10 USDT at the quoted 0.25 = 40 NADI's worth × 2 = 80 power + 8 gift — not the 40 + 4 of 0.5.
    expect((await get<MiningInfo>(s, me, 'mining/info')).body_.data.power).toBe('88')

    const orders = await s.count('SELECT count(*) FROM pay_orders')
    const gone = translate('EN', 'errors.jointQuoteGone', { now: '0.5' })
    const again = await post(s, me, 'mining/joint', { amount: '10', quote_id: quote.quote_id })
    expect([again.statusCode, again.body_.msg]).toEqual([409, gone])

    const late = (await get<MiningJointQuote>(s, me, 'mining/jointQuote')).body_.data
    expect(late.price).toBe('0.5')
    s.clock.advance(30_000)
    const expired = await post(s, me, 'mining/joint', { amount: '10', quote_id: late.quote_id })
    expect([expired.statusCode, expired.body_.msg]).toEqual([409, gone])

    const other = await s.signIn(ROOT_CODE)
    const theirs = (await get<MiningJointQuote>(s, other, 'mining/jointQuote')).body_.data
    for (const id of [theirs.quote_id, 'no-such-quote']) {
      const foreign = await post(s, me, 'mining/joint', { amount: '10', quote_id: id })
      expect([foreign.statusCode, foreign.body_.msg]).toEqual([404, gone])
    }
    // Both a quote and a price, or neither: which price is meant is not guessed.
    for (const body of [{ amount: '10', quote_id: theirs.quote_id, price: '0.5' }, { amount: '10' }]) expect((await post(s, me, 'mining/joint', body)).statusCode).toBe(400)
    expect(await s.count('SELECT count(*) FROM pay_orders')).toBe(orders)
    // A refused confirm leaves the quote unused: its owner can still confirm it.
    expect(await s.count(`SELECT count(*) FROM joint_quotes WHERE used_at IS NOT NULL`)).toBe(1)
    expect((await post<PayOrder>(s, other, 'mining/joint', { amount: '10', quote_id: theirs.quote_id })).body_.data).toMatchObject({ type: 'joint', status: 'pending_payment' })
  })
})
