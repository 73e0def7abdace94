// The shops over HTTP (issue 10, DESIGN §10): the demo catalog, an order from confirm to receipt,
// releases posted by day exactly once, stock that is never oversold, and every refusal changing
// nothing. The ledger audit passes after each test.

import { afterEach, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, Network, parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoldBanner, GoldCategory, GoldGroup, GoldPrice, GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PayOrder, PayTargets } from '../../contract/orders.ts'
import type { PreOrderResult, PreOrderTips, ShopOrder } from '../../contract/preOrder.ts'
import type { ReleasePlan } from '../../contract/release.ts'
import type { UserInfo } from '../../contract/user.ts'
import type { Address } from '../../contract/address.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { translate } from '../../server/i18n.ts'
import { RELEASES, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { checkChainPayments } from '../../server/modules/payment/index.ts'
import { expireOrders } from '../../server/modules/orders/service.ts'
import { autoConfirmReceipts, shipOrder, ShipRefused } from '../../server/modules/preOrder/service.ts'
import { releaseDue } from '../../server/modules/release/service.ts'
import { statement } from '../../server/db/query/types.ts'

// Sessions outlive the days the tests move the clock through (the idle expiry has its own tests).
const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual', NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } }, { audited: true })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
const providers: JsonRpcProvider[] = []
afterEach(() => {
  for (const p of providers.splice(0)) p.destroy()
})
let refs = 0
const credit = (s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:commerce:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: units(amount) })
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const get = <T>(s: TestServer, who: SignedIn | null, path: string) => s.get<T>(`${API}/${path}`, { token: who?.token, lang: 'EN' })
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const usdt = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'USDT')).available
const nadi = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'NADI')).available

async function addressOf(s: TestServer, who: SignedIn): Promise<number> {
  const r = await post<Address>(s, who, 'address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })
  expect(r.statusCode).toBe(200)
  return r.body_.data.id
}

async function product(s: TestServer, area: 'machine' | 'gold' | 'car', pick: (g: GoodsItem) => boolean = () => true): Promise<GoodsDetail> {
  const list = (await get<PagedList<GoodsItem>>(s, null, `${area}/goodsList?page_size=50`)).body_.data.list
  const item = list.find(pick)
  if (!item) throw new Error(`no ${area} product matches`)
  return (await get<GoodsDetail>(s, null, `${area}/goodsDetail?id=${item.id}`)).body_.data
}

const stockOf = (s: TestServer, specId: number) => s.count('SELECT stock FROM product_specs WHERE id = ?', specId)

describe('catalogs', () => {
  it('the device shop lists a tablet, a straight and a foldable phone, each with specifications to choose', async () => {
    const s = await start()
    const list = (await get<PagedList<GoodsItem>>(s, null, 'machine/goodsList')).body_.data
    expect(new Set(list.list.map((g) => g.kind))).toEqual(new Set(['tablet', 'straight', 'foldable']))
    const foldable = (await get<PagedList<GoodsItem>>(s, null, 'machine/goodsList?kind=foldable')).body_.data
    expect(foldable.list.every((g) => g.kind === 'foldable')).toBe(true)
    const d = await product(s, 'machine', (g) => g.kind === 'foldable')
    expect(d.specs.length).toBeGreaterThan(1)
    for (const spec of d.specs) expect(Number(spec.price)).toBeGreaterThan(0)
    expect(d.name).not.toBe('')
    const tw = (await s.get<GoodsDetail>(`${API}/machine/goodsDetail?id=${d.id}`, { lang: 'TW' })).body_.data
    expect(tw.name).not.toBe(d.name)
  })

  it('gold is priced from weight × the gold price per gram + the craft fee', async () => {
    const s = await start()
    const price = (await get<GoldPrice>(s, null, 'gold/price')).body_.data
    expect(Number(price.price)).toBeGreaterThan(0)
    expect(price.history.length).toBeGreaterThan(10)
    const cats = (await get<GoldCategory[]>(s, null, 'gold/categoryList')).body_.data
    expect(cats.length).toBeGreaterThanOrEqual(3)
    const inCat = (await get<PagedList<GoodsItem>>(s, null, `gold/goodsList?category_id=${cats[0]!.id}`)).body_.data.list
    expect(inCat.length).toBeGreaterThan(0)
    expect(inCat.every((g) => g.category_id === cats[0]!.id)).toBe(true)
    const d = await product(s, 'gold')
    for (const spec of d.specs) {
      // Rounded up to the cent USDT is charged in (issue 33).
      const metal = (units(spec.weight!) * units(d.gold_price!) + units('1') - 1n) / units('1')
      const cent = units('0.01')
      expect(units(spec.price)).toBe(((metal + units(spec.craft_fee!) + cent - 1n) / cent) * cent)
    }
    const groups = (await get<GoldGroup[]>(s, null, 'gold/group')).body_.data
    expect(groups.length).toBeGreaterThan(0)
    const banners = (await get<GoldBanner[]>(s, null, 'gold/banner')).body_.data
    expect(banners.length).toBeGreaterThan(0)
    expect(banners[0]!.link).toMatch(/^\/mall\/detail\/\d+$/)
  })

  it('an unknown product, or one of another shop, is not found', async () => {
    const s = await start()
    const gold = await product(s, 'gold')
    const r = await get(s, null, `machine/goodsDetail?id=${gold.id}`)
    expect(r.statusCode).toBe(404)
    expect(r.body_.msg).toBe(msg('errors.goodsNotFound'))
    expect((await get(s, null, 'machine/goodsDetail?id=999999')).statusCode).toBe(404)
    expect((await get(s, null, 'machine/goodsList?kind=toaster')).statusCode).toBe(400)
  })
})

describe('an order from confirm to receipt', () => {
  it('a foldable phone bought with balance goes pending shipment → shipped → received; performance and the release plan follow', async () => {
    const s = await start()
    const inviter = await s.signIn(ROOT_CODE)
    const inviterCode = (await get<UserInfo>(s, inviter, 'user/info')).body_.data.code
    const me = await s.signIn(inviterCode)
    const addressId = await addressOf(s, me)
    const d = await product(s, 'machine', (g) => g.kind === 'foldable')
    const spec = d.specs[0]!
    await credit(s, me.userId, 'USDT', '5000')
    const before = await stockOf(s, spec.id)

    const created = await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 2, address_id: addressId, remark: ' leave at the door ' })
    expect(created.statusCode).toBe(200)
    const { order, shop_order } = created.body_.data
    expect(order).toMatchObject({ type: 'device', asset: 'USDT', status: 'pending_payment', total: String(Number(spec.price) * 2) })
    expect(shop_order).toMatchObject({ status: null, remark: 'leave at the door', ship_to: { name: 'Lin Mei', phone: '091****678', area: 'Taipei City' } })
    expect(await stockOf(s, spec.id)).toBe(before - 2)
    // The catalog says so at once (its answers are cached per catalog version).
    expect((await get<GoodsDetail>(s, null, `machine/goodsDetail?id=${d.id}`)).body_.data.specs[0]!.stock).toBe(before - 2)
    expect((await get<PreOrderTips>(s, me, 'preOrder/tips')).body_.data).toMatchObject({ count: 1, next: { id: order.id } })

    const paid = await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.id })
    expect(paid.body_.data.status).toBe('paid')
    expect(await usdt(s, me.userId)).toBe(units('5000') - units(order.total))
    expect((await get<PreOrderTips>(s, me, 'preOrder/tips')).body_.data.count).toBe(0)

    const pending = (await get<PagedList<ShopOrder>>(s, me, 'machine/orderList?status=pending_shipment')).body_.data
    expect(pending.list.map((o) => o.id)).toEqual([order.id])
    expect((await get<PagedList<ShopOrder>>(s, me, 'machine/orderList?status=pending_receipt')).body_.data.total).toBe(0)
    expect((await get<PagedList<ShopOrder>>(s, me, 'gold/orderList')).body_.data.total).toBe(0)

    // Performance: the buyer's own, the inviter's direct and team.
    const mine = (await get<UserInfo>(s, me, 'user/info')).body_.data
    const theirs = (await get<UserInfo>(s, inviter, 'user/info')).body_.data
    expect(mine.me_performance).toBe(order.total)
    expect(theirs.zhi_performance).toBe(order.total)
    expect(theirs.team_performance).toBe(order.total)

    // A receipt before shipping is refused and changes nothing.
    const early = await post(s, me, 'machine/receipt', { id: order.id })
    expect(early.statusCode).toBe(409)
    expect(early.body_.msg).toBe(msg('errors.receiptNotPending'))

    await shipOrder(s.ctx, order.id, 'SF Express', 'SF1234567890')
    await expect(shipOrder(s.ctx, order.id, 'SF Express', 'SF1234567890')).rejects.toBeInstanceOf(ShipRefused)
    const shipped = (await get<ShopOrder>(s, me, `machine/orderDetail?id=${order.id}`)).body_.data
    expect(shipped).toMatchObject({ status: 'pending_receipt', express_company: 'SF Express', express_no: 'SF1234567890', ship_time: s.clock.now() })
    expect(shipped.auto_confirm_at).toBe(s.clock.now() + 7 * DAY)

    const received = await post<ShopOrder>(s, me, 'machine/receipt', { id: order.id })
    expect(received.body_.data).toMatchObject({ status: 'completed', confirm_time: s.clock.now() })
    const twice = await post(s, me, 'machine/receipt', { id: order.id })
    expect(twice.statusCode).toBe(409)
    expect(twice.body_.msg).toBe(msg('errors.receiptAlreadyConfirmed'))
    expect((await get<PagedList<ShopOrder>>(s, me, 'machine/orderList?status=completed')).body_.data.total).toBe(1)
    // Another user cannot see or receive it.
    const other = await s.signIn(ROOT_CODE)
    expect((await get(s, other, `machine/orderDetail?id=${order.id}`)).statusCode).toBe(404)
  })

  it('a shipped order nobody confirms is received automatically after the configured days', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const addressId = await addressOf(s, me)
    const d = await product(s, 'machine', (g) => g.kind === 'tablet')
    await credit(s, me.userId, 'USDT', '2000')
    const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: d.specs[0]!.id, quantity: 1, address_id: addressId })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    await shipOrder(s.ctx, order.id, 'DHL', 'DHL-0001')
    s.clock.advance(7 * DAY - 1000)
    expect(await autoConfirmReceipts(s.ctx)).toBe(0)
    s.clock.advance(1000)
    expect(await autoConfirmReceipts(s.ctx)).toBe(1)
    expect((await get<ShopOrder>(s, me, `machine/orderDetail?id=${order.id}`)).body_.data.status).toBe('completed')
  })
})

describe('refusals change nothing', () => {
  it('bad quantities, foreign specifications, missing or foreign addresses, long remarks', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    const mine = await addressOf(s, me)
    const theirs = await addressOf(s, other)
    const d = await product(s, 'machine', (g) => g.kind === 'foldable')
    const tablet = await product(s, 'machine', (g) => g.kind === 'tablet')
    const spec = d.specs[0]!
    const stock = await stockOf(s, spec.id)
    const orders = () => s.count('SELECT count(*) FROM pay_orders')
    const base = { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: mine }
    const cases: [unknown, number, string | RegExp][] = [
      [{ ...base, quantity: 0 }, 400, /quantity/],
      [{ ...base, quantity: -1 }, 400, /quantity/],
      [{ ...base, quantity: 1.5 }, 400, /quantity/],
      [{ ...base, quantity: '1' }, 400, /quantity/],
      [{ ...base, quantity: 100 }, 400, /quantity/],
      [{ ...base, spec_id: tablet.specs[0]!.id }, 400, msg('errors.specNotOfGoods')],
      [{ ...base, goods_id: 999999 }, 404, msg('errors.goodsNotFound')],
      [{ ...base, area: 'gold' }, 404, msg('errors.goodsNotFound')],
      [{ ...base, address_id: undefined }, 400, msg('errors.addressRequiredForOrder')],
      [{ ...base, address_id: theirs }, 404, msg('errors.addressNotFound')],
      [{ ...base, remark: 'x'.repeat(201) }, 400, msg('errors.remarkTooLong', { max: 200 })],
      [{ ...base, remark: 'x'.repeat(801) }, 400, msg('errors.remarkTooLong', { max: 200 })],
      [{ ...base, remark: 'a\u202Eb' }, 400, msg('errors.remarkInvalid')],
      [{ ...base, extra: 1 }, 400, /./],
    ]
    for (const [body, status, text] of cases) {
      const r = await post(s, me, 'preOrder/preOrder', body)
      expect(r.statusCode, JSON.stringify(body)).toBe(status)
      if (typeof text === 'string') expect(r.body_.msg).toBe(text)
      else expect(r.body_.msg).toMatch(text)
    }
    expect(await stockOf(s, spec.id)).toBe(stock)
    expect(await orders()).toBe(0)
    // Quantity above stock (a spec with little stock).
    await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 3 WHERE id = ?'), spec.id)
    const over = await post(s, me, 'preOrder/preOrder', { ...base, quantity: 4 })
    expect(over.statusCode).toBe(409)
    expect(over.body_.msg).toBe(msg('errors.outOfStock', { stock: 3 }))
    expect(await stockOf(s, spec.id)).toBe(3)
    // Receipts of orders that are not the caller's, or unknown.
    expect((await post(s, me, 'machine/receipt', { id: 999999 })).statusCode).toBe(404)
    expect((await post(s, me, 'machine/receipt', { id: 'x' })).statusCode).toBe(400)
  })

  it('cancelling an unpaid order, or letting it expire, gives its stock back', async () => {
    const s = await start()
    const [me, you] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    const d = await product(s, 'machine', (g) => g.kind === 'straight')
    const spec = d.specs[0]!
    const stock = await stockOf(s, spec.id)
    const a = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 3, address_id: await addressOf(s, me) })).body_.data.order
    const b = (await post<PreOrderResult>(s, you, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 2, address_id: await addressOf(s, you) })).body_.data.order
    expect(await stockOf(s, spec.id)).toBe(stock - 5)
    expect((await post<PayOrder>(s, me, 'orders/cancel', { id: a.id })).body_.data.status).toBe('cancelled')
    expect(await stockOf(s, spec.id)).toBe(stock - 2)
    expect((await post(s, me, 'orders/cancel', { id: a.id })).statusCode).toBe(409)
    expect(await stockOf(s, spec.id)).toBe(stock - 2)
    s.clock.advance(s.config.orders.holds.holdMs)
    expect(await expireOrders(s.ctx)).toBe(1)
    expect(await stockOf(s, spec.id)).toBe(stock)
    expect((await post(s, you, 'orders/payByBalance', { id: b.id })).statusCode).toBe(409)
  })

  it('5 units of stock and 20 buyers who can pay racing: exactly 5 orders, never oversold', async () => {
    const s = await start()
    const d = await product(s, 'car')
    const spec = d.specs[0]!
    await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 5 WHERE id = ?'), spec.id)
    const buyers = await Promise.all(Array.from({ length: 20 }, () => s.signIn(ROOT_CODE)))
    // Each could pay at once, so holds past the share for unpaid orders (README "Holds") are theirs to take.
    for (const b of buyers) await credit(s, b.userId, 'USDT', spec.price)
    const results = await Promise.all(buyers.map((b) => post(s, b, 'preOrder/preOrder', { area: 'car', goods_id: d.id, spec_id: spec.id, quantity: 1 })))
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5)
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(15)
    expect(await stockOf(s, spec.id)).toBe(0)
  })
})

describe('releases', () => {
  it('a car paid with balance releases its value as NADI a day at a time, once per day, catching up missed days', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const d = await product(s, 'car')
    expect(d.release).not.toBeNull()
    const spec = d.specs[0]!
    await credit(s, me.userId, 'USDT', String(Number(spec.price) + 1))
    const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'car', goods_id: d.id, spec_id: spec.id, quantity: 1 })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    const plans = (await get<PagedList<ReleasePlan>>(s, me, 'car/releaseOrderList')).body_.data.list
    expect(plans).toHaveLength(1)
    const plan = plans[0]!
    expect(plan).toMatchObject({ order_id: order.id, status: 'releasing', released: '0', released_days: 0, days: d.release!.days })
    // Converted at the reference price (no trade yet): value / price.
    expect(units(plan.total)).toBe((units(plan.value) * units('1')) / units(plan.price))

    const fundBefore = (await balance(s.ctx.sql, RELEASES, 'NADI')).available
    expect(await releaseDue(s.ctx)).toEqual([]) // the first instalment is tomorrow's
    s.clock.advance(DAY)
    const first = await releaseDue(s.ctx)
    expect(first).toHaveLength(1)
    expect(await nadi(s, me.userId)).toBe(units(plan.daily))
    expect(await releaseDue(s.ctx)).toEqual([]) // the same day again posts nothing
    s.clock.advance(3 * DAY) // the server was down for three days
    expect((await releaseDue(s.ctx)).map((r) => r.plans)).toEqual([1, 1, 1])
    const after = (await get<PagedList<ReleasePlan>>(s, me, 'car/releaseOrderList')).body_.data
    expect(after.list[0]).toMatchObject({ released_days: 4 })
    expect(await nadi(s, me.userId)).toBe(units(after.list[0]!.released))
    expect(fundBefore - (await balance(s.ctx.sql, RELEASES, 'NADI')).available).toBe(await nadi(s, me.userId))
    // To the end: the instalments sum to the total exactly.
    s.clock.advance(plan.days * DAY)
    await releaseDue(s.ctx)
    const done = (await get<PagedList<ReleasePlan>>(s, me, 'car/releaseOrderList?status=completed')).body_.data.list
    expect(done[0]).toMatchObject({ status: 'completed', released: plan.total, released_days: plan.days })
    expect(await nadi(s, me.userId)).toBe(units(plan.total))
  })

  it('a release account short of funds halts releases at that day and posts nothing until funded', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const d = await product(s, 'car')
    await credit(s, me.userId, 'USDT', '100000')
    const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'car', goods_id: d.id, spec_id: d.specs[0]!.id, quantity: 1 })).body_.data
    await post(s, me, 'orders/payByBalance', { id: order.id })
    const all = (await balance(s.ctx.sql, RELEASES, 'NADI')).available
    await transfer(s.ctx.sql, { ref: 'test:drain', reason: 'release_fund', userId: null, from: RELEASES, to: custody('nadi'), asset: 'NADI', amount: all })
    s.clock.advance(DAY)
    await expect(releaseDue(s.ctx)).rejects.toThrow(/needs .* NADI, the release account has 0/)
    expect(await nadi(s, me.userId)).toBe(0n)
    expect(await s.count('SELECT count(*) FROM release_lines')).toBe(0)
    await transfer(s.ctx.sql, { ref: 'test:refund', reason: 'release_fund', userId: null, from: custody('nadi'), to: RELEASES, asset: 'NADI', amount: all })
    expect(await releaseDue(s.ctx)).toHaveLength(1)
    expect(await nadi(s, me.userId)).toBeGreaterThan(0n)
  })

  it('gold paid on chain: processing while it confirms, then pending shipment with its release plan', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const addressId = await addressOf(s, me)
    const d = await product(s, 'gold', (g) => g.release !== null)
    const spec = d.specs[0]!
    const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'gold', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: addressId })).body_.data
    expect(order.total).toBe(spec.price)
    const { targets } = (await get<PayTargets>(s, me, `orders/payTargets?id=${order.id}`)).body_.data
    const bsc = targets.find((t) => t.chain === 'bsc')!
    const c = s.gateway.chain('bsc')
    const network = Network.from(c.id)
    const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    providers.push(provider)
    const signer = me.wallet.connect(provider)
    await s.gateway.faucet('bsc', signer.address, { USDT: parseUnits('100000', 18), native: parseUnits('1', 18) })
    const token = new Contract(bsc.token, loadArtifact('TestToken').abi as string[], signer)
    const tx = (await token.getFunction('transfer')(bsc.to, parseUnits(order.total, 18))) as { hash: string }
    expect((await post<PayOrder>(s, me, 'orders/payOnChain', { id: order.id, chain: 'bsc', tx_hash: tx.hash })).body_.data.status).toBe('processing')
    await s.gateway.dev!.mine('bsc', 3)
    await checkChainPayments(s.ctx)
    const shop = (await get<ShopOrder>(s, me, `gold/orderDetail?id=${order.id}`)).body_.data
    expect(shop).toMatchObject({ status: 'pending_shipment', pay_status: 'paid', release: { status: 'releasing', released: '0' } })
    s.clock.advance(DAY)
    await releaseDue(s.ctx)
    const plan = (await get<PagedList<ReleasePlan>>(s, me, 'gold/releaseOrderList')).body_.data.list[0]!
    expect(plan.released_days).toBe(1)
    expect(await nadi(s, me.userId)).toBe(units(plan.released))
  })
})

describe('the expiry job', () => {
  it('reaches an unpaid order behind more than a pass of paid ones still being shipped', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const addressId = await addressOf(s, me)
    const d = await product(s, 'machine', (g) => g.kind === 'tablet')
    const spec = d.specs[0]!
    await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 1000 WHERE id = ?'), spec.id)
    await credit(s, me.userId, 'USDT', String(Number(spec.price) * 501))
    // 25 buyers at a time, so group commit batches them: one after another, 1,002 requests on
    // PostgreSQL outlasted the test's minute on a loaded CI machine.
    const buyAndPay = async () => {
      const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: addressId })).body_.data
      return (await post<PayOrder>(s, me, 'orders/payByBalance', { id: order.id })).statusCode
    }
    const paid: number[] = []
    for (let i = 0; i < 501; i += 25) paid.push(...(await Promise.all(Array.from({ length: Math.min(25, 501 - i) }, buyAndPay))))
    expect(paid.filter((c) => c !== 200)).toEqual([])
    expect(paid).toHaveLength(501)
    const unpaid = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: addressId })).body_.data.order
    s.clock.advance(s.config.orders.holds.holdMs)
    expect(await expireOrders(s.ctx)).toBe(1)
    expect((await get<PayOrder>(s, me, `orders/detail?id=${unpaid.id}`)).body_.data.status).toBe('cancelled')
  }, 60_000)
})
