// A chain payment whose tx hash comes after its order's hold ended (issue 17's money bug: it was
// refused with "order expired" while the tokens had already arrived). Against real local anvil nodes
// with manual mining, the block time set where the test needs it: paid in time but reported late, or
// paid late. The order is reinstated and paid where it may be (its stock or seat taken again), else
// the transfer is credited to the payer's fund account once, and the order stays ended. The ledger
// audit passes after each test (useServers audited).

import { afterEach, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, Network, Transaction, parseUnits } from 'ethers'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Address } from '../../contract/address.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { NodeConfig } from '../../contract/node.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { PayOrder, PayTargets } from '../../contract/orders.ts'
import type { RechargeAddress } from '../../contract/recharge.ts'
import { scanDeposits } from '../../server/chain/depositWatcher.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, fund } from '../../server/ledger/index.ts'
import { createPayOrder, expireOrders } from '../../server/modules/orders/service.ts'
import { checkChainPayments } from '../../server/modules/payment/index.ts'
import { statement } from '../../server/db/query/types.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers(
  { env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_TRIAL_POWER: '0' } },
  { audited: true },
)
const API = '/api/v1'
const HOLD = 15 * 60_000
const units = (n: string) => parseUnits(n, 8)
const providers: JsonRpcProvider[] = []
afterEach(() => {
  for (const p of providers.splice(0)) p.destroy()
})
const post = <T = PayOrder>(s: TestServer, who: SignedIn, path: string, body: unknown) =>
  s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const detail = async (s: TestServer, who: SignedIn, id: number) => (await s.get<PayOrder>(`${API}/orders/detail?id=${id}`, { token: who.token, lang: 'EN' })).body_.data
const usdt = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'USDT')).available
const credits = (s: TestServer, tx: string) => s.count("SELECT count(*) FROM ledger_postings WHERE ref LIKE ?", `deposit:bsc:${tx}:%`)

/** A server whose clock reads the chain's time, so block times and order expiries compare. */
async function boot(): Promise<TestServer> {
  const s = await start()
  const head = (await s.gateway.block('bsc', await s.gateway.blockNumber('bsc')))!
  s.clock.set(head.timestamp * 1000 + 1000)
  return s
}

/** The user's own wallet on BSC, funded, sending USDT to the order's receiving address. */
async function wallet(s: TestServer, me: SignedIn, orderId: number) {
  const bsc = (await s.get<PayTargets>(`${API}/orders/payTargets?id=${orderId}`, { token: me.token })).body_.data.targets.find((t) => t.chain === 'bsc')!
  const c = s.gateway.chain('bsc')
  const network = Network.from(c.id)
  const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
  providers.push(provider)
  const signer = me.wallet.connect(provider)
  await s.gateway.faucet('bsc', signer.address, { USDT: parseUnits('100000', 18), native: parseUnits('1', 18) })
  const token = new Contract(bsc.token, loadArtifact('TestToken').abi as string[], signer)
  const send = async (usdtAmount: string): Promise<string> => ((await token.getFunction('transfer')(bsc.to, parseUnits(usdtAmount, 18))) as { hash: string }).hash
  /** A transfer signed now and broadcast only when the returned function is called: a transaction stuck for a while. */
  const stuck = async (usdtAmount: string) => {
    const tx = await token.getFunction('transfer').populateTransaction(bsc.to, parseUnits(usdtAmount, 18))
    const raw = await signer.signTransaction(await signer.populateTransaction({ ...tx, gasLimit: 100_000n }))
    return { hash: Transaction.from(raw).hash!, broadcast: () => provider.broadcastTransaction(raw) }
  }
  return Object.assign(send, { stuck })
}

/**
 * Mines the next block `afterMs` past the server's clock (server clock = chain time): the transfer's
 * block time. The dev chain mines a block every second of wall time while the test's clock stands
 * still, so on a slow machine its head can pass the clock during a test's set-up: the clock is then
 * caught up to a few seconds past the head first (a block may not be older than the one before it).
 */
async function mineAfter(s: TestServer, afterMs: number) {
  const head = (await s.gateway.block('bsc', await s.gateway.blockNumber('bsc')))!
  if (head.timestamp * 1000 >= s.ctx.now()) s.clock.set(head.timestamp * 1000 + 5000)
  await s.gateway.dev!.rpc('bsc', 'evm_setNextBlockTimestamp', [Math.ceil((s.ctx.now() + afterMs) / 1000)])
  await s.gateway.dev!.mine('bsc', 1)
}

/** Past the hold: the expiry pass has cancelled the order and given back what it held. */
async function expire(s: TestServer, me: SignedIn, id: number) {
  s.clock.advance(HOLD + 60_000)
  await expireOrders(s.ctx)
  expect(await detail(s, me, id)).toMatchObject({ status: 'cancelled', payment: null })
}

/** Submits the hash, lets it confirm (3 blocks) and checks it. */
async function submitAndConfirm(s: TestServer, me: SignedIn, id: number, tx: string) {
  const submitted = await post(s, me, 'orders/payOnChain', { id, chain: 'bsc', tx_hash: tx })
  expect(submitted.statusCode).toBe(200)
  // Under way whatever the order's state: it is listed with the payments confirming.
  expect(submitted.body_.data).toMatchObject({ status: 'processing', payment: { method: 'chain', status: 'pending' } })
  const processing = await s.get<PagedList<PayOrder>>(`${API}/orders/list?status=processing`, { token: me.token })
  expect(processing.body_.data.list.map((o) => o.id)).toContain(id)
  await s.gateway.dev!.mine('bsc', 2)
  await checkChainPayments(s.ctx)
  return detail(s, me, id)
}

/** A signed-in user with an order of 7 USDT that holds nothing, and their funded wallet to pay it. */
async function deviceOrder() {
  const s = await boot()
  const me = await s.signIn(ROOT_CODE)
  const id = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7'), payWithinMs: HOLD })
  return { s, me, id, send: await wallet(s, me, id) }
}

describe('a chain payment whose hash comes after the hold', () => {
  it('paid in time but reported after the expiry: the order is reinstated and paid, once', async () => {
    const { s, me, id, send } = await deviceOrder()
    const tx = await send('7')
    await mineAfter(s, 60_000)
    await expire(s, me, id)

    expect(await submitAndConfirm(s, me, id, tx)).toMatchObject({ status: 'paid', payment: { status: 'paid', tx_hash: tx.toLowerCase() } })
    expect(await usdt(s, me.userId)).toBe(0n)
    expect(await credits(s, tx.toLowerCase())).toBe(0)
    expect((await audit(s.ctx.sql)).violations).toEqual([])

    // The same hash again answers the same payment; for another order it is refused.
    expect((await post(s, me, 'orders/payOnChain', { id, chain: 'bsc', tx_hash: tx })).body_.data).toMatchObject({ status: 'paid', payment: { status: 'paid' } })
    const other = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7') })
    const reuse = await post(s, me, 'orders/payOnChain', { id: other, chain: 'bsc', tx_hash: tx })
    expect([reuse.statusCode, reuse.body_.msg]).toEqual([409, translate('EN', 'errors.txHashUsed')])
    await checkChainPayments(s.ctx)
    expect(await s.count("SELECT count(*) FROM ledger_postings WHERE ref LIKE 'pay:order:%'")).toBe(1)
  })

  it('paid after the expiry, an order that held nothing stays cancelled and all the transfer brought is credited to the payer, once', async () => {
    const { s, me, id, send } = await deviceOrder()
    await expire(s, me, id)
    const tx = await send('9.5')
    await mineAfter(s, 0)

    const expected = { amount: '9.5', asset: 'USDT' }
    const after = await submitAndConfirm(s, me, id, tx)
    expect(after).toMatchObject({ status: 'cancelled', payment: { status: 'failed', fail_msg: translate('EN', 'errors.paymentOrderExpired', expected) } })
    expect(after.payment!.fail_msg).toBe('The order expired before your payment arrived; the 9.5 USDT you paid was credited to your fund account')
    const tw = (await s.get<PayOrder>(`${API}/orders/detail?id=${id}`, { token: me.token, lang: 'TW' })).body_.data
    expect(tw.payment!.fail_msg).toBe(translate('TW', 'errors.paymentOrderExpired', expected))
    expect(await usdt(s, me.userId)).toBe(units('9.5'))
    expect(await credits(s, tx.toLowerCase())).toBe(1)
    expect((await audit(s.ctx.sql)).violations).toEqual([])

    // Submitted again, or checked again: nothing more is credited; no other order takes the hash.
    expect((await post(s, me, 'orders/payOnChain', { id, chain: 'bsc', tx_hash: tx })).body_.data.payment).toMatchObject({ status: 'failed' })
    await s.gateway.dev!.mine('bsc', 1)
    await checkChainPayments(s.ctx)
    const other = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7') })
    expect((await post(s, me, 'orders/payOnChain', { id: other, chain: 'bsc', tx_hash: tx })).statusCode).toBe(409)
    expect(await usdt(s, me.userId)).toBe(units('9.5'))
    expect(await credits(s, tx.toLowerCase())).toBe(1)
  })

  it('a node order paid after the expiry is reinstated while a seat is left: the seat is taken again and the node is the buyer’s', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const elite = (await s.get<NodeConfig>(`${API}/node/config`, { token: me.token })).body_.data.tiers.find((t) => t.type === 'elite')!
    const seats = () => s.count("SELECT seats_left FROM node_tiers WHERE type = 'elite'")
    const before = await seats()
    const id = (await post(s, me, 'node/buy', { node_id: elite.id })).body_.data.id
    expect(await seats()).toBe(before - 1)
    const send = await wallet(s, me, id)
    await expire(s, me, id)
    expect(await seats()).toBe(before)
    const tx = await send(elite.amount)
    await mineAfter(s, 0)

    expect(await submitAndConfirm(s, me, id, tx)).toMatchObject({ status: expect.stringMatching(/^(paid|completed)$/), payment: { status: 'paid' } })
    expect(await seats()).toBe(before - 1)
    expect(await s.count("SELECT count(*) FROM node_orders WHERE order_id = ? AND status = 'active'", id)).toBe(1)
    expect(await credits(s, tx.toLowerCase())).toBe(0)
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('a node order paid after the expiry whose seats are gone stays cancelled; the payment is credited and no seat is oversold', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const elite = (await s.get<NodeConfig>(`${API}/node/config`, { token: me.token })).body_.data.tiers.find((t) => t.type === 'elite')!
    const id = (await post(s, me, 'node/buy', { node_id: elite.id })).body_.data.id
    const send = await wallet(s, me, id)
    await expire(s, me, id)
    // Everything left is sold meanwhile.
    await s.ctx.sql.run(statement("UPDATE node_tiers SET seats_left = 0 WHERE type = 'elite'"))
    const tx = await send(elite.amount)
    await mineAfter(s, 0)

    expect(await submitAndConfirm(s, me, id, tx)).toMatchObject({
      status: 'cancelled',
      payment: { status: 'failed', fail_msg: translate('EN', 'errors.paymentOrderExpired', { amount: elite.amount, asset: 'USDT' }) },
    })
    expect(await s.count("SELECT seats_left FROM node_tiers WHERE type = 'elite'")).toBe(0)
    expect(await s.count("SELECT count(*) FROM node_orders WHERE order_id = ? AND status = 'cancelled'", id)).toBe(1)
    expect(await usdt(s, me.userId)).toBe(units(elite.amount))
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('device orders paid after the expiry: reinstated with their stock taken again while it is left; credited, never oversold, once it is gone', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const address = (await post<Address>(s, me, 'address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })).body_.data.id
    const list = (await s.get<PagedList<GoodsItem>>(`${API}/machine/goodsList?page_size=50`)).body_.data.list
    const stock = (specId: number) => s.count('SELECT stock FROM product_specs WHERE id = ?', specId)
    const placed = []
    for (const nth of [0, 1]) {
      const p = (await s.get<GoodsDetail>(`${API}/machine/goodsDetail?id=${list[nth]!.id}`)).body_.data
      const spec = p.specs[0]!.id
      await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 10 WHERE id = ?'), spec)
      const res = await post<PreOrderResult>(s, me, 'preOrder/preOrder', { area: 'machine', goods_id: p.id, spec_id: spec, quantity: 2, address_id: address })
      expect(res.statusCode).toBe(200)
      const order = res.body_.data.order
      expect(await stock(spec)).toBe(8)
      placed.push({ order, spec, send: await wallet(s, me, order.id) })
    }
    const [kept, sold] = placed as [(typeof placed)[0], (typeof placed)[0]]
    s.clock.advance(HOLD + 60_000)
    await expireOrders(s.ctx)
    expect([await stock(kept.spec), await stock(sold.spec)]).toEqual([10, 10])
    // The second one's stock is sold to others meanwhile, but for one unit.
    await s.ctx.sql.run(statement('UPDATE product_specs SET stock = 1 WHERE id = ?'), sold.spec)
    const txs = [await kept.send(kept.order.total), await sold.send(sold.order.total)]
    await mineAfter(s, 0)

    expect(await submitAndConfirm(s, me, kept.order.id, txs[0]!)).toMatchObject({ status: 'paid', payment: { status: 'paid' } })
    expect(await stock(kept.spec)).toBe(8)
    expect(await submitAndConfirm(s, me, sold.order.id, txs[1]!)).toMatchObject({
      status: 'cancelled',
      payment: { status: 'failed', fail_msg: translate('EN', 'errors.paymentOrderExpired', { amount: sold.order.total, asset: 'USDT' }) },
    })
    expect(await stock(sold.spec)).toBe(1)
    expect(await usdt(s, me.userId)).toBe(units(sold.order.total))
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('a hash given up as never mined is looked for again when reported again, and pays once its transaction is mined', async () => {
    const { s, me, id, send } = await deviceOrder()
    const tx = await send.stuck('7')
    expect((await post(s, me, 'orders/payOnChain', { id, chain: 'bsc', tx_hash: tx.hash })).body_.data.payment).toMatchObject({ status: 'pending' })
    s.clock.advance(s.ctx.config.payment.pendingTimeoutMs)
    await checkChainPayments(s.ctx)
    expect((await detail(s, me, id)).payment).toMatchObject({ status: 'failed', fail_msg: translate('EN', 'errors.paymentTxNotFound') })
    s.clock.advance(HOLD)
    await expireOrders(s.ctx)
    expect((await detail(s, me, id)).status).toBe('cancelled')

    await tx.broadcast()
    await s.gateway.dev!.mine('bsc', 1)
    expect(await submitAndConfirm(s, me, id, tx.hash)).toMatchObject({ status: 'paid', payment: { status: 'paid' } })
    expect(await usdt(s, me.userId)).toBe(0n)
  })

  it('an order its user cancelled is never reinstated: a payment for it is credited with its own words', async () => {
    const { s, me, id, send } = await deviceOrder()
    const tx = await send('7')
    await mineAfter(s, 1000)
    expect((await post(s, me, 'orders/cancel', { id })).body_.data.status).toBe('cancelled')

    expect(await submitAndConfirm(s, me, id, tx)).toMatchObject({
      status: 'cancelled',
      payment: { status: 'failed', fail_msg: translate('EN', 'errors.paymentOrderCancelled', { amount: '7', asset: 'USDT' }) },
    })
    expect(await usdt(s, me.userId)).toBe(units('7'))
  })

  it('a transfer the deposit watcher also sees is credited once, whichever path gets there first', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    // Misconfigured on purpose: payments are received on the payer's own deposit address.
    const deposit = (await s.get<RechargeAddress>(`${API}/recharge/address?coin=USDT&chain=bsc`, { token: me.token })).body_.data.address
    s.ctx.config.payment.receivingAddress = deposit
    const id = await createPayOrder(s.ctx, { userId: me.userId, type: 'device', asset: 'USDT', total: units('7'), payWithinMs: HOLD })
    const send = await wallet(s, me, id)
    await expire(s, me, id)
    const tx = await send('7')
    await mineAfter(s, 0)

    expect(await submitAndConfirm(s, me, id, tx)).toMatchObject({ status: 'cancelled', payment: { status: 'failed' } })
    await scanDeposits(s.ctx)
    await s.gateway.dev!.mine('bsc', 1)
    await scanDeposits(s.ctx)
    expect(await s.count("SELECT count(*) FROM deposits WHERE tx_hash = ? AND status = 'credited'", tx.toLowerCase())).toBe(1)
    expect(await usdt(s, me.userId)).toBe(units('7'))
    expect(await credits(s, tx.toLowerCase())).toBe(1)
  })
})
