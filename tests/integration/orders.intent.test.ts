// One intent, one order; charged what was shown (issue 33, moments 3 and 8). Ordering the same
// product, specification and quantity again while its order waits for payment answers that order,
// never a second one; a node likewise. Gold is priced in USDT's cents by one rule the list, detail,
// confirm and charge share, and the order is charged exactly the total the confirm screen showed.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { Address } from '../../contract/address.ts'
import { formatMoney } from '../../contract/money.ts'
import { translate } from '../../server/i18n.ts'
import { balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { recordGoldPrice } from '../../server/modules/goods/service.ts'
import { lineTotal } from '../../src/features/goods/price.ts'

const start = useServers({ env: { NADI_GOLD_WALK_MS: '0' } }, { audited: true })
const API = '/api/v1'
const units = (n: string) => parseUnits(n, 8)
const get = <T>(s: TestServer, who: SignedIn | null, path: string) => s.get<T>(`${API}/${path}`, { token: who?.token, lang: 'EN' })
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
let refs = 0
const credit = (s: TestServer, userId: number, amount: string) =>
  transfer(s.ctx.sql, { ref: `test:intent:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: units(amount) })

async function addressOf(s: TestServer, who: SignedIn, name = 'Lin Mei'): Promise<number> {
  const r = await post<Address>(s, who, 'address/addAddress', { name, phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })
  expect(r.statusCode).toBe(200)
  return r.body_.data.id
}

async function firstOf(s: TestServer, area: 'machine' | 'gold'): Promise<GoodsDetail> {
  const item = (await get<PagedList<GoodsItem>>(s, null, `${area}/goodsList?page_size=50`)).body_.data.list.find((g) => g.stock > 0)!
  return (await get<GoodsDetail>(s, null, `${area}/goodsDetail?id=${item.id}`)).body_.data
}

const cents = (wire: string) => /^\d+(\.\d{1,2})?$/.test(wire)

describe('one intent, one order', () => {
  it('ordering the same specification and quantity again while it waits for payment answers that order, with the address chosen now', async () => {
    const s = await start()
    const me = await s.signIn()
    const home = await addressOf(s, me)
    const d = await firstOf(s, 'machine')
    const spec = d.specs.find((x) => x.stock > 1)!
    const body = { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: home }
    const first = await post<PreOrderResult>(s, me, 'preOrder/preOrder', body)
    expect(first.statusCode).toBe(200)
    expect(first.body_.data.resumed).toBe(false)
    const stockAfterFirst = await s.count('SELECT stock FROM product_specs WHERE id = ?', spec.id)

    const office = await addressOf(s, me, 'Lin Office')
    const again = await post<PreOrderResult>(s, me, 'preOrder/preOrder', { ...body, address_id: office, remark: 'side door' })
    expect(again.statusCode).toBe(200)
    expect(again.body_.data.resumed).toBe(true)
    expect(again.body_.data.order.id).toBe(first.body_.data.order.id)
    expect(again.body_.data.shop_order.ship_to?.name).toBe('Lin Office')
    expect(again.body_.data.shop_order.remark).toBe('side door')
    expect(await s.count("SELECT count(*) FROM pay_orders WHERE user_id = ? AND state = 'open'", me.userId)).toBe(1)
    expect(await s.count('SELECT stock FROM product_specs WHERE id = ?', spec.id)).toBe(stockAfterFirst)

    // Still unpaid and listed with its deadline.
    const open = (await get<PagedList<PayOrder>>(s, me, 'orders/list?status=pending_payment')).body_.data
    expect(open.list.map((o) => o.id)).toEqual([first.body_.data.order.id])
    expect(open.list[0]!.expires_at).toBeGreaterThan(s.clock.now())

    // Once it is cancelled, the same intent is a new order.
    expect((await post(s, me, 'orders/cancel', { id: first.body_.data.order.id })).statusCode).toBe(200)
    const fresh = await post<PreOrderResult>(s, me, 'preOrder/preOrder', body)
    expect(fresh.body_.data.resumed).toBe(false)
    expect(fresh.body_.data.order.id).not.toBe(first.body_.data.order.id)
  })

  it('buying the same node tier again while its order waits for payment answers that order: one seat held', async () => {
    const s = await start()
    const me = await s.signIn()
    const tier = (await get<NodeConfig>(s, me, 'node/config')).body_.data.tiers.find((t) => t.seats_left > 0)!
    const a = await post<PayOrder>(s, me, 'node/buy', { node_id: tier.id })
    const b = await post<PayOrder>(s, me, 'node/buy', { node_id: tier.id })
    expect(a.statusCode).toBe(200)
    expect(b.statusCode).toBe(200)
    expect(b.body_.data.id).toBe(a.body_.data.id)
    expect(await s.count("SELECT count(*) FROM pay_orders WHERE user_id = ? AND type = 'node'", me.userId)).toBe(1)
    expect(await s.count('SELECT seats_left FROM node_tiers WHERE id = ?', tier.id)).toBe(tier.seats_left - 1)
  })
})

describe('charged what was shown', () => {
  it('gold is priced in whole cents on the list, the detail and the order, and the charge is the total the confirm screen showed', async () => {
    const s = await start()
    const me = await s.signIn()
    const home = await addressOf(s, me)
    // A gold price per gram with eight decimals: weight × it has more than two.
    await recordGoldPrice(s.ctx, s.ctx.sql, s.clock.now(), 10_082_625_99n)
    const listed = (await get<PagedList<GoodsItem>>(s, null, 'gold/goodsList?page_size=50')).body_.data.list
    expect(listed.every((g) => cents(g.price_from))).toBe(true)
    const d = await firstOf(s, 'gold')
    const spec = d.specs.find((x) => x.stock > 1)!
    expect(d.specs.every((x) => cents(x.price))).toBe(true)
    const shown = lineTotal(spec.price, 2) // what the confirm screen shows for two
    await credit(s, me.userId, '100000')
    const before = (await balance(s.ctx.sql, fund(me.userId), 'USDT')).available

    // The gold price moves while the user reads the screen: the total shown is still what is charged.
    s.clock.advance(20_000)
    await recordGoldPrice(s.ctx, s.ctx.sql, s.clock.now(), 10_182_625_99n)
    const placed = await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'gold', goods_id: d.id, spec_id: spec.id, quantity: 2, address_id: home, expected_total: shown })
    expect(placed.statusCode).toBe(200)
    expect(placed.body_.data.order.total).toBe(shown)
    const paid = await post<PayOrder>(s, me, 'orders/payByBalance', { id: placed.body_.data.order.id })
    expect(paid.statusCode).toBe(200)
    expect(formatMoney(before - (await balance(s.ctx.sql, fund(me.userId), 'USDT')).available)).toBe(shown)
  })

  it('a total shown that no price of the last minute makes is refused with the total of now, and nothing is taken', async () => {
    const s = await start()
    const me = await s.signIn()
    const home = await addressOf(s, me)
    const d = await firstOf(s, 'gold')
    const spec = d.specs.find((x) => x.stock > 0)!
    const stock = await s.count('SELECT stock FROM product_specs WHERE id = ?', spec.id)
    // The price the screen showed was replaced more than a minute ago: past its validity.
    await recordGoldPrice(s.ctx, s.ctx.sql, s.clock.now(), 20_000_000_000n)
    s.clock.advance(61_000)
    const now = (await get<GoodsDetail>(s, null, `gold/goodsDetail?id=${d.id}`)).body_.data.specs.find((x) => x.id === spec.id)!.price
    const r = await post(s, me, 'preOrder/preOrder', { area: 'gold', goods_id: d.id, spec_id: spec.id, quantity: 1, address_id: home, expected_total: spec.price })
    expect(r.statusCode).toBe(409)
    expect(r.body_.msg).toBe(translate('EN', 'errors.priceChanged', { total: now }))
    expect(await s.count('SELECT stock FROM product_specs WHERE id = ?', spec.id)).toBe(stock)
    expect(await s.count('SELECT count(*) FROM pay_orders WHERE user_id = ?', me.userId)).toBe(0)
  })
})
