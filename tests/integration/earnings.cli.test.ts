// The operator's money commands beside a running server (they run inside it over its operator
// socket): `fund` moves money from the treasury to a platform account that pays users, refusing bad
// input with a usage error and nothing written; `airdrop` credits each user the amount × their node
// airdrop multiplier once per (airdrop, user) — a re-run posts nothing; MEME, the airdrop token,
// stays in the fund account.

import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { main as cli, withAbsolutePaths } from '../../server/cli.ts'
import { audit, balance, custody, fund, LOANS, MINING, RELEASES, SAVINGS, transfer, TREASURY } from '../../server/ledger/index.ts'
import { airdropMultiplier } from '../../server/modules/node/airdrop.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Balances, MoneyRecord } from '../../contract/wallet.ts'
import { translate } from '../../server/i18n.ts'
import { formatMoney } from '../../contract/money.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_GOLD_WALK_MS: '0', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_TRIAL_POWER: '0' } })
const units = (n: string) => parseUnits(n, 8)
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)

async function runCli(s: TestServer, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}
const postings = (s: TestServer) => s.count('SELECT count(*) FROM ledger_postings')
const avail = async (s: TestServer, account: Parameters<typeof balance>[1], asset: string) => (await balance(s.ctx.sql, account, asset)).available

async function withCoreNode(s: TestServer): Promise<SignedIn> {
  const me = await s.signIn()
  await transfer(s.ctx.sql, { ref: `test:air:${me.userId}`, reason: 'deposit', from: custody('bsc'), to: fund(me.userId), asset: 'USDT', amount: units('5000') })
  const opts = { token: me.token, idempotencyKey: idemKey(), lang: 'EN' }
  const core = (await s.get<NodeConfig>('/api/v1/node/config', { token: me.token })).body_.data.tiers.find((t) => t.type === 'core')!
  const order = await s.post<PayOrder>('/api/v1/node/buy', { node_id: core.id }, opts)
  expect((await s.post<PayOrder>('/api/v1/orders/payByBalance', { id: order.body_.data.id }, { ...opts, idempotencyKey: idemKey() })).statusCode).toBe(200)
  return me
}

describe('fund', () => {
  it('moves money from the treasury to each funding account and prints both balances; `release fund` still works', async () => {
    const s = await start()
    const treasury = await avail(s, TREASURY, 'NADI')
    const mining = await avail(s, MINING, 'NADI')
    const r = await runCli(s, 'fund', 'mining', 'NADI', '10.5')
    expect(r, r.err).toMatchObject({ code: 0 })
    expect(await avail(s, MINING, 'NADI')).toBe(mining + units('10.5'))
    expect(await avail(s, TREASURY, 'NADI')).toBe(treasury - units('10.5'))
    expect(r.out).toBe(`mining account: ${formatMoney(mining + units('10.5'))} NADI (+10.5); treasury: ${formatMoney(treasury - units('10.5'))} NADI\n`)

    const savings = await avail(s, SAVINGS, 'NADI')
    expect((await runCli(s, 'fund', 'savings', 'NADI', '1')).code).toBe(0)
    expect(await avail(s, SAVINGS, 'NADI')).toBe(savings + units('1'))
    // The same amount twice is two fundings, not one replayed.
    const releases = await avail(s, RELEASES, 'NADI')
    expect((await runCli(s, 'fund', 'releases', 'NADI', '2')).code).toBe(0)
    const alias = await runCli(s, 'release', 'fund', '2')
    expect(alias.code).toBe(0)
    expect(alias.out).toContain('releases account: ')
    expect(await avail(s, RELEASES, 'NADI')).toBe(releases + units('4'))
    await transfer(s.ctx.sql, { ref: 'test:treasury:usdt', reason: 'treasury_fund', userId: null, from: custody('bsc'), to: TREASURY, asset: 'USDT', amount: units('100') })
    const loans = await avail(s, LOANS, 'USDT')
    const usdt = await runCli(s, 'fund', 'loans', 'USDT', '3')
    expect(usdt.code).toBe(0)
    expect(usdt.out).toBe(`loans account: ${formatMoney(loans + units('3'))} USDT (+3); treasury: ${formatMoney(await avail(s, TREASURY, 'USDT'))} USDT\n`)
    expect(await avail(s, LOANS, 'USDT')).toBe(loans + units('3'))
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('refuses bad input with a usage error, and a short treasury, writing nothing', async () => {
    const s = await start()
    const before = await postings(s)
    const bad: [string[], RegExp][] = [
      [[], /usage: fund <account> <asset> <amount>/],
      [['mining', 'NADI'], /usage: fund/],
      [['fees', 'NADI', '1'], /fees is not a funding account/],
      [['treasury', 'NADI', '1'], /not a funding account/],
      [['mining', 'USDT', '1'], /the mining account pays NADI, not USDT/],
      [['loans', 'NADI', '1'], /the loans account pays USDT, not NADI/],
      [['mining', 'MEME', '1'], /the mining account pays NADI, not MEME/],
      [['mining', 'DOGE', '1'], /DOGE is not an asset of the ledger/],
      [['mining', 'NADI', '0'], /not a positive amount/],
      [['mining', 'NADI', '-1'], /not a positive amount/],
      [['mining', 'NADI', '1.123456789'], /at most 8 decimals/],
      [['mining', 'NADI', 'ten'], /not a positive amount/],
      [['mining', 'NADI', '1', 'extra'], /usage: fund/],
    ]
    for (const [args, message] of bad) {
      const r = await runCli(s, 'fund', ...args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.err).toMatch(message)
    }
    const short = await runCli(s, 'fund', 'mining', 'NADI', '99999999')
    expect(short.code).toBe(1)
    expect(short.err).toMatch(/fund: the treasury has [\d.]+ NADI, 99999999 asked; nothing was moved/)
    expect(await postings(s)).toBe(before)
  })
})

describe('airdrop', () => {
  it('doubles a node holder’s airdrop, credits each user once, and a re-run posts nothing', async () => {
    const s = await start()
    const holder = await withCoreNode(s)
    const plain = await s.signIn()
    expect(await airdropMultiplier(s.ctx.sql, holder.userId, dayOf(s.clock.now()))).toBe(2)
    expect(await airdropMultiplier(s.ctx.sql, plain.userId, dayOf(s.clock.now()))).toBe(1)
    // The CLI runs on the real clock and the server on the test clock: the day is named.
    const paidDay = dayOf(s.clock.now())
    const file = path.join(s.dir, 'users.txt')
    fs.writeFileSync(file, `# the launch airdrop\n${holder.userId}\n\n${plain.address}\n${holder.userId}\n`)
    const nadi = (u: SignedIn) => avail(s, fund(u.userId), 'NADI')
    const [h0, p0] = [await nadi(holder), await nadi(plain)]
    const day = new Date(paidDay * 86_400_000).toISOString().slice(0, 10)

    const first = await runCli(s, 'airdrop', 'launch', 'NADI', '10', '--users', file, '--day', day)
    expect(first, first.err).toMatchObject({ code: 0 })
    expect(first.out).toMatch(/airdrop launch \(\d{4}-\d\d-\d\d\): 2 users credited 30 NADI \(10 each, 1 multiplied by their nodes\); 0 already credited before; treasury: /)
    expect(await nadi(holder) - h0).toBe(units('20'))
    expect(await nadi(plain) - p0).toBe(units('10'))
    const log = (await s.get<PagedList<MoneyRecord>>('/api/v1/wallet/moneyLog?type=airdrop', { token: holder.token })).body_.data.list
    expect(log).toMatchObject([{ type: 'airdrop', asset: 'NADI', account: 'fund', amount: '20' }])

    const before = await postings(s)
    const again = await runCli(s, 'airdrop', 'launch', 'NADI', '10', '--users', file)
    expect(again, again.err).toMatchObject({ code: 0 })
    expect(again.out).toContain('0 users credited 0 NADI')
    expect(again.out).toContain('2 already credited before')
    expect(await postings(s)).toBe(before)
    expect(await nadi(holder) - h0).toBe(units('20'))

    // Other terms under the same id are refused whole: another amount, and the same amount to everyone
    // (a re-run that forgot its list would otherwise credit every user).
    const other = await runCli(s, 'airdrop', 'launch', 'NADI', '11', '--users', file)
    expect(other.code).toBe(1)
    expect(other.err).toMatch(/airdrop launch was made with NADI 10 per user for \d{4}-\d\d-\d\d to 2 listed users \([0-9a-f]{16}\); a re-run takes the same terms/)
    const forgot = await runCli(s, 'airdrop', 'launch', 'NADI', '10')
    expect(forgot.code).toBe(1)
    expect(forgot.err).toContain('to all users)')
    expect(await postings(s)).toBe(before)
    // An airdrop to all users credits every user but the platform's root, once.
    const everyone = await runCli(s, 'airdrop', 'launch-all', 'NADI', '1', '--users', 'all')
    expect(everyone, everyone.err).toMatchObject({ code: 0 })
    expect(await postings(s)).toBe(before + await s.count('SELECT count(*) FROM users WHERE is_root = 0'))
    expect(await s.count("SELECT count(*) FROM ledger_postings p JOIN users u ON u.id = p.user_id WHERE p.ref LIKE 'airdrop:launch-all:%' AND u.is_root = 1")).toBe(0)
    expect(await nadi(holder) - h0).toBe(units('22'))
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('a MEME airdrop credits MEME × the node multiplier to the fund account, shown in the wallet and the records; MEME never leaves it', async () => {
    const s = await start()
    const holder = await withCoreNode(s)
    const plain = await s.signIn()
    const meme = (u: SignedIn) => balance(s.ctx.sql, fund(u.userId), 'MEME')
    // The operator enters the hot wallet's MEME in the treasury; bad words change nothing.
    const supplied = await avail(s, TREASURY, 'MEME')
    const supply = await runCli(s, 'meme', 'supply', '5000', '--chain', 'bsc')
    expect(supply, supply.err).toMatchObject({ code: 0, out: `treasury: ${formatMoney(supplied + units('5000'))} MEME (+5000 from bsc)\n` })
    for (const [args, problem] of [
      [['0'], 'not a positive amount'],
      [['1', '--chain', 'eth'], '--chain takes bsc or nadi, not eth'],
      [[], 'usage: meme supply'],
    ] as const) {
      expect(await runCli(s, 'meme', 'supply', ...args)).toMatchObject({ code: 2, err: expect.stringContaining(problem) })
    }
    expect(await avail(s, TREASURY, 'MEME')).toBe(supplied + units('5000'))
    const treasury = await avail(s, TREASURY, 'MEME')
    const r = await runCli(s, 'airdrop', 'meme-1', 'MEME', '100', '--users', 'all', '--day', new Date(dayOf(s.clock.now()) * 86_400_000).toISOString().slice(0, 10))
    expect(r, r.err).toMatchObject({ code: 0 })
    expect(await meme(holder)).toEqual({ available: units('200'), frozen: 0n })
    expect(await meme(plain)).toEqual({ available: units('100'), frozen: 0n })
    expect(await avail(s, TREASURY, 'MEME')).toBe(treasury - units('100') * BigInt(await s.count('SELECT count(*) FROM users WHERE is_root = 0') + 1))

    const opts = { token: holder.token, lang: 'EN' }
    const wallet = (await s.get<Balances>('/api/v1/wallet/balances', opts)).body_.data
    expect(wallet.assets.map((a) => a.asset)).toEqual(['USDT', 'NADI', 'MEME'])
    expect(wallet.assets[2]).toEqual({ asset: 'MEME', fund: { available: '200', frozen: '0' }, trade: { available: '0', frozen: '0' } })
    const log = (await s.get<PagedList<MoneyRecord>>('/api/v1/wallet/moneyLog?type=airdrop', opts)).body_.data.list
    expect(log).toMatchObject([{ type: 'airdrop', asset: 'MEME', account: 'fund', amount: '200' }])

    // Not transferable to the trade account (no market there), not withdrawable (SPEC §5: only NADI),
    // not exchangeable, not depositable: each refused in the user's language, nothing moved.
    const before = await postings(s)
    const refused: [string, Promise<{ statusCode: number; body_: { msg: string } }>, string][] = [
      ['transfer', s.post('/api/v1/wallet/transfer', { asset: 'MEME', amount: '1', from: 'fund', to: 'trade' }, { ...opts, idempotencyKey: idemKey() }), msg('errors.transferAssetNotMovable', { asset: 'MEME' })],
      ['withdraw', s.post('/api/v1/withdraw/apply', { coin: 'MEME', chain: 'nadi', amount: '10', address: '0x00000000000000000000000000000000000000aa' }, { ...opts, idempotencyKey: idemKey() }), msg('errors.withdrawCoinUnsupported', { coin: 'NADI' })],
      ['exchange', s.get('/api/v1/wallet/exchangeQuote?from=MEME&to=USDT&amount=1', opts), msg('errors.exchangeAssetUnsupported', { asset: 'MEME' })],
      ['recharge', s.get('/api/v1/recharge/address?coin=MEME&chain=nadi', opts), msg('errors.selectCurrency')],
    ]
    for (const [what, res, message] of refused) {
      const { statusCode, body_ } = await res
      expect([what, statusCode, body_.msg]).toEqual([what, 400, message])
    }
    const zh = await s.post<unknown>('/api/v1/wallet/transfer', { asset: 'MEME', amount: '1', from: 'fund', to: 'trade' }, { token: holder.token, lang: 'ZH', idempotencyKey: idemKey() })
    expect(zh.body_.msg).toBe(translate('ZH', 'errors.transferAssetNotMovable', { asset: 'MEME' }))
    expect(await postings(s)).toBe(before)
    expect(await meme(holder)).toEqual({ available: units('200'), frozen: 0n })
    expect((await audit(s.ctx.sql)).violations).toEqual([])
  })

  it('refuses an unknown asset, bad words, unknown users and a short treasury, crediting no one', async () => {
    const s = await start()
    const me = await s.signIn()
    const before = await postings(s)
    const doge = await runCli(s, 'airdrop', 'doge-1', 'DOGE', '5')
    expect(doge.code).toBe(2)
    expect(doge.err).toContain('DOGE is not an asset of the ledger (USDT, NADI, MEME)')
    for (const args of [[], ['x', 'NADI'], ['bad id!', 'NADI', '1'], ['a', 'NADI', '0'], ['a', 'NADI', '1', '--day', '2026-02-30'], ['a', 'NADI', '1', '--users']]) {
      expect((await runCli(s, 'airdrop', ...args)).code, args.join(' ')).toBe(2)
    }
    const future = await runCli(s, 'airdrop', 'a', 'NADI', '1', '--day', new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10))
    expect(future.code).toBe(1)
    expect(future.err).toContain('has not come yet')
    const root = await s.count('SELECT id FROM users WHERE is_root = 1')
    fs.writeFileSync(path.join(s.dir, 'root.txt'), `${root}\n`)
    expect((await runCli(s, 'airdrop', 'a', 'NADI', '1', '--users', path.join(s.dir, 'root.txt'))).err).toContain("is the platform's root account")
    // Sent to the running server, relative files are the operator's, made absolute where the command was typed.
    expect(withAbsolutePaths(['airdrop', 'a', 'NADI', '1', '--users', 'list.txt', '--day', '2026-01-01'], '/ops')).toEqual(['airdrop', 'a', 'NADI', '1', '--users', '/ops/list.txt', '--day', '2026-01-01'])
    expect(withAbsolutePaths(['catalog', 'load', 'c/cat.json'], '/ops')).toEqual(['catalog', 'load', '/ops/c/cat.json'])
    expect(withAbsolutePaths(['airdrop', 'a', 'NADI', '1', '--users', 'all'], '/ops')).toEqual(['airdrop', 'a', 'NADI', '1', '--users', 'all'])
    const file = path.join(s.dir, 'u.txt')
    fs.writeFileSync(file, `${me.userId}\nnot-a-user\n`)
    expect((await runCli(s, 'airdrop', 'a', 'NADI', '1', '--users', file)).err).toContain('line 2: not-a-user')
    fs.writeFileSync(file, `${me.userId}\n999999\n`)
    const unknown = await runCli(s, 'airdrop', 'a', 'NADI', '1', '--users', file)
    expect(unknown.code).toBe(1)
    expect(unknown.err).toContain('no such user: user 999999')
    const short = await runCli(s, 'airdrop', 'a', 'NADI', '99999999', '--users', 'all')
    expect(short.code).toBe(1)
    expect(short.err).toMatch(/the treasury has [\d.]+ NADI, the airdrop needs/)
    expect(await postings(s)).toBe(before)
  })
})
