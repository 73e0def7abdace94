// Orders to pay (/orders) over HTTP: paid from balance or on chain through the payment primitive,
// cancelled by the user or when their time is up; every refusal moves nothing; the ledger audit
// passes after each test.

import { afterEach, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, Network, parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { PayOrder, PayTargets } from '../../contract/orders.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { translate } from '../../server/i18n.ts'
import { TREASURY, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { checkChainPayments } from '../../server/modules/payment/index.ts'
import { createPayOrder, expireOrders } from '../../server/modules/orders/service.ts'

const start = useServers({ env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' } }, { audited: true })
const O = '/api/v1/orders'
const units = (n: string) => parseUnits(n, 8)
const providers: JsonRpcProvider[] = []
afterEach(() => {
  for (const p of providers.splice(0)) p.destroy()
})
let refs = 0
const credit = (s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) =>
  transfer(s.ctx.sql, { ref: `test:orders:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: units(amount) })
const post = (s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<PayOrder>(`${O}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const msg = (key: string, params?: Record<string, string>) => translate('EN', key, params)
const nadi = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'NADI')).available

describe('orders to pay', () => {
  it('an order is listed as pending payment and paid from balance once; the money goes to the treasury', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, 'NADI', '100')
    const id = await createPayOrder(s.ctx, { userId: me.userId, type: 'node', asset: 'NADI', total: units('40') })
    const list = (await s.get<PagedList<PayOrder>>(`${O}/list?status=pending_payment`, { token: me.token, lang: 'EN' })).body_.data
    expect(list.list).toEqual([expect.objectContaining({ id, title: 'Super Miner node', total: '40', asset: 'NADI', status: 'pending_payment', payment: null })])
    const t0 = (await balance(s.ctx.sql, TREASURY, 'NADI')).available
    const paid = await post(s, me, 'payByBalance', { id })
    expect(paid.body_.data).toMatchObject({ status: 'paid', payment: { method: 'balance', status: 'paid' } })
    expect(await nadi(s, me.userId)).toBe(units('60'))
    expect((await balance(s.ctx.sql, TREASURY, 'NADI')).available - t0).toBe(units('40'))
    const again = await post(s, me, 'payByBalance', { id })
    expect(again.body_.data.status).toBe('paid')
    expect(await nadi(s, me.userId)).toBe(units('60'))
    expect((await post(s, me, 'cancel', { id })).body_.msg).toBe(msg('errors.orderAlreadyPaid'))
  })

  it('too little balance is refused with the current and required amounts, and moves nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, 'NADI', '5')
    const id = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'NADI', total: units('12.5') })
    const res = await post(s, me, 'payByBalance', { id })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(msg('errors.paymentInsufficient', { asset: 'NADI', current: '5', required: '12.5' }))
    expect(await nadi(s, me.userId)).toBe(units('5'))
    expect(await s.count('SELECT COUNT(*) FROM payments')).toBe(0)
  })

  it('a cancelled order cannot be paid; an order past its time is cancelled by the expiry pass; another user’s order is unknown', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, 'USDT', '100')
    const a = await createPayOrder(s.ctx, { userId: me.userId, type: 'destroy', asset: 'USDT', total: units('10') })
    expect((await post(s, me, 'cancel', { id: a })).body_.data.status).toBe('cancelled')
    const late = await post(s, me, 'payByBalance', { id: a })
    expect(late.statusCode).toBe(409)
    expect(late.body_.msg).toBe(msg('errors.orderCancelled'))
    expect((await balance(s.ctx.sql, fund(me.userId), 'USDT')).available).toBe(units('100'))

    const b = await createPayOrder(s.ctx, { userId: me.userId, type: 'joint', asset: 'USDT', total: units('10'), payWithinMs: 60_000 })
    expect((await post(s, other, 'payByBalance', { id: b })).statusCode).toBe(404)
    expect((await s.get(`${O}/detail?id=${b}`, { token: other.token })).statusCode).toBe(404)
    expect(await expireOrders(s.ctx)).toBe(0)
    s.clock.advance(61_000)
    const expired = await post(s, me, 'payByBalance', { id: b })
    expect(expired.body_.msg).toBe(msg('errors.orderExpired'))
    expect(await expireOrders(s.ctx)).toBe(1)
    expect((await s.get<PayOrder>(`${O}/detail?id=${b}`, { token: me.token })).body_.data.status).toBe('cancelled')
    expect((await balance(s.ctx.sql, fund(me.userId), 'USDT')).available).toBe(units('100'))
    // Both stay listed, each saying who cancelled it: the expiry pass for want of payment, or the user.
    const cancelled = (await s.get<PagedList<PayOrder>>(`${O}/list?status=cancelled`, { token: me.token })).body_.data.list
    expect(cancelled.map((o) => [o.id, o.cancelled_by])).toEqual([
      [b, 'expiry'],
      [a, 'user'],
    ])
  })

  it('paid on chain: the order is processing while the transfer confirms, then paid; expiry leaves a payment under way alone', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const id = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7'), payWithinMs: 60_000 })
    const { targets } = (await s.get<PayTargets>(`${O}/payTargets?id=${id}`, { token: me.token })).body_.data
    const bsc = targets.find((t) => t.chain === 'bsc')!
    expect(bsc).toMatchObject({ chain_id: s.gateway.chain('bsc').id, confirmations: 3 })

    const c = s.gateway.chain('bsc')
    const network = Network.from(c.id)
    const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    providers.push(provider)
    const signer = me.wallet.connect(provider)
    await s.gateway.faucet('bsc', signer.address, { USDT: parseUnits('100', 18), native: parseUnits('1', 18) })
    const token = new Contract(bsc.token, loadArtifact('TestToken').abi as string[], signer)
    const tx = (await token.getFunction('transfer')(bsc.to, parseUnits('7', 18))) as { hash: string }
    const submitted = await post(s, me, 'payOnChain', { id, chain: 'bsc', tx_hash: tx.hash })
    expect(submitted.body_.data).toMatchObject({ status: 'processing', payment: { method: 'chain', status: 'pending', required: 3 } })

    await s.gateway.dev!.mine('bsc', 1)
    await checkChainPayments(s.ctx)
    expect((await s.get<PayOrder>(`${O}/detail?id=${id}`, { token: me.token })).body_.data).toMatchObject({ status: 'processing', payment: { status: 'confirming', confirmations: 1 } })
    s.clock.advance(61_000)
    expect(await expireOrders(s.ctx)).toBe(0)
    await s.gateway.dev!.mine('bsc', 2)
    await checkChainPayments(s.ctx)
    expect((await s.get<PayOrder>(`${O}/detail?id=${id}`, { token: me.token })).body_.data).toMatchObject({ status: 'paid', payment: { status: 'paid', confirmations: 3 } })
    const reuse = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7') })
    expect((await post(s, me, 'payOnChain', { id: reuse, chain: 'bsc', tx_hash: tx.hash })).body_.msg).toBe(msg('errors.txHashUsed'))
  })
})
