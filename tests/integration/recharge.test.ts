// Recharge against real local anvil nodes with manual mining (every block is the test's): deposit
// addresses, the deposit watcher's confirmations and credits, a log seen twice, and reorgs. The watcher
// also runs on its own every second; a pass the test asks for (scanDeposits) waits for one in flight,
// and with manual mining both see the same chain, so the results do not depend on who ran first.

import { afterEach, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, Network, parseUnits, type Wallet } from 'ethers'
import { ROOT_CODE, freshWallet, useServers, type Res, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Deposit, RechargeAddress } from '../../contract/recharge.ts'
import type { MoneyRecord } from '../../contract/wallet.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { onDeposit, scanDeposits, type DepositEvent } from '../../server/chain/depositWatcher.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, custody, findPosting, fund } from '../../server/ledger/index.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers({ env: { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' } })
const R = '/api/v1/recharge'
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)

const live: TestServer[] = []
const providers: JsonRpcProvider[] = []
afterEach(async () => {
  for (const p of providers.splice(0)) p.destroy()
  for (const s of live.splice(0)) {
    const report = await audit(s.ctx.sql)
    expect(report.violations).toEqual([])
  }
})
async function boot(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await start({ env })
  live.push(s)
  return s
}

/** A user's own wallet on a chain, outside the server (what a browser wallet does), funded by the faucet. */
async function payer(s: TestServer, chain: string, usdt = '1000') {
  const c = s.gateway.chain(chain)
  const network = Network.from(c.id)
  const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
  providers.push(provider)
  const signer: Wallet = freshWallet().connect(provider)
  await s.gateway.faucet(chain, signer.address, { USDT: parseUnits(usdt, 18), native: parseUnits('1', 18) })
  const usdtToken = new Contract(c.tokens.USDT!, loadArtifact('TestToken').abi as string[], signer)
  return {
    signer,
    provider,
    /** Sends USDT (token wei) to `to`; mined by the test. */
    send: async (to: string, amount: bigint): Promise<string> => ((await usdtToken.getFunction('transfer')(to, amount)) as { hash: string }).hash,
    /** The same transfer, signed but not sent, so it can be broadcast again after a reorg. */
    sign: async (to: string, amount: bigint): Promise<string> =>
      signer.signTransaction(await signer.populateTransaction(await usdtToken.getFunction('transfer').populateTransaction(to, amount))),
  }
}

function api(s: TestServer, me: SignedIn) {
  const o = { token: me.token, lang: 'EN' }
  return {
    address: (qs: string) => s.get<RechargeAddress>(`${R}/address${qs}`, o),
    list: () => s.get<PagedList<Deposit>>(`${R}/list`, o),
    moneyLog: () => s.get<PagedList<MoneyRecord>>('/api/v1/wallet/moneyLog?type=deposit', o),
  }
}

/** A signed-in user and the deposit address the app showed them for USDT on `chain`. */
async function depositor(s: TestServer, chain = 'bsc') {
  const me = await s.signIn(ROOT_CODE)
  const res = await api(s, me).address(`?coin=USDT&chain=${chain}`)
  expect(res.statusCode, res.body).toBe(200)
  return { me, address: res.body_.data.address }
}

const usdtOf = async (s: TestServer, userId: number) => (await balance(s.ctx.sql, fund(userId), 'USDT')).available
const mine = (s: TestServer, chain: string, blocks = 1) => s.gateway.dev!.mine(chain, blocks)
async function deposits(s: TestServer, me: SignedIn): Promise<Deposit[]> {
  const res = await api(s, me).list()
  expect(res.statusCode).toBe(200)
  return res.body_.data.list
}

function expectRefused(res: Res, status: number, message: string, label = '') {
  expect(res.statusCode, `${label} ${res.body}`).toBe(status)
  expect(res.body_, label).toEqual({ code: status, msg: message, data: null })
}

describe('deposit addresses', () => {
  it('asks for a coin, then a chain (SPEC §5), and says so when the chains are not configured', async () => {
    const s = await boot({ NADI_DEV_CHAINS: '0' })
    const me = await s.signIn(ROOT_CODE)
    const a = api(s, me)
    const cases: [string, string][] = [
      ['', 'errors.selectCurrency'],
      ['?chain=bsc', 'errors.selectCurrency'],
      ['?coin=BTC&chain=bsc', 'errors.selectCurrency'],
      ['?coin=&chain=bsc', 'errors.selectCurrency'],
      ['?coin=USDT', 'errors.selectChain'],
      ['?coin=NADI&chain=eth', 'errors.selectChain'],
      ['?coin=USDT&chain=', 'errors.selectChain'],
    ]
    for (const [qs, key] of cases) expectRefused(await a.address(qs), 400, msg(key), qs)
    expectRefused(await a.address('?coin=USDT&chain=bsc'), 409, msg('errors.rechargeUnavailable', { coin: 'USDT', chain: 'BNB Smart Chain' }))
    expect((await a.list()).body_.data).toEqual({ list: [], total: 0 })
    expect((await s.get(`${R}/list`)).statusCode).toBe(401)
    expect((await s.get(`${R}/address?coin=USDT&chain=bsc`)).statusCode).toBe(401)
  })

  it('gives each user their own address from the deposit key, the token to send and the confirmations', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    const bsc = await api(s, me).address('?coin=USDT&chain=bsc')
    expect(bsc.body_.data).toEqual({
      coin: 'USDT',
      chain: 'bsc',
      chain_id: 56,
      address: s.gateway.depositAddress('bsc', me.userId),
      token: s.gateway.chain('bsc').tokens.USDT,
      confirmations: 3,
    })
    const nadi = await api(s, me).address('?coin=NADI&chain=nadi')
    expect(nadi.body_.data).toMatchObject({ coin: 'NADI', chain: 'nadi', chain_id: s.config.login.chainId, address: bsc.body_.data.address, token: s.gateway.chain('nadi').tokens.NADI })
    expect((await api(s, me).address('?coin=USDT&chain=bsc')).body).toBe(bsc.body)
    expect((await api(s, other).address('?coin=USDT&chain=bsc')).body_.data.address).not.toBe(bsc.body_.data.address)
    expect(await s.count('SELECT COUNT(*) FROM deposit_addresses')).toBe(3)
  })
})

describe('the deposit watcher', () => {
  it('credits a deposit after 3 confirmations and not before, showing 1/3 and 2/3 on the way', async () => {
    const s = await boot()
    const { me, address } = await depositor(s)
    const events: DepositEvent[] = []
    onDeposit(s.ctx, (e) => events.push(e))
    const wallet = await payer(s, 'bsc')
    // 12.5 USDT and 123 wei: the part below 1e-8 is not credited.
    const sent = parseUnits('12.5', 18) + 123n
    const tx = await wallet.send(address, sent)
    await mine(s, 'bsc')
    const block = await s.gateway.blockNumber('bsc')

    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toEqual([
      { id: expect.any(Number), coin: 'USDT', chain: 'bsc', amount: '12.5', tx_hash: tx, confirmations: 1, required: 3, status: 'confirming', created_at: s.clock.now(), credited_at: null },
    ])
    expect(await usdtOf(s, me.userId)).toBe(0n)

    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ confirmations: 2, required: 3, status: 'confirming', credited_at: null }])
    expect(await usdtOf(s, me.userId)).toBe(0n)
    expect(await findPosting(s.ctx.sql, `deposit:bsc:${tx}:0`)).toBeNull()

    s.clock.advance(5000)
    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ confirmations: 3, status: 'credited', credited_at: s.clock.now(), amount: '12.5' }])
    expect(await usdtOf(s, me.userId)).toBe(1_250_000_000n)
    const posting = await findPosting(s.ctx.sql, `deposit:bsc:${tx}:0`)
    expect(posting).toMatchObject({ reason: 'deposit', userId: BigInt(me.userId) })
    expect((await balance(s.ctx.sql, custody('bsc'), 'USDT')).available).toBeLessThanOrEqual(-1_250_000_000n)
    expect(await s.count('SELECT amount_wei FROM deposits WHERE tx_hash = ?', tx)).toBe(Number(sent))
    expect(await s.count('SELECT block_number FROM deposits WHERE tx_hash = ?', tx)).toBe(block)
    expect((await api(s, me).moneyLog()).body_.data).toMatchObject({ total: 1, list: [{ type: 'deposit', asset: 'USDT', account: 'fund', amount: '12.5' }] })

    // More blocks change nothing.
    await mine(s, 'bsc', 3)
    await scanDeposits(s.ctx)
    expect(await usdtOf(s, me.userId)).toBe(1_250_000_000n)
    // The push hook saw every step, for this user only.
    expect(events.map((e) => [e.userId, e.deposit.status, e.deposit.confirmations])).toEqual([
      [me.userId, 'confirming', 1],
      [me.userId, 'confirming', 2],
      [me.userId, 'credited', 3],
    ])
  })

  it('a log seen twice — re-read, rescanned from the start, or in passes at once — credits once; two transfers in one block are two deposits', async () => {
    const s = await boot()
    const { me, address } = await depositor(s)
    const wallet = await payer(s, 'bsc')
    const tx1 = await wallet.send(address, parseUnits('7', 18))
    const tx2 = await wallet.send(address, parseUnits('3', 18))
    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    await scanDeposits(s.ctx) // the same reorg window again
    expect(await s.count('SELECT COUNT(*) FROM deposits')).toBe(2)
    await mine(s, 'bsc', 2)
    await Promise.all([scanDeposits(s.ctx), scanDeposits(s.ctx), scanDeposits(s.ctx)])
    expect(await usdtOf(s, me.userId)).toBe(1_000_000_000n)

    // Past the reorg window, then read again from block 0 as if the cursor were lost.
    await mine(s, 'bsc', 20)
    await s.ctx.sql.run(statement('DELETE FROM deposit_cursors'))
    await scanDeposits(s.ctx)
    await scanDeposits(s.ctx)
    const list = await deposits(s, me)
    expect(list.map((d) => [d.tx_hash, d.amount, d.status])).toEqual([
      [tx2, '3', 'credited'],
      [tx1, '7', 'credited'],
    ])
    expect(await usdtOf(s, me.userId)).toBe(1_000_000_000n)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'deposit'")).toBe(2)
    expect((await api(s, me).moneyLog()).body_.data.total).toBe(2)
  })

  it('a deposit sent on the other chain to the same address is credited as that chain’s', async () => {
    const s = await boot()
    const { me, address } = await depositor(s, 'bsc')
    // The faucet mints straight to the deposit address on the NADI chain (and mines that block).
    await s.gateway.faucet('nadi', address, { NADI: parseUnits('2.5', 18) })
    await mine(s, 'nadi', 2)
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ coin: 'NADI', chain: 'nadi', amount: '2.5', status: 'credited' }])
    expect((await balance(s.ctx.sql, fund(me.userId), 'NADI')).available).toBe(250_000_000n)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'deposit' AND ref LIKE 'deposit:nadi:%'")).toBe(1)
  })

  it('a reorg that replaces the deposit’s block leaves nothing credited and the deposit dropped, even once the chain is 3 blocks past it', async () => {
    const s = await boot()
    const { me, address } = await depositor(s)
    const wallet = await payer(s, 'bsc')
    const snap = await s.gateway.dev!.snapshot('bsc')
    const tx = await wallet.send(address, parseUnits('50', 18))
    await mine(s, 'bsc')
    const block = await s.gateway.blockNumber('bsc')
    await scanDeposits(s.ctx)
    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ tx_hash: tx, status: 'confirming', confirmations: 2 }])

    // The chain rewinds past the deposit; other blocks take its height and go 3 deep.
    expect(await s.gateway.dev!.revert('bsc', snap)).toBe(true)
    await wallet.send(freshWallet().address, parseUnits('1', 18))
    await mine(s, 'bsc', 3)
    expect(await s.gateway.blockNumber('bsc')).toBe(block + 2)
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ tx_hash: tx, status: 'dropped', credited_at: null }])
    await mine(s, 'bsc', 5)
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ status: 'dropped' }])
    expect(await usdtOf(s, me.userId)).toBe(0n)
    expect(await findPosting(s.ctx.sql, `deposit:bsc:${tx}:0`)).toBeNull()
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'deposit'")).toBe(0)
  })

  it('a deposit dropped by a reorg whose transaction is mined again confirms again and is credited once', async () => {
    const s = await boot()
    const { me, address } = await depositor(s)
    const wallet = await payer(s, 'bsc')
    const snap = await s.gateway.dev!.snapshot('bsc')
    const raw = await wallet.sign(address, parseUnits('20', 18))
    const tx = (await wallet.provider.send('eth_sendRawTransaction', [raw])) as string
    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ tx_hash: tx, status: 'confirming', confirmations: 1 }])

    // Rewound: the chain is now shorter than the deposit's block.
    await s.gateway.dev!.revert('bsc', snap)
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ status: 'dropped' }])

    // The same signed transaction lands again, in a new block.
    expect(await wallet.provider.send('eth_sendRawTransaction', [raw])).toBe(tx)
    await mine(s, 'bsc')
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ tx_hash: tx, status: 'confirming', confirmations: 1 }])
    await mine(s, 'bsc', 2)
    await scanDeposits(s.ctx)
    await scanDeposits(s.ctx)
    expect(await deposits(s, me)).toMatchObject([{ status: 'credited', confirmations: 3 }])
    expect(await usdtOf(s, me.userId)).toBe(2_000_000_000n)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'deposit'")).toBe(1)
  })
})
