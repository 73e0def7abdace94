// The demo ships its own orders (issue 33): a paid device order is shipped by the demo's job once it
// has been paid for NADI_DEMO_SHIP_AFTER_MS on the server's clock, not a moment before, through the
// CLI's shipOrder; the buyer's order detail shows the tracking number and the activation codes, which
// activate the devices. Never in production, never with the demo off.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { Address } from '../../contract/address.ts'
import type { Device } from '../../contract/device.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { PreOrderResult, ShopOrder } from '../../contract/preOrder.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { DEMO_EXPRESS_COMPANY, shipDemoOrders } from '../../server/modules/preOrder/demoShipping.ts'

const YEARS = String(10 * 365 * 86_400_000)
const AFTER = 5_000
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_DEMO_SHIP_AFTER_MS: String(AFTER) } }, { audited: true })
const API = '/api/v1'
const get = <T>(s: TestServer, me: SignedIn, path: string) => s.get<T>(`${API}/${path}`, { token: me.token, lang: 'EN' })
const post = <T>(s: TestServer, me: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: me.token, idempotencyKey: idemKey(), lang: 'EN' })

/** Two devices bought and paid from balance at the clock's now; answers the order's id. */
async function paidDeviceOrder(s: TestServer, me: SignedIn): Promise<number> {
  await transfer(s.ctx.sql, { ref: `test:demo-ship:${me.userId}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: parseUnits('100000', 8) })
  const address = (await post<Address>(s, me, 'address/addAddress', { name: 'Ana', phone: '0912345678', area: 'Lisbon', address: 'Rua 1', is_default: true })).body_.data
  const item = (await s.get<PagedList<GoodsItem>>(`${API}/machine/goodsList?page_size=50`, { lang: 'EN' })).body_.data.list.find((g) => g.power !== '0')!
  const spec = (await s.get<GoodsDetail>(`${API}/machine/goodsDetail?id=${item.id}`, { lang: 'EN' })).body_.data.specs[0]!
  const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: item.id, spec_id: spec.id, quantity: 2, address_id: address.id })).body_.data
  expect((await post(s, me, 'orders/payByBalance', { id: order.id })).statusCode).toBe(200)
  return order.id
}
const detail = async (s: TestServer, me: SignedIn, id: number) => (await get<ShopOrder>(s, me, `machine/orderDetail?id=${id}`)).body_.data

describe('the demo ships its own orders', () => {
  it('a paid device order ships once paid for the delay, not before, with its tracking number and codes that activate it', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await paidDeviceOrder(s, me)
    const paidAt = s.clock.now()

    s.clock.advance(AFTER - 1)
    await shipDemoOrders(s.ctx)
    expect(await detail(s, me, id)).toMatchObject({ status: 'pending_shipment', express_no: null })
    expect((await detail(s, me, id)).activation_codes).toBeUndefined()

    s.clock.advance(1)
    await shipDemoOrders(s.ctx)
    const shipped = await detail(s, me, id)
    expect(shipped).toMatchObject({ status: 'pending_receipt', express_company: DEMO_EXPRESS_COMPANY, ship_time: paidAt + AFTER })
    expect(shipped.express_no).toMatch(/^[A-Za-z0-9-]{4,40}$/)
    const codes = shipped.activation_codes!
    expect(codes).toHaveLength(2)
    // Shipped once: the next pass finds nothing to do.
    expect(await shipDemoOrders(s.ctx)).toBe(0)

    expect((await post(s, me, 'machine/receipt', { id })).statusCode).toBe(200)
    for (const c of codes) {
      const activated = await post<Device>(s, me, 'machine/activate', { device_id: c.device_id, code: c.code })
      expect(activated.statusCode).toBe(200)
      expect(activated.body_.data.status).toBe('success')
    }
  })

  it('never in production, and never with the demo off, however long the order waits', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await paidDeviceOrder(s, me)
    s.clock.advance(365 * 86_400_000)
    const production = { ...s.ctx, config: { ...s.ctx.config, env: 'production' as const } }
    const demoOff = { ...s.ctx, config: { ...s.ctx.config, demo: false, commerce: { ...s.ctx.config.commerce, demoShipAfterMs: null } } }
    expect(await shipDemoOrders(production)).toBe(0)
    expect(await shipDemoOrders(demoOff)).toBe(0)
    expect(await detail(s, me, id)).toMatchObject({ status: 'pending_shipment', express_no: null })
  })
})
