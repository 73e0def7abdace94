// The operator's commerce commands (server/cli.ts) beside a running server: they run inside it over
// its operator socket. A catalog file is checked before anything is written; shipping moves only an
// order pending shipment; the release commands report, post and fund.

import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli } from '../../server/cli.ts'
import { audit, custody, fund, transfer } from '../../server/ledger/index.ts'
import { ROOT_CODE, idemKey, useServers, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { PreOrderResult, ShopOrder } from '../../contract/preOrder.ts'
import type { Address } from '../../contract/address.ts'
import type { GoodsDetail } from '../../contract/goods.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } })
const units = (n: string) => parseUnits(n, 8)

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}

const catalogFile = (s: TestServer, body: unknown) => {
  const file = path.join(s.dir, `catalog-${Math.random().toString(36).slice(2)}.json`)
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body))
  return file
}

const T = (text: string) => Object.fromEntries(['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS'].map((l) => [l, `${text} (${l})`]))
const tablet = (stock: number, price = '250') => ({
  slug: 'op-tablet',
  area: 'machine',
  kind: 'tablet',
  name: T('Operator tablet'),
  summary: T('A tablet'),
  body: T('A tablet loaded by the operator.'),
  cover: '/goods/pad-m1.svg',
  ships: true,
  specs: [{ slug: 'base', name: T('Base'), price, power: '50', stock }],
})

describe('catalog load', () => {
  it('loads a product, updates it by slug the second time, and refuses a bad file without writing', async () => {
    const s = await start()
    const products = () => s.count('SELECT count(*) FROM products')
    const before = await products()
    const ok = await runCli(s, 'catalog', 'load', catalogFile(s, { products: [tablet(5)] }))
    expect(ok).toMatchObject({ code: 0 })
    expect(ok.out).toContain('1 products added, 0 updated; 1 specifications added, 0 updated')
    expect(await products()).toBe(before + 1)
    const again = await runCli(s, 'catalog', 'load', catalogFile(s, { products: [tablet(9, '260')] }))
    expect(again.out).toContain('0 products added, 1 updated; 0 specifications added, 1 updated')
    const spec = (await s.ctx.sql.get(statement<{ stock: bigint; price: bigint }>("SELECT s.stock, s.price FROM product_specs s JOIN products p ON p.id = s.product_id WHERE p.slug = 'op-tablet'")))!
    expect(spec).toEqual({ stock: 9n, price: units('260') })

    const bad: [unknown, RegExp][] = [
      ['{ not json', /catalog load: /],
      [{ products: [{ ...tablet(1), name: { EN: 'only English' } }] }, /does not match the schema/],
      [{ products: [{ ...tablet(1), kind: undefined }] }, /a device needs a kind/],
      [{ products: [{ ...tablet(1), specs: [{ slug: 'x', name: T('X'), weight: '5', craft_fee: '1', stock: 1 }] }] }, /has a price, no weight/],
      [{ products: [{ ...tablet(1), cover: 'https://evil.example/x.svg"onload=' }] }, /does not match the schema/],
      [{ products: [{ ...tablet(1), slug: 'op-gold', area: 'gold', kind: undefined, category: 'no-such-category', specs: [{ slug: 'g', name: T('G'), weight: '5', craft_fee: '1', stock: 1 }] }] }, /category no-such-category/],
    ]
    for (const [body, text] of bad) {
      const r = await runCli(s, 'catalog', 'load', catalogFile(s, body))
      expect(r.code, JSON.stringify(body)).toBe(1)
      expect(r.err).toMatch(text)
    }
    expect(await products()).toBe(before + 1)
    expect((await runCli(s, 'catalog', 'load')).code).toBe(2)
  })
})

describe('ship, gold price and releases', () => {
  it('ships a paid order pending shipment once, records a gold price, and reports, posts and funds releases', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const o = { token: me.token, idempotencyKey: idemKey(), lang: 'EN' }
    const address = (await s.post<Address>('/api/v1/address/addAddress', { name: 'Ana', phone: '0912345678', area: 'Lisbon', address: 'Rua 1', is_default: true }, o)).body_.data
    const gold = (await s.get<{ list: { id: number; release: unknown }[] }>('/api/v1/gold/goodsList?page_size=50', { lang: 'EN' })).body_.data.list.find((g) => g.release)!
    const detail = (await s.get<GoodsDetail>(`/api/v1/gold/goodsDetail?id=${gold.id}`, { lang: 'EN' })).body_.data
    await transfer(s.ctx.sql, { ref: 'test:cli:credit', reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('100000') })
    const { order } = (await s.post<PreOrderResult>('/api/v1/preOrder/preOrder', { area: 'gold', goods_id: gold.id, spec_id: detail.specs[0]!.id, quantity: 1, address_id: address.id }, { ...o, idempotencyKey: idemKey() })).body_.data

    const unpaid = await runCli(s, 'ship', String(order.id), 'SF', 'SF100200300')
    expect(unpaid).toMatchObject({ code: 1 })
    expect(unpaid.err).toContain(`order ${order.id} is not paid, not pending shipment`)
    await s.post('/api/v1/orders/payByBalance', { id: order.id }, { ...o, idempotencyKey: idemKey() })
    expect((await runCli(s, 'ship', String(order.id), 'SF', 'bad number!')).err).toContain('tracking number')
    const shipped = await runCli(s, 'ship', String(order.id), 'SF', 'SF100200300')
    expect(shipped).toMatchObject({ code: 0 })
    expect(shipped.out).toContain(`order #${order.id} (${order.order_no}) shipped: SF SF100200300; pending receipt`)
    expect((await runCli(s, 'ship', String(order.id), 'SF', 'SF100200300')).err).toContain('is pending_receipt, not pending shipment')
    expect((await s.get<ShopOrder>(`/api/v1/gold/orderDetail?id=${order.id}`, o)).body_.data).toMatchObject({ status: 'pending_receipt', express_no: 'SF100200300' })
    expect((await runCli(s, 'ship', 'x', 'SF', 'SF1')).code).toBe(2)

    const price = await runCli(s, 'gold', 'price', '101.25')
    expect(price).toMatchObject({ code: 0 })
    expect(price.out).toContain('gold price 101.25 USDT/g')
    expect((await runCli(s, 'gold', 'price', '-3')).code).toBe(2)

    expect((await runCli(s, 'release', 'status')).out).toMatch(/last day posted: none\nplans releasing: 1; next due day \d{4}-\d\d-\d\d \(due now\)\nrelease account: [\d.]+ NADI/)
    // The CLI's clock is the real one; the plan starts the day after the server's test clock, long past.
    const run = await runCli(s, 'release', 'run')
    expect(run).toMatchObject({ code: 0 })
    expect(run.out).toMatch(/^\d{4}-\d\d-\d\d: 1 instalments to 1 users, [\d.]+ NADI\n/)
    const funded = await runCli(s, 'release', 'fund', '10')
    expect(funded).toMatchObject({ code: 0 })
    expect((await runCli(s, 'release', 'fund', '99999999')).err).toContain('the treasury has')
    expect((await runCli(s, 'release', 'fund', '999999999999')).code).toBe(2)
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })
})
