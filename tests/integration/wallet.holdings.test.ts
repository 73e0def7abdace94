// What the wallet's frozen balances are for (issue 33 item 7): a node's stake, a pledge, an open
// order and a withdrawal in flight each named with its amount, adding up to every account's frozen
// balance; and what an open loan owes, which the balances alone count nowhere.

import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { idemKey, freshWallet, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { LoanPlan } from '../../contract/lending.ts'
import { formatMoney, parseMoney } from '../../contract/money.ts'
import type { MyNode, NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { Balances, Holdings } from '../../contract/wallet.ts'
import { custody, fund, trade, transfer } from '../../server/ledger/index.ts'

const YEARS = String(10 * 365 * 86_400_000)
// Dev chains so NADI can be withdrawn; the sender must not confirm it behind the test's back: one pass an hour.
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_WITHDRAW_EVERY_MS: '3600000', NADI_TRIAL_POWER: '0', NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' } }, { audited: true })
const API = '/api/v1'
const get = <T>(s: TestServer, who: SignedIn, path: string) => s.get<T>(`${API}/${path}`, { token: who.token, lang: 'EN' })
const post = async <T>(s: TestServer, who: SignedIn, path: string, body: unknown): Promise<T> => {
  const r = await s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
  expect(r.statusCode, `${path}: ${r.body_.msg}`).toBe(200)
  return r.body_.data
}
const credit = (s: TestServer, to: ReturnType<typeof fund>, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:holdings:${crypto.randomUUID()}`, reason: 'deposit', from: custody(asset === 'USDT' ? 'bsc' : 'nadi'), to, asset, amount: parseMoney(amount)! })

/** Per (asset, account): the frozen parts summed, as the wire's decimal strings. */
function summed(h: Holdings): Record<string, string> {
  const out = new Map<string, bigint>()
  for (const p of h.frozen) out.set(`${p.asset}/${p.account}`, (out.get(`${p.asset}/${p.account}`) ?? 0n) + parseMoney(p.amount)!)
  return Object.fromEntries([...out].map(([k, v]) => [k, formatMoney(v)]))
}
function frozenOf(b: Balances): Record<string, string> {
  const out: Record<string, string> = {}
  for (const a of b.assets) for (const k of ['fund', 'trade'] as const) if (parseMoney(a[k].frozen)! !== 0n) out[`${a.asset}/${k}`] = a[k].frozen
  return out
}

describe('wallet holdings', () => {
  it('names each frozen amount (node stake, pledge, open order, withdrawal) and the parts add up to every frozen balance; an open loan’s debt is listed', async () => {
    const s = await start()
    const u = await s.signIn()
    await credit(s, fund(u.userId), 'USDT', '5000')
    await credit(s, fund(u.userId), 'NADI', '500')
    await credit(s, trade(u.userId), 'USDT', '100')

    // Nothing frozen yet: nothing to explain, nothing owed.
    expect((await get<Holdings>(s, u, 'wallet/holdings')).body_.data).toEqual({ frozen: [], debts: [] })

    const core = (await get<NodeConfig>(s, u, 'node/config')).body_.data.tiers.find((t) => t.type === 'core')!
    const order = await post<PayOrder>(s, u, 'node/buy', { node_id: core.id })
    await post(s, u, 'orders/payByBalance', { id: order.id })
    const node = (await post<PagedList<MyNode>>(s, u, 'node/getOrder', {})).list[0]!
    const productId = await s.count("SELECT id FROM pledge_products WHERE slug = 'savings-30'")
    await post(s, u, 'pledge/pledge', { product_id: productId, amount: '300', mode: 'day' })
    await post(s, u, 'trade/placeOrder', { inst_id: 'NADI-USDT', client_order_id: 'h1', side: 'buy', type: 'limit', price: '0.01', size: '1000' })
    await post(s, u, 'withdraw/apply', { coin: 'NADI', chain: 'nadi', amount: '50', address: freshWallet().address })
    const plan = (await get<LoanPlan[]>(s, u, 'lending/list')).body_.data[0]!
    await post(s, u, 'lending/borrow', { plan_id: plan.id, node_order_id: node.id, amount: '1000' })

    const h = (await get<Holdings>(s, u, 'wallet/holdings')).body_.data
    const b = (await get<Balances>(s, u, 'wallet/balances')).body_.data
    const reasons = h.frozen.map((p) => `${p.reason} ${p.asset}/${p.account}`)
    expect(reasons).toEqual(['nodes USDT/fund', 'pledges NADI/fund', 'orders USDT/trade', 'withdrawals NADI/fund'])
    expect(h.frozen.find((p) => p.reason === 'nodes')!.amount).toBe(core.amount)
    expect(h.frozen.find((p) => p.reason === 'pledges')!.amount).toBe('300')
    expect(h.frozen.find((p) => p.reason === 'orders')!.amount).toBe('10')
    expect(summed(h)).toEqual(frozenOf(b))
    expect(h.debts).toEqual([{ asset: 'USDT', amount: '1000' }])

    // Another user sees none of it.
    const other = await s.signIn()
    expect((await get<Holdings>(s, other, 'wallet/holdings')).body_.data).toEqual({ frozen: [], debts: [] })
    expect((await s.get(`${API}/wallet/holdings`)).statusCode).toBe(401)
  })
})
