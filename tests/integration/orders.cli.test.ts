// The operator's orders commands (server/cli.ts, server/modules/orders/commands.ts) beside a running
// server: `orders list` shows the holds — what each holds, until when, and how much of each item is
// held unpaid beside what is left — or orders by status and user; `orders show` takes the id or the
// order number users see, as `ship` and `device codes` do.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli } from '../../server/cli.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Address } from '../../contract/address.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } })

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}

const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`/api/v1/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })

async function device(s: TestServer): Promise<GoodsDetail> {
  const item = (await s.get<PagedList<GoodsItem>>('/api/v1/machine/goodsList?page_size=50', { lang: 'EN' })).body_.data.list[0]!
  return (await s.get<GoodsDetail>(`/api/v1/machine/goodsDetail?id=${item.id}`, { lang: 'EN' })).body_.data
}

describe('orders list and show', () => {
  it('lists the holds with what each holds and until when, filters by status and user, and shows one order by id or order number', async () => {
    const s = await start()
    const [me, you] = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
    const address = (await post<Address>(s, me, 'address/addAddress', { name: 'Ana', phone: '0912345678', area: 'Lisbon', address: 'Rua 1', is_default: true })).body_.data.id
    const d = await device(s)
    const spec = d.specs[0]!
    const stock = await s.count('SELECT stock FROM product_specs WHERE id = ?', spec.id)
    const { order } = (await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: d.id, spec_id: spec.id, quantity: 2, address_id: address })).body_.data
    const genesis = (await s.get<NodeConfig>('/api/v1/node/config', { token: you.token })).body_.data.tiers.find((t) => t.type === 'genesis')!
    const seat = (await post<PayOrder>(s, you, 'node/buy', { node_id: genesis.id })).body_.data

    const holds = await runCli(s, 'orders', 'list')
    expect(holds.code).toBe(0)
    const lines = holds.out.split('\n')
    expect(lines[0]).toBe('2 holds (open unpaid orders of stock or seats)')
    const expiry = (o: PayOrder) => `expires ${new Date(o.expires_at).toISOString()}`
    expect(lines.find((l) => l.startsWith(`#${order.id} `))).toMatch(new RegExp(`^#${order.id}  ${order.order_no}  device  user ${me.userId}  ${order.total} USDT  pending_payment  2 × .+ \\(product ${d.id}, spec ${spec.id}\\)  ${expiry(order).replace(/\./g, '\\.')}`))
    expect(lines.find((l) => l.startsWith(`#${seat.id} `))).toContain(`node  user ${you.userId}  20000 USDT  pending_payment  1 seat of genesis (tier ${genesis.id}, node pending)  ${expiry(seat)}`)
    expect(holds.out).toContain(`held per item:\n  spec ${spec.id} `)
    expect(holds.out).toContain(`: 2 held unpaid by 1 users, ${stock - 2} left`)
    expect(holds.out).toContain(`  tier ${genesis.id} genesis: 1 seats held unpaid by 1 users, 49 of 50 left`)

    const mine = await runCli(s, 'orders', 'list', '--user', String(you.userId))
    expect(mine.out.split('\n')[0]).toBe(`1 holds (open unpaid orders of stock or seats) of user ${you.userId}`)
    expect(mine.out).not.toContain(`#${order.id} `)

    await transfer(s.ctx.sql, { ref: 'test:cli:orders', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: parseUnits('100000', 8) })
    await post(s, me, 'orders/payByBalance', { id: order.id })
    expect((await runCli(s, 'orders', 'list')).out).not.toContain(`#${order.id} `)
    const paid = await runCli(s, 'orders', 'list', '--status', 'paid')
    expect(paid.out.split('\n')[0]).toBe('1 orders paid')
    expect(paid.out).toContain(`#${order.id}  ${order.order_no}  device`)
    const json = JSON.parse((await runCli(s, 'orders', 'list', '--status', 'all', '--json')).out) as { id: string; status: string }[]
    expect(json.map((o) => [Number(o.id), o.status])).toEqual([
      [seat.id, 'pending_payment'],
      [order.id, 'paid'],
    ])

    const byNo = await runCli(s, 'orders', 'show', order.order_no)
    expect(byNo.code).toBe(0)
    expect(byNo.out).toContain(`order #${order.id}  ${order.order_no}  device  ${order.total} USDT  paid`)
    expect(byNo.out).toMatch(/ {2}payment {4}#\d+ balance paid /)
    expect(byNo.out).toContain('  fulfilment pending_shipment')
    expect(byNo.out).toContain('  ship to    Ana, 0912345678, Lisbon Rua 1')
    expect((await runCli(s, 'orders', 'show', String(order.id))).out).toBe(byNo.out)

    // ship and device codes take the order number users see.
    const shipped = await runCli(s, 'ship', order.order_no, 'SF', 'SF100200300')
    expect(shipped).toMatchObject({ code: 0 })
    expect(shipped.out).toContain(`order #${order.id} (${order.order_no}) shipped: SF SF100200300; pending receipt`)
    expect((await runCli(s, 'device', 'codes', order.order_no)).out).toContain('activation codes')

    // Refusals: unknown orders, bad words.
    expect(await runCli(s, 'orders', 'show', '202611261672695749')).toMatchObject({ code: 1, err: 'orders show: no order 202611261672695749\n' })
    expect((await runCli(s, 'ship', '202611261672695749', 'SF', 'SF1234')).err).toContain('ship: no order 202611261672695749\n')
    expect((await runCli(s, 'orders', 'show', 'abc')).code).toBe(2)
    expect((await runCli(s, 'orders', 'list', '--status', 'lost')).code).toBe(2)
    expect((await runCli(s, 'orders', 'list', '--user', 'me')).code).toBe(2)
    expect((await runCli(s, 'ship', 'x', 'SF', 'SF1')).code).toBe(2)
  })
})
