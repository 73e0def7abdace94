// Payment (server/modules/payment) against real local anvil nodes with manual mining: paying an order from the
// balance, and on chain with an ERC-20 transfer from the user's own wallet, verified and confirmed.
// The payment job also runs on its own every second; checkChainPayments waits for a pass in flight,
// and with manual mining both see the same chain.

import { afterEach, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, Network, parseUnits, type Wallet } from 'ethers'
import { ROOT_CODE, freshWallet, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { ApiError } from '../../server/http/errors.ts'
import { translate } from '../../server/i18n.ts'
import { TREASURY, audit, balance, custody, findPosting, fund, transfer } from '../../server/ledger/index.ts'
import { checkChainPayments, payFromBalance, paymentStatus, receivingAddress, submitChainPayment } from '../../server/modules/payment/index.ts'

const start = useServers({ env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' } })
const units = (n: string) => parseUnits(n, 8)
const wei = (n: string) => parseUnits(n, 18)

const live: TestServer[] = []
const providers: JsonRpcProvider[] = []
afterEach(async () => {
  for (const p of providers.splice(0)) p.destroy()
  for (const s of live.splice(0)) expect((await audit(s.ctx.sql)).violations).toEqual([])
})
async function boot(): Promise<TestServer> {
  const s = await start()
  live.push(s)
  return s
}

/** What the ApiError thrown by `p` says, with its text in EN and TW. */
async function refused(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ApiError)
  const e = err as ApiError
  return { status: e.status, key: e.key, en: translate('EN', e.key, e.params), tw: translate('TW', e.key, e.params) }
}

/** Gives the user fund balance as a deposit would (custody:bsc → fund). */
async function credit(s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: bigint, ref: string) {
  await s.ctx.sql.transaction((tx) => transfer(tx, { ref, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount }))
}

/** A wallet on `chain` (the user's own, or any), funded by the faucet, able to send both tokens. */
async function onChain(s: TestServer, wallet: Wallet, chain = 'bsc') {
  const c = s.gateway.chain(chain)
  const network = Network.from(c.id)
  const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
  providers.push(provider)
  const signer = wallet.connect(provider)
  await s.gateway.faucet(chain, signer.address, { USDT: wei('1000'), NADI: wei('1000'), native: wei('1') })
  const abi = loadArtifact('TestToken').abi as string[]
  const tokens = { USDT: new Contract(c.tokens.USDT!, abi, signer), NADI: new Contract(c.tokens.NADI!, abi, signer) }
  return {
    send: async (token: 'USDT' | 'NADI', to: string, amount: bigint, overrides: { gasLimit?: bigint } = {}): Promise<string> =>
      ((await tokens[token].getFunction('transfer')(to, amount, overrides)) as { hash: string }).hash,
    /** A transfer signed but not sent, so the same transaction can be broadcast again after a reorg. */
    sign: async (token: 'USDT' | 'NADI', to: string, amount: bigint): Promise<string> => {
      const tx = await tokens[token].getFunction('transfer').populateTransaction(to, amount)
      return signer.signTransaction(await signer.populateTransaction({ ...tx, gasLimit: 100_000n }))
    },
    broadcast: async (raw: string): Promise<string> => (await provider.broadcastTransaction(raw)).hash,
  }
}

const mine = (s: TestServer, blocks = 1) => s.gateway.dev!.mine('bsc', blocks)
/** The treasury's available `asset` moved since `before` (the demo treasury starts funded). */
const treasury = async (s: TestServer, asset: string) => (await balance(s.ctx.sql, TREASURY, asset)).available
const check = async (s: TestServer, orderRef: string) => {
  await checkChainPayments(s.ctx)
  return (await paymentStatus(s.ctx, orderRef))!
}

describe('payment from balance', () => {
  it('pays once per order, and refuses too little with the current and required amounts', async () => {
    const s = await boot()
    const me: SignedIn = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, 'NADI', units('10'), 'test:seed:1')
    const t0 = await treasury(s, 'NADI')

    const paid = await payFromBalance(s.ctx, { orderRef: 'shop-1', userId: me.userId, asset: 'NADI', amount: units('4') })
    expect(paid).toMatchObject({ orderRef: 'shop-1', method: 'balance', status: 'paid', amount: units('4'), payee: TREASURY })
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('6'))
    expect(await treasury(s, 'NADI') - t0).toBe(units('4'))
    expect(await findPosting(s.ctx.sql, 'pay:shop-1')).toBeTruthy()

    // Replayed: the same payment, nothing moves again.
    const again = await payFromBalance(s.ctx, { orderRef: 'shop-1', userId: me.userId, asset: 'NADI', amount: units('4') })
    expect(again.id).toBe(paid.id)
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('6'))
    // The same order with other content: refused.
    expect(await refused(payFromBalance(s.ctx, { orderRef: 'shop-1', userId: me.userId, asset: 'NADI', amount: units('5') }))).toMatchObject({
      status: 409,
      key: 'errors.orderAlreadyPaid',
    })

    const short = await refused(payFromBalance(s.ctx, { orderRef: 'shop-2', userId: me.userId, asset: 'NADI', amount: units('12.5') }))
    expect(short).toEqual({
      status: 400,
      key: 'errors.paymentInsufficient',
      en: 'Insufficient NADI: current 6, required 12.5',
      tw: 'NADI 不足：目前 6，需要 12.5',
    })
    expect(await paymentStatus(s.ctx, 'shop-2')).toBeNull()
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(units('6'))

    expect((await refused(payFromBalance(s.ctx, { orderRef: 'shop-3', userId: me.userId, asset: 'NADI', amount: 0n }))).key).toBe('errors.amountZero')
    expect((await refused(payFromBalance(s.ctx, { orderRef: 'shop-3', userId: me.userId, asset: 'BTC', amount: 1n }))).key).toBe('errors.paymentAssetUnsupported')
  })
})

describe('payment on chain', () => {
  it('pays after the confirmations and not before, once; the same tx hash cannot pay another order', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const w = await onChain(s, me.wallet)
    const to = receivingAddress(s.ctx)
    const t0 = await treasury(s, 'USDT')
    const c0 = (await balance(s.ctx.sql, custody('bsc'), 'USDT')).available
    expect(to).toBe(s.gateway.hotWalletAddress())

    const tx = await w.send('USDT', to, wei('5'))
    const order = { orderRef: 'shop-10', userId: me.userId, chain: 'bsc', asset: 'USDT', amount: units('5'), txHash: tx }
    const submitted = await submitChainPayment(s.ctx, order)
    expect(submitted).toMatchObject({ status: 'pending', required: 3, chain: 'bsc', txHash: tx.toLowerCase() })
    expect((await submitChainPayment(s.ctx, order)).id).toBe(submitted.id) // resubmitted: the same payment

    expect((await check(s, 'shop-10')).status).toBe('pending') // not mined yet
    await mine(s)
    expect(await check(s, 'shop-10')).toMatchObject({ status: 'confirming', confirmations: 1 })
    await mine(s)
    expect(await check(s, 'shop-10')).toMatchObject({ status: 'confirming', confirmations: 2 })
    expect(await findPosting(s.ctx.sql, 'pay:shop-10')).toBeFalsy()
    await mine(s)
    const paid = await check(s, 'shop-10')
    expect(paid).toMatchObject({ status: 'paid', confirmations: 3 })
    expect(await treasury(s, 'USDT') - t0).toBe(units('5'))
    expect((await balance(s.ctx.sql, custody('bsc'), 'USDT')).available - c0).toBe(-units('5'))
    await mine(s, 2)
    await check(s, 'shop-10')
    expect(await treasury(s, 'USDT') - t0).toBe(units('5'))

    expect(await refused(submitChainPayment(s.ctx, { ...order, orderRef: 'shop-11' }))).toMatchObject({
      status: 409,
      key: 'errors.txHashUsed',
      en: 'This transaction has already been used',
    })
    expect((await refused(payFromBalance(s.ctx, { orderRef: 'shop-10', userId: me.userId, asset: 'USDT', amount: units('5') }))).key).toBe(
      'errors.orderAlreadyPaid',
    )
    expect((await refused(submitChainPayment(s.ctx, { ...order, txHash: '0x1234' }))).key).toBe('errors.txHashInvalid')
    expect(await s.count('SELECT COUNT(*) FROM payments')).toBe(1)
  })

  it('fails too little, the wrong token, another sender, and a hash that never mines', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const w = await onChain(s, me.wallet)
    const other = await onChain(s, freshWallet())
    const to = receivingAddress(s.ctx)
    const t0 = await treasury(s, 'USDT')
    const base = { userId: me.userId, chain: 'bsc', asset: 'USDT', amount: units('2') }

    const low = await w.send('USDT', to, wei('1.99999999'))
    const token = await w.send('NADI', to, wei('2'))
    const sender = await other.send('USDT', to, wei('2'))
    const unknown = `0x${'ab'.repeat(32)}`
    await submitChainPayment(s.ctx, { ...base, orderRef: 'low', txHash: low })
    await submitChainPayment(s.ctx, { ...base, orderRef: 'token', txHash: token })
    await submitChainPayment(s.ctx, { ...base, orderRef: 'sender', txHash: sender })
    await submitChainPayment(s.ctx, { ...base, orderRef: 'unknown', txHash: unknown })
    await mine(s)
    await checkChainPayments(s.ctx)

    expect(await paymentStatus(s.ctx, 'low')).toMatchObject({ status: 'failed', failReason: 'amount_too_low', failKey: 'errors.paymentAmountTooLow' })
    expect(await paymentStatus(s.ctx, 'token')).toMatchObject({ status: 'failed', failReason: 'wrong_token' })
    expect(await paymentStatus(s.ctx, 'sender')).toMatchObject({ status: 'failed', failReason: 'wrong_sender' })
    // An unknown hash stays pending, and fails once the pending timeout (10 min) has passed.
    expect(await check(s, 'unknown')).toMatchObject({ status: 'pending' })
    s.clock.advance(10 * 60_000)
    expect(await check(s, 'unknown')).toMatchObject({ status: 'failed', failReason: 'not_found' })
    expect(translate('EN', 'errors.paymentWrongToken')).toBe('The transaction paid with the wrong token')

    await mine(s, 5)
    await checkChainPayments(s.ctx)
    expect(await s.count("SELECT COUNT(*) FROM payments WHERE status = 'failed'")).toBe(4)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE ref LIKE 'pay:%'")).toBe(0)
    // A failed order can be paid again with another transaction; a failed hash stays used.
    expect((await refused(submitChainPayment(s.ctx, { ...base, orderRef: 'again', txHash: low }))).key).toBe('errors.txHashUsed')
    const good = await w.send('USDT', to, wei('2'))
    await submitChainPayment(s.ctx, { ...base, orderRef: 'low', txHash: good })
    await mine(s, 3)
    expect(await check(s, 'low')).toMatchObject({ status: 'paid' })
    expect(await treasury(s, 'USDT') - t0).toBe(units('2'))
  })

  it('a transaction that reverts on chain fails the payment and moves nothing', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const w = await onChain(s, me.wallet)
    const to = receivingAddress(s.ctx)
    const t0 = await treasury(s, 'USDT')
    // More than the wallet holds: mined with a fixed gas limit, so it lands on chain as a revert.
    const reverted = await w.send('USDT', to, wei('5000'), { gasLimit: 100_000n })
    await submitChainPayment(s.ctx, { userId: me.userId, chain: 'bsc', asset: 'USDT', amount: units('5000'), orderRef: 'rev', txHash: reverted })
    await mine(s)
    expect(await check(s, 'rev')).toMatchObject({ status: 'failed', failReason: 'reverted', failKey: 'errors.paymentReverted' })
    await mine(s, 5)
    expect(await check(s, 'rev')).toMatchObject({ status: 'failed' })
    expect(await treasury(s, 'USDT')).toBe(t0)
    expect(await findPosting(s.ctx.sql, 'pay:rev')).toBeNull()
  })

  it('a reorg that drops the payment before its confirmations leaves the order unpaid, and it is paid once the transfer is mined again', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const w = await onChain(s, me.wallet)
    const to = receivingAddress(s.ctx)
    const t0 = await treasury(s, 'USDT')
    const snap = await s.gateway.dev!.snapshot('bsc')
    const signed = await w.sign('USDT', to, wei('3'))
    const hash = await w.broadcast(signed)
    await submitChainPayment(s.ctx, { userId: me.userId, chain: 'bsc', asset: 'USDT', amount: units('3'), orderRef: 'reorg', txHash: hash })
    await mine(s)
    expect(await check(s, 'reorg')).toMatchObject({ status: 'confirming', confirmations: 1 })
    await mine(s)
    expect(await check(s, 'reorg')).toMatchObject({ status: 'confirming', confirmations: 2 })

    // The chain rewinds past the transfer; empty blocks take its height and go deeper than 3.
    expect(await s.gateway.dev!.revert('bsc', snap)).toBe(true)
    await mine(s, 4)
    expect(await check(s, 'reorg')).toMatchObject({ status: 'pending' })
    expect(await findPosting(s.ctx.sql, 'pay:reorg')).toBeNull()
    expect(await treasury(s, 'USDT')).toBe(t0)

    // The same signed transfer mined again: confirmed anew, paid once.
    await w.broadcast(signed)
    await mine(s, 3)
    expect(await check(s, 'reorg')).toMatchObject({ status: 'paid' })
    await mine(s, 3)
    await checkChainPayments(s.ctx)
    expect(await treasury(s, 'USDT') - t0).toBe(units('3'))
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE ref = 'pay:reorg'")).toBe(1)
  })
})
