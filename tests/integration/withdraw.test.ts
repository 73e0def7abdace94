// Withdrawals end to end against real anvil nodes with manual mining: every block is the test's, and
// every pass of the sender is the test's too (the app's own job is set to a pass an hour).

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Contract, JsonRpcProvider, MaxUint256, Network, Wallet, parseUnits } from 'ethers'
import type { Withdrawal, WithdrawConfig } from '../../contract/withdraw.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { main as cli } from '../../server/cli.ts'
import { devDepositXpub, devHotWalletKey } from '../../server/config.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { startDevChains, type DevChains } from '../../server/chain/devChains.ts'
import { createGateway, type Gateway } from '../../server/chain/gateway.ts'
import { createWithdrawSender, type SenderHooks } from '../../server/chain/withdrawSender.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, custody, FEES, findPosting, fund, transfer } from '../../server/ledger/index.ts'
import type { WithdrawSettings } from '../../server/config.ts'
import { freshWallet, idemKey, useServers, type Res, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const NADI = (text: string) => parseUnits(text, 8) // ledger units
const WEI = (text: string) => parseUnits(text, 18) // token units
const DEV = { NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' }
const APPLY = '/api/v1/withdraw/apply'

// The app's own sender job must not run behind the tests' backs: one pass an hour.
const start = useServers({ env: { NADI_WITHDRAW_EVERY_MS: '3600000' } })

/** Test-only deposit: NADI credited to the user's fund account from the chain's custody, through the ledger. */
async function credit(s: TestServer, userId: number, amount: string, chain = 'nadi'): Promise<void> {
  await transfer(s.ctx.sql, { ref: `test:deposit:${crypto.randomUUID()}`, reason: 'deposit', from: custody(chain), to: fund(userId), asset: 'NADI', amount: NADI(amount) })
}

const fundNadi = (s: TestServer, userId: number) => balance(s.ctx.sql, fund(userId), 'NADI')
const platform = async (s: TestServer, account: Parameters<typeof balance>[1]) => (await balance(s.ctx.sql, account, 'NADI')).available

async function expectBalanced(s: TestServer): Promise<void> {
  const report = await audit(s.ctx.sql)
  expect(report.holders).toContain('withdrawals')
  expect(report.violations).toEqual([])
}

function sender(s: TestServer, over: Partial<WithdrawSettings> = {}, hooks: SenderHooks = {}) {
  return createWithdrawSender(s.ctx, { ...s.config.withdraw, ...over }, hooks)
}

function apply(s: TestServer, user: SignedIn, body: Record<string, unknown>, key: string = idemKey()): Promise<Res<Withdrawal>> {
  return s.post<Withdrawal>(APPLY, { coin: 'NADI', chain: 'nadi', amount: '1', address: freshWallet().address, ...body }, { token: user.token, lang: 'EN', idempotencyKey: key })
}

async function list(s: TestServer, user: SignedIn, query = ''): Promise<PagedList<Withdrawal>> {
  const res = await s.get<PagedList<Withdrawal>>(`/api/v1/withdraw/list${query}`, { token: user.token })
  expect(res.statusCode).toBe(200)
  return res.body_.data
}

const row = async (s: TestServer, id: number) =>
  (await s.ctx.sql.get(statement<{ status: string; fail_reason: string | null; attempts: bigint; tx_hash: string | null; nonce: bigint | null }>('SELECT * FROM withdrawals WHERE id = ?'), id))!

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}

/** The EN message of a key, the way the server renders it. */
const en = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)

describe('withdraw config and input', () => {
  it('GET /withdraw/config answers NADI only, minimum 1, the fee, 3 confirmations and the chains where NADI can be sent', async () => {
    const s = await start({ env: DEV })
    const res = await s.get<WithdrawConfig>('/api/v1/withdraw/config')
    expect(res.statusCode).toBe(200)
    expect(res.body_.data).toEqual({ coin: 'NADI', min: '1', fee: '0.1', confirmations: 3, chains: ['bsc', 'nadi'] })

    // Without chains (no node, token or hot wallet configured) nothing can be withdrawn anywhere.
    const bare = await start()
    expect((await bare.get<WithdrawConfig>('/api/v1/withdraw/config')).body_.data.chains).toEqual([])
    const user = await bare.signIn()
    await credit(bare, user.userId, '10')
    const res2 = await apply(bare, user, { chain: 'nadi' })
    expect([res2.statusCode, res2.body_.msg]).toEqual([400, en('errors.withdrawChainUnsupported')])
    expect(await fundNadi(bare, user.userId)).toEqual({ available: NADI('10'), frozen: 0n })
  })

  it('bad input — zero, negative, 9 decimals, below 1, above available, USDT, malformed, bad checksum, wrong chain — is refused and moves nothing', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '10')
    const good = freshWallet().address
    const letter = [...good.slice(2)].findIndex((c) => /[a-fA-F]/.test(c)) + 2
    const flipped = good.slice(0, letter) + (good[letter] === good[letter]!.toUpperCase() ? good[letter]!.toLowerCase() : good[letter]!.toUpperCase()) + good.slice(letter + 1)
    const chain = s.gateway.chain('nadi')

    const cases: [string, Record<string, unknown>, string, Record<string, string>?][] = [
      ['zero', { amount: '0' }, 'errors.withdrawAmountInvalid'],
      ['negative', { amount: '-1' }, 'errors.withdrawAmountInvalid'],
      ['more than 8 decimals', { amount: '1.123456789' }, 'errors.withdrawAmountInvalid'],
      ['a number, not a decimal string', { amount: 1 }, 'errors.withdrawAmountInvalid'],
      ['no amount', { amount: undefined }, 'errors.withdrawAmountInvalid'],
      ['below the minimum of 1', { amount: '0.99999999' }, 'errors.withdrawBelowMin', { min: '1', coin: 'NADI' }],
      ['amount + fee above available', { amount: '10' }, 'errors.withdrawInsufficient', { available: '10', required: '10.1', fee: '0.1', coin: 'NADI' }],
      ['far above available', { amount: '999999999' }, 'errors.withdrawInsufficient', { available: '10', required: '999999999.1', fee: '0.1', coin: 'NADI' }],
      ['past what the ledger holds', { amount: '99999999999999999999' }, 'errors.withdrawAmountInvalid'],
      ['a coin other than NADI', { coin: 'USDT' }, 'errors.withdrawCoinUnsupported', { coin: 'NADI' }],
      ['a malformed address', { address: '0x1234' }, 'errors.withdrawAddressInvalid'],
      ['an address of another chain (Tron)', { address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' }, 'errors.withdrawAddressInvalid'],
      ['a mixed-case address with a wrong checksum', { address: flipped }, 'errors.withdrawAddressChecksum'],
      ['the zero address', { address: `0x${'0'.repeat(40)}` }, 'errors.withdrawAddressNotAllowed'],
      ['the token contract', { address: chain.tokens.NADI }, 'errors.withdrawAddressNotAllowed'],
      ['the hot wallet itself', { address: s.gateway.hotWalletAddress().toLowerCase() }, 'errors.withdrawAddressNotAllowed'],
      ['an unknown chain', { chain: 'eth' }, 'errors.withdrawChainUnsupported'],
    ]
    for (const [what, body, key, params] of cases) {
      const res = await apply(s, user, body)
      expect([what, res.statusCode, res.body_.code, res.body_.msg]).toEqual([what, 400, 400, en(key, params)])
    }
    const anon = await s.post(APPLY, { coin: 'NADI', chain: 'nadi', amount: '1', address: good }, { idempotencyKey: idemKey() })
    expect(anon.statusCode).toBe(401)

    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('10'), frozen: 0n })
    expect(await s.count('SELECT COUNT(*) FROM withdrawals')).toBe(0)
    expect((await list(s, user)).total).toBe(0)
    await expectBalanced(s)
  })

  it('a replayed Idempotency-Key applies once; the same key with another body is refused', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '5')
    const key = idemKey()
    const body = { amount: '1.5', address: freshWallet().address }
    const first = await apply(s, user, body, key)
    const again = await apply(s, user, body, key)
    expect(first.statusCode).toBe(200)
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toBe(first.body)
    const other = await apply(s, user, { ...body, amount: '2' }, key)
    expect([other.statusCode, other.body_.msg]).toEqual([400, en('errors.idempotencyKeyReused')])

    expect(await s.count('SELECT COUNT(*) FROM withdrawals')).toBe(1)
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('3.4'), frozen: NADI('1.6') })
    await expectBalanced(s)
  })
})

describe('sending withdrawals', () => {
  it('a 1 NADI withdrawal arrives on chain and confirms after 3 blocks, not before; the fund pays amount + fee and the ledger balances', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    const stranger = await s.signIn()
    await credit(s, user.userId, '5')
    const to = freshWallet().address
    const hot = s.gateway.hotWalletAddress()
    const hotBefore = await s.gateway.tokenBalance('nadi', 'NADI', hot)
    const custodyBefore = await platform(s, custody('nadi'))
    const feesBefore = await platform(s, FEES)

    // Typed in lower case (no checksum to check), kept checksummed.
    const res = await apply(s, user, { amount: '1', address: to.toLowerCase() })
    expect(res.statusCode).toBe(200)
    const w = res.body_.data
    expect(w).toMatchObject({ coin: 'NADI', chain: 'nadi', amount: '1', fee: '0.1', address: to, status: 'approved', tx_hash: null, confirmations: 0, required: 3 })
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('3.9'), frozen: NADI('1.1') })
    await expectBalanced(s) // frozen = what open withdrawals hold

    const send = sender(s)
    expect(await send.tick()).toMatchObject({ sent: 1 })
    let [seen] = (await list(s, user)).list
    expect(seen).toMatchObject({ id: w.id, status: 'broadcast', confirmations: 0 })
    expect(seen!.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(0n) // not mined yet

    for (const n of [1, 2]) {
      await s.gateway.dev!.mine('nadi')
      await send.tick()
      ;[seen] = (await list(s, user)).list
      expect(seen).toMatchObject({ status: 'broadcast', confirmations: n })
      expect((await fundNadi(s, user.userId)).frozen).toBe(NADI('1.1'))
    }
    // On chain since the first block: exactly 1 NADI, from the hot wallet.
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(WEI('1'))
    const receipt = await s.gateway.receipt('nadi', seen!.tx_hash!)
    expect(receipt!.transfers).toMatchObject([{ token: 'NADI', from: hot, to, amount: WEI('1') }])

    await s.gateway.dev!.mine('nadi')
    expect(await send.tick()).toMatchObject({ confirmed: 1 })
    ;[seen] = (await list(s, user)).list
    expect(seen).toMatchObject({ status: 'confirmed', confirmations: 3 })

    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('3.9'), frozen: 0n })
    expect(await platform(s, custody('nadi'))).toBe(custodyBefore + NADI('1')) // the chain's mirror: 1 NADI left custody
    expect(await platform(s, FEES)).toBe(feesBefore + NADI('0.1'))
    expect(await s.gateway.tokenBalance('nadi', 'NADI', hot)).toBe(hotBefore - WEI('1'))
    expect(await findPosting(s.ctx.sql, `withdraw:${w.id}:freeze`)).not.toBeNull()
    expect(await findPosting(s.ctx.sql, `withdraw:${w.id}:settle`)).not.toBeNull()
    expect(await findPosting(s.ctx.sql, `withdraw:${w.id}:refund`)).toBeNull()
    await expectBalanced(s)

    // More passes change nothing; the list is the caller's own.
    await s.gateway.dev!.mine('nadi', 3)
    expect(await send.tick()).toEqual({ sent: 0, confirmed: 0, failed: 0, confirming: 0 })
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(WEI('1'))
    expect(await list(s, stranger)).toEqual({ list: [], total: 0 })
    expect((await list(s, user, '?page=2&page_size=1')).list).toEqual([])
  })

  it('a failed broadcast (more than the hot wallet holds) fails the withdrawal and returns amount and fee', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '2000000')
    const to = freshWallet().address
    const res = await apply(s, user, { amount: '1500000', address: to })
    expect(res.body_.data.status).toBe('requested') // above the automatic threshold
    expect((await runCli(s, 'withdraw', 'approve', String(res.body_.data.id))).code).toBe(0)
    expect((await fundNadi(s, user.userId)).frozen).toBe(NADI('1500000.1'))

    expect(await sender(s).tick()).toMatchObject({ sent: 0, failed: 1 })
    expect(await row(s, res.body_.data.id)).toMatchObject({ status: 'failed', fail_reason: 'send_failed', tx_hash: null })
    expect((await list(s, user)).list[0]).toMatchObject({ status: 'failed', tx_hash: null })
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('2000000'), frozen: 0n })
    expect(await findPosting(s.ctx.sql, `withdraw:${res.body_.data.id}:refund`)).not.toBeNull()
    await s.gateway.dev!.mine('nadi')
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(0n)
    await expectBalanced(s)
  })

  it('a node that stays unreachable: retried with a pause, then the withdrawal fails and is refunded', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '3')
    const w = (await apply(s, user, { amount: '1' })).body_.data
    // The same chains, but every call to them goes to a port nobody listens on.
    const dead = createGateway({
      networks: s.gateway.chains().map((c) => ({ ...c, rpcUrl: 'http://127.0.0.1:1' })),
      hotWalletKey: s.config.chain.hotWalletKey,
      depositXkey: null,
      logRange: 100,
    })
    try {
      const send = createWithdrawSender({ ...s.ctx, chain: dead }, { ...s.config.withdraw, everyMs: 1000, sendAttempts: 2 })
      expect(await send.tick()).toMatchObject({ sent: 0, failed: 0 })
      expect(await row(s, w.id)).toMatchObject({ status: 'approved', attempts: 1n })
      expect(await send.tick()).toMatchObject({ failed: 0 }) // pausing: not tried again yet
      expect((await row(s, w.id)).attempts).toBe(1n)
      s.clock.advance(1000)
      expect(await send.tick()).toMatchObject({ failed: 1 })
      expect(await row(s, w.id)).toMatchObject({ status: 'failed', fail_reason: 'send_failed', attempts: 2n })
    } finally {
      await dead.close()
    }
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('3'), frozen: 0n })
    await expectBalanced(s)
  })

  it('a large withdrawal waits for an operator: `withdraw approve` sends it, `withdraw reject` returns the funds', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '4000')
    const to = freshWallet().address
    const send = sender(s)
    const big = (await apply(s, user, { amount: '1000', address: to })).body_.data
    const other = (await apply(s, user, { amount: '1200' })).body_.data
    const small = (await apply(s, user, { amount: '999.99999999' })).body_.data
    expect([big.status, other.status, small.status]).toEqual(['requested', 'requested', 'approved'])
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('4000') - NADI('3199.99999999') - NADI('0.3'), frozen: NADI('3199.99999999') + NADI('0.3') })

    // Waiting ones are not sent.
    expect(await send.tick()).toMatchObject({ sent: 1 })
    expect((await row(s, big.id)).status).toBe('requested')
    const listed = await runCli(s, 'withdraw', 'list')
    expect(listed.code).toBe(0)
    expect(listed.out).toContain(`#${big.id}  requested  user ${user.userId}  1000 NADI + fee 0.1  nadi → ${to}`)
    expect(listed.out).toContain(`#${small.id}  broadcast`)

    expect(await runCli(s, 'withdraw', 'approve', String(big.id))).toMatchObject({ code: 0, out: `withdrawal #${big.id} approved: 1000 NADI to ${to} on nadi\n` })
    // The server holds the data folder (on PostgreSQL the database, named without its password), so
    // the command runs inside it (server/ops.ts) and says so first.
    const held = s.config.databaseUrl ? s.config.databaseUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@') : path.dirname(s.config.dbFile)
    expect(await runCli(s, 'withdraw', 'approve', String(big.id))).toMatchObject({
      code: 1,
      err: `(run inside server pid ${process.pid}, which holds ${held})\nwithdraw approve: withdrawal ${big.id} is approved, not requested\n`,
    })
    const rejected = await runCli(s, 'withdraw', 'reject', String(other.id), 'address', 'on', 'a', 'sanctions', 'list')
    expect(rejected).toMatchObject({ code: 0, out: `withdrawal #${other.id} rejected; 1200.1 NADI returned to user ${user.userId}\n` })
    expect(await s.ctx.sql.get(statement<{ fail_reason: unknown; fail_detail: unknown }>('SELECT fail_reason, fail_detail FROM withdrawals WHERE id = ?'), other.id)).toEqual({ fail_reason: 'rejected', fail_detail: 'address on a sanctions list' })
    expect((await runCli(s, 'withdraw', 'reject', String(other.id))).code).toBe(1)
    expect((await runCli(s, 'withdraw', 'reject', '999999')).err).toContain('no withdrawal 999999')
    expect((await runCli(s, 'withdraw', 'approve', 'abc')).code).toBe(2)
    expect((await runCli(s, 'withdraw', 'list', '--status', 'nope')).code).toBe(2)
    expect((await runCli(s, 'withdraw', 'list', '--status', 'failed')).out).toContain(`#${other.id}  failed`)

    expect(await send.tick()).toMatchObject({ sent: 1 })
    await s.gateway.dev!.mine('nadi', 3)
    expect(await send.tick()).toMatchObject({ confirmed: 2 })
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(WEI('1000'))
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('4000') - NADI('1999.99999999') - NADI('0.2'), frozen: 0n })
    expect((await runCli(s, 'withdraw', 'list')).out).toBe('no withdrawals (requested, approved, broadcast)\n')
    expect((await runCli(s, 'audit')).code).toBe(0)
    await expectBalanced(s)
  })

  it('a transaction that reverts on chain (the hot wallet was drained first) fails once it is 3 blocks deep and is refunded', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '5')
    const c = s.gateway.chain('nadi')
    const network = Network.from(c.id)
    const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    try {
      // Someone holding the hot wallet's key has let a thief spend its NADI (before the sender's first send).
      const thief = freshWallet().connect(provider)
      await s.gateway.faucet('nadi', thief.address, { native: WEI('1') })
      const abi = loadArtifact('TestToken').abi as string[]
      const asHot = new Contract(c.tokens.NADI!, abi, new Wallet(devHotWalletKey(), provider))
      await asHot.getFunction('approve')(thief.address, MaxUint256)
      await s.gateway.dev!.mine('nadi')

      const to = freshWallet().address
      const w = (await apply(s, user, { amount: '1', address: to })).body_.data
      const send = sender(s)
      expect(await send.tick()).toMatchObject({ sent: 1 })
      // The thief's transfer pays a higher tip, so it runs first in the next block.
      const hot = s.gateway.hotWalletAddress()
      const all = await s.gateway.tokenBalance('nadi', 'NADI', hot)
      await new Contract(c.tokens.NADI!, abi, thief).getFunction('transferFrom')(hot, thief.address, all, { maxPriorityFeePerGas: parseUnits('50', 'gwei'), maxFeePerGas: parseUnits('100', 'gwei'), gasLimit: 100_000n })
      await s.gateway.dev!.mine('nadi')
      expect((await s.gateway.receipt('nadi', (await row(s, w.id)).tx_hash!))?.status).toBe('reverted')

      expect(await send.tick()).toMatchObject({ failed: 0, confirming: 1 }) // 1 of 3: a reorg could still change it
      expect((await fundNadi(s, user.userId)).frozen).toBe(NADI('1.1'))
      await s.gateway.dev!.mine('nadi', 2)
      expect(await send.tick()).toMatchObject({ failed: 1 })
      expect(await row(s, w.id)).toMatchObject({ status: 'failed', fail_reason: 'reverted' })
      expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(0n)
      expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('5'), frozen: 0n })
      await expectBalanced(s)
    } finally {
      provider.destroy()
    }
  })

  it('a stored transaction whose nonce another transaction took is never sent: once that is 3 blocks deep it fails and is refunded', async () => {
    const s = await start({ env: DEV })
    const user = await s.signIn()
    await credit(s, user.userId, '5')
    const to = freshWallet().address
    const w = (await apply(s, user, { amount: '1', address: to })).body_.data
    // Stored, then the process "dies" before the broadcast.
    const crashing = sender(s, {}, {
      afterStore: () => {
        throw new Error('crash before broadcast')
      },
    })
    await crashing.tick()
    const stored = await row(s, w.id)
    expect(stored.status).toBe('broadcast')

    // Meanwhile the hot wallet's key signs something else with that nonce, and it is mined.
    const c = s.gateway.chain('nadi')
    const network = Network.from(c.id)
    const provider = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    try {
      await new Wallet(devHotWalletKey(), provider).sendTransaction({ to: freshWallet().address, value: 1n, nonce: Number(stored.nonce) })
      await s.gateway.dev!.mine('nadi')
    } finally {
      provider.destroy()
    }
    const send = sender(s)
    expect(await send.tick()).toMatchObject({ failed: 0 })
    expect((await row(s, w.id)).status).toBe('broadcast')
    await s.gateway.dev!.mine('nadi', 2)
    expect(await send.tick()).toMatchObject({ failed: 1 })
    expect(await row(s, w.id)).toMatchObject({ status: 'failed', fail_reason: 'dropped' })
    expect(await s.gateway.receipt('nadi', stored.tx_hash!)).toBeNull()
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(0n)
    expect(await fundNadi(s, user.userId)).toEqual({ available: NADI('5'), frozen: 0n })
    await expectBalanced(s)

    // The next withdrawal goes out normally.
    const next = (await apply(s, user, { amount: '1', address: to })).body_.data
    expect(await send.tick()).toMatchObject({ sent: 1 })
    await s.gateway.dev!.mine('nadi', 3)
    expect(await send.tick()).toMatchObject({ confirmed: 1 })
    expect((await row(s, next.id)).status).toBe('confirmed')
    expect(await s.gateway.tokenBalance('nadi', 'NADI', to)).toBe(WEI('1'))
    await expectBalanced(s)
  })
})

describe('crash safety: the app rebuilt on the same database', () => {
  let chains: DevChains
  let gw: Gateway
  let dir: string

  beforeAll(async () => {
    chains = await startDevChains({
      chains: [
        { key: 'bsc', id: 56 },
        { key: 'nadi', id: 92025 },
      ],
      blockTime: 'manual',
      fund: [{ address: new Wallet(devHotWalletKey()).address, native: WEI('100'), NADI: WEI('1000') }],
    })
    gw = createGateway({
      networks: chains.chains.map((c) => ({ id: c.id, key: c.key, name: c.key, nativeSymbol: 'ETH', rpcUrl: c.rpcUrl, confirmations: 3, tokens: c.tokens })),
      hotWalletKey: null,
      depositXkey: null,
      logRange: 1000,
      dev: chains,
    })
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-wd-crash-'))
  })
  /** On the PostgreSQL run, the database of each file name, which outlives its servers as the file does. */
  const pgDatabases = new Map<string, TestDatabase>()
  afterAll(async () => {
    await gw?.close()
    fs.rmSync(dir, { recursive: true, force: true })
    for (const d of pgDatabases.values()) d.drop()
  })

  /** A server on the chains above (as production configures them) and on a database (file) that outlives it. */
  function server(dbFile: string) {
    if (testBackend() === 'postgres' && !pgDatabases.has(dbFile)) pgDatabases.set(dbFile, freshDatabase())
    const pg = pgDatabases.get(dbFile)
    const env: Record<string, string> = {
      NADI_DEV_CHAINS: '0',
      NADI_DB_FILE: dbFile,
      ...(pg ? { NADI_DATABASE_URL: pg.url } : {}),
      NADI_HOT_WALLET_KEY: devHotWalletKey(),
      NADI_DEPOSIT_XKEY: devDepositXpub(),
    }
    for (const c of chains.chains) {
      const p = `NADI_CHAIN_${c.key.toUpperCase()}_`
      Object.assign(env, { [`${p}RPC_URL`]: c.rpcUrl, [`${p}USDT_ADDRESS`]: c.tokens.USDT, [`${p}NADI_ADDRESS`]: c.tokens.NADI })
    }
    return start({ env })
  }

  async function transfersTo(to: string) {
    return gw.transferLogs('nadi', 'NADI', 0, await gw.blockNumber('nadi'), [to])
  }

  it('a crash after the signed transaction is stored and before it is broadcast: after the restart the same transaction is sent, once', async () => {
    const dbFile = path.join(dir, 'before-broadcast.sqlite')
    const a = await server(dbFile)
    const user = await a.signIn()
    await credit(a, user.userId, '5')
    const to = freshWallet().address
    const w = (await apply(a, user, { amount: '1', address: to })).body_.data
    await sender(a, {}, {
      afterStore: () => {
        throw new Error('the process dies here')
      },
    }).tick()
    const stored = await row(a, w.id)
    expect(stored.status).toBe('broadcast')
    expect(await gw.dev!.rpc('nadi', 'eth_getTransactionByHash', [stored.tx_hash])).toBeNull() // never left the process
    await a.close()

    const b = await server(dbFile)
    const send = sender(b)
    expect(await send.tick()).toMatchObject({ sent: 0, confirming: 1 }) // the stored bytes, broadcast again
    expect(await gw.dev!.rpc('nadi', 'eth_getTransactionByHash', [stored.tx_hash])).not.toBeNull()
    await gw.dev!.mine('nadi', 3)
    expect(await send.tick()).toMatchObject({ sent: 0, confirmed: 1 })
    expect(await row(b, w.id)).toMatchObject({ status: 'confirmed', tx_hash: stored.tx_hash })
    expect((await transfersTo(to)).map((t) => [t.txHash, t.amount])).toEqual([[stored.tx_hash, WEI('1')]])
    expect(await fundNadi(b, user.userId)).toEqual({ available: NADI('3.9'), frozen: 0n })
    await expectBalanced(b)
  })

  it('a crash after the broadcast and before the confirmations: after the restart it is confirmed, once', async () => {
    const dbFile = path.join(dir, 'after-broadcast.sqlite')
    const a = await server(dbFile)
    const user = await a.signIn()
    await credit(a, user.userId, '5')
    const to = freshWallet().address
    const w = (await apply(a, user, { amount: '2', address: to })).body_.data
    expect(await sender(a).tick()).toMatchObject({ sent: 1 })
    await gw.dev!.mine('nadi')
    await a.close()
    await gw.dev!.mine('nadi', 2)

    const b = await server(dbFile)
    const send = sender(b)
    expect(await send.tick()).toMatchObject({ sent: 0, confirmed: 1 })
    await gw.dev!.mine('nadi', 3)
    expect(await send.tick()).toMatchObject({ sent: 0, confirmed: 0 })
    expect((await transfersTo(to)).map((t) => t.amount)).toEqual([WEI('2')])
    expect((await row(b, w.id)).status).toBe('confirmed')
    expect(await fundNadi(b, user.userId)).toEqual({ available: NADI('2.9'), frozen: 0n })
    await expectBalanced(b)
  })
})
