// The wallet over HTTP: balances, fund ↔ trade transfers, NADI ↔ USDT exchange and money records.
// Money gets into an account the way a deposit would (a posting from chain custody); every refused
// request is shown to move nothing, and the ledger audit passes at the end of every test.

import { afterEach, describe, expect, it } from 'vitest'
import { ROOT_CODE, idemKey, useServers, type Res, type SignedIn, type TestServer } from './support/server.ts'
import type { Balances, ExchangeQuote, ExchangeRecord, MoneyRecord, TransferRecord } from '../../contract/wallet.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { parseMoney } from '../../contract/money.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, custody, FEES, fund, TREASURY, trade, transfer, type AccountRef, type Asset } from '../../server/ledger/index.ts'
import { fundDemoTreasury } from '../../server/modules/wallet/service.ts'
import { quoteAmounts } from '../../server/modules/wallet/exchange.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()
const W = '/api/v1/wallet'

// Every server a test starts is audited when the test ends (before useServers closes it).
const live: TestServer[] = []
afterEach(async () => {
  for (const s of live.splice(0)) {
    const report = await audit(s.ctx.sql)
    expect(report.violations).toEqual([])
    expect(report.ok).toBe(true)
  }
})
async function boot(): Promise<TestServer> {
  const s = await start()
  live.push(s)
  return s
}

/** The English text of a message key, as the server renders it (the key itself until the locale has it). */
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
/** errors.invalidField for a field, with the field's label when the locale has one. */
function invalidField(field: string): string {
  const label = translate('EN', `fields.${field}`)
  return msg('errors.invalidField', { field: label.startsWith('fields.') ? field : label })
}

const units = (text: string) => parseMoney(text)!
let refs = 0
/** Money arriving in a user's fund account the way a deposit credits it. */
async function credit(s: TestServer, userId: number, asset: Asset, amount: string) {
  await transfer(s.ctx.sql, { ref: `test:credit:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: units(amount) })
}
const avail = async (s: TestServer, account: AccountRef, asset: Asset) => (await balance(s.ctx.sql, account, asset)).available

/** Every ledger balance and record count, to prove a refused request changed nothing. */
async function snapshot(s: TestServer) {
  const q = async (sql: string) => (await s.ctx.sql.all(statement<Record<string, unknown>>(sql))).map((r) => numbers(r))
  return {
    accounts: await q('SELECT id, user_id, kind, asset, available, frozen FROM ledger_accounts ORDER BY id'),
    postings: await q('SELECT COUNT(*) AS n FROM ledger_postings'),
    transfers: await q('SELECT COUNT(*) AS n FROM wallet_transfers'),
    exchanges: await q('SELECT COUNT(*) AS n FROM wallet_exchanges'),
    used: await q('SELECT id, used_at FROM exchange_quotes ORDER BY id'),
  }
}

function expectRefused(res: Res, status: number, message: string, label = '') {
  expect(res.statusCode, `${label} ${res.body}`).toBe(status)
  expect(res.body_, label).toEqual({ code: status, msg: message, data: null })
}

function as(s: TestServer, me: SignedIn) {
  const o = { token: me.token, lang: 'EN' }
  const withKey = (key?: string) => ({ ...o, ...(key ? { idempotencyKey: key } : {}) })
  return {
    balances: () => s.get<Balances>(`${W}/balances`, o),
    transfer: (body: unknown, key?: string) => s.post<TransferRecord>(`${W}/transfer`, body, withKey(key)),
    transferList: (qs = '') => s.get<PagedList<TransferRecord>>(`${W}/transferList${qs}`, o),
    moneyLog: (qs = '') => s.get<PagedList<MoneyRecord>>(`${W}/moneyLog${qs}`, o),
    quote: (qs: string) => s.get<ExchangeQuote>(`${W}/exchangeQuote${qs}`, o),
    exchange: (body: unknown, key?: string) => s.post<ExchangeRecord>(`${W}/exchange`, body, withKey(key)),
    exchangeList: () => s.get<PagedList<ExchangeRecord>>(`${W}/exchangeList`, o),
  }
}

describe('wallet balances', () => {
  it('shows a fund and a trade account for USDT, NADI and MEME, zero for a new user, and what a credit brought', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const zero = { available: '0', frozen: '0' }
    expect((await as(s, me).balances()).body_).toMatchObject({
      code: 200,
      data: { assets: [{ asset: 'USDT', fund: zero, trade: zero }, { asset: 'NADI', fund: zero, trade: zero }, { asset: 'MEME', fund: zero, trade: zero }] },
    })
    await credit(s, me.userId, 'USDT', '125.5')
    const res = await as(s, me).balances()
    expect(res.body_.data.assets[0]).toEqual({ asset: 'USDT', fund: { available: '125.5', frozen: '0' }, trade: zero })
    expect((await s.get(`${W}/balances`)).statusCode).toBe(401)
  })
})

describe('transfer between the fund and the trade account', () => {
  it('moves money both ways in one posting each, lists the transfers newest first and shows them as money records', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '100')

    const out = await api.transfer({ asset: 'USDT', amount: '30.25', from: 'fund', to: 'trade' })
    expect(out.statusCode, out.body).toBe(200)
    expect(out.body_.data).toMatchObject({ asset: 'USDT', amount: '30.25', from: 'fund', to: 'trade', created_at: s.clock.now() })
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('69.75'))
    expect(await avail(s, trade(me.userId), 'USDT')).toBe(units('30.25'))

    s.clock.advance(1000)
    const back = await api.transfer({ asset: 'USDT', amount: '0.00000001', from: 'trade', to: 'fund' })
    expect(back.statusCode, back.body).toBe(200)
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('69.75000001'))
    expect(await avail(s, trade(me.userId), 'USDT')).toBe(units('30.24999999'))
    // Everything it can, to the last unit.
    const all = await api.transfer({ asset: 'USDT', amount: '30.24999999', from: 'trade', to: 'fund' })
    expect(all.statusCode, all.body).toBe(200)
    expect(await avail(s, trade(me.userId), 'USDT')).toBe(0n)

    // Each transfer is one posting, ref transfer:<record id>.
    for (const id of [out.body_.data.id, back.body_.data.id]) {
      expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE ref = ? AND reason = 'transfer'", `transfer:${id}`)).toBe(1)
    }

    const list = await api.transferList()
    expect(list.body_.data.total).toBe(3)
    expect(list.body_.data.list.map((t) => [t.amount, t.from, t.to])).toEqual([
      ['30.24999999', 'trade', 'fund'],
      ['0.00000001', 'trade', 'fund'],
      ['30.25', 'fund', 'trade'],
    ])
    const page2 = await api.transferList('?page=2&page_size=2')
    expect(page2.body_.data).toMatchObject({ total: 3, list: [{ amount: '30.25' }] })

    const log = await api.moneyLog('?type=transfer&page_size=2')
    expect(log.body_.data.total).toBe(6)
    expect(log.body_.data.list.map((r) => [r.type, r.asset, r.account, r.amount])).toEqual([
      ['transfer', 'USDT', 'fund', '30.24999999'],
      ['transfer', 'USDT', 'trade', '-30.24999999'],
    ])

    // Another user sees none of it.
    const other = await s.signIn(ROOT_CODE)
    expect((await as(s, other).transferList()).body_.data).toEqual({ list: [], total: 0 })
    expect((await as(s, other).moneyLog()).body_.data).toEqual({ list: [], total: 0 })
  })

  it('refuses a missing, empty, zero, negative, over-precise, malformed or wrongly typed amount, the same account twice, an unknown asset or account, and more than available — each moving nothing', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '100')
    await credit(s, me.userId, 'NADI', '5')
    const ok = { asset: 'USDT', amount: '10', from: 'fund', to: 'trade' }
    const cases: [string, unknown, string][] = [
      ['no amount', { asset: 'USDT', from: 'fund', to: 'trade' }, msg('errors.amountRequired')],
      ['empty amount', { ...ok, amount: '' }, msg('errors.amountRequired')],
      ['blank amount', { ...ok, amount: '  ' }, msg('errors.amountRequired')],
      ['zero', { ...ok, amount: '0' }, msg('errors.amountZero')],
      ['zero with decimals', { ...ok, amount: '0.00000000' }, msg('errors.amountZero')],
      ['negative', { ...ok, amount: '-1' }, msg('errors.amountBelowZero')],
      ['negative fraction', { ...ok, amount: '-0.5' }, msg('errors.amountBelowZero')],
      ['negative number', { ...ok, amount: -5 }, msg('errors.amountBelowZero')],
      ['9 decimals', { ...ok, amount: '1.123456789' }, msg('errors.amountDecimals')],
      ['a number, not a string', { ...ok, amount: 10 }, msg('errors.amountInvalid')],
      ['letters', { ...ok, amount: 'ten' }, msg('errors.amountInvalid')],
      ['exponent', { ...ok, amount: '1e3' }, msg('errors.amountInvalid')],
      ['leading zero', { ...ok, amount: '010' }, msg('errors.amountInvalid')],
      ['above available', { ...ok, amount: '100.00000001' }, msg('errors.amountAboveAvailable', { available: '100', asset: 'USDT' })],
      ['the largest amount the format allows, past what the ledger holds', { ...ok, amount: '99999999999999999999.99999999' }, msg('errors.amountInvalid')],
      ['above available in trade', { ...ok, from: 'trade', to: 'fund' }, msg('errors.amountAboveAvailable', { available: '0', asset: 'USDT' })],
      ['above available NADI', { ...ok, asset: 'NADI' }, msg('errors.amountAboveAvailable', { available: '5', asset: 'NADI' })],
      ['same account', { ...ok, to: 'fund' }, msg('errors.transferSameAccount')],
      ['same trade account', { ...ok, from: 'trade', to: 'trade' }, msg('errors.transferSameAccount')],
      ['unknown asset', { ...ok, asset: 'BTC' }, invalidField('asset')],
      ['asset as a number', { ...ok, asset: 1 }, invalidField('asset')],
      ['unknown account', { ...ok, from: 'savings' }, invalidField('from')],
      ['no destination', { asset: 'USDT', amount: '1', from: 'fund' }, invalidField('to')],
    ]
    const before = await snapshot(s)
    for (const [label, body, message] of cases) {
      expectRefused(await api.transfer(body, idemKey()), 400, message, label)
    }
    expectRefused(await api.transfer([ok]), 400, msg('errors.amountRequired'), 'an array body')
    expect(await snapshot(s)).toEqual(before)
    expect((await s.post(`${W}/transfer`, ok)).statusCode).toBe(401)
    expect(await snapshot(s)).toEqual(before)
    // And the valid one goes through.
    expect((await api.transfer(ok)).statusCode).toBe(200)
  })

  it('a replayed Idempotency-Key applies the transfer once and answers the first response again', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'NADI', '10')
    const key = idemKey()
    const body = { asset: 'NADI', amount: '4', from: 'fund', to: 'trade' }
    const first = await api.transfer(body, key)
    const again = await api.transfer(body, key)
    expect(first.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toBe(first.body)
    expect(await avail(s, fund(me.userId), 'NADI')).toBe(units('6'))
    expect(await avail(s, trade(me.userId), 'NADI')).toBe(units('4'))
    expect(await s.count('SELECT COUNT(*) FROM wallet_transfers')).toBe(1)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'transfer'")).toBe(1)

    // The same key for a different transfer is refused and moves nothing.
    const before = await snapshot(s)
    expectRefused(await api.transfer({ ...body, amount: '5' }, key), 400, msg('errors.idempotencyKeyReused'))
    expect(await snapshot(s)).toEqual(before)
    // A refused transfer's key is kept too: retrying it is refused again, not applied.
    const refusedKey = idemKey()
    expectRefused(await api.transfer({ ...body, amount: '7' }, refusedKey), 400, msg('errors.amountAboveAvailable', { available: '6', asset: 'NADI' }))
    await credit(s, me.userId, 'NADI', '10')
    expectRefused(await api.transfer({ ...body, amount: '7' }, refusedKey), 400, msg('errors.amountAboveAvailable', { available: '6', asset: 'NADI' }))
    expect(await avail(s, trade(me.userId), 'NADI')).toBe(units('4'))
  })
})

describe('exchange NADI ↔ USDT', () => {
  it('the demo treasury is funded from chain custody once, however often the server starts', async () => {
    const s = await boot()
    const float = units('1000000')
    expect(await avail(s, TREASURY, 'USDT')).toBe(float)
    expect(await avail(s, TREASURY, 'NADI')).toBe(float)
    expect(await avail(s, TREASURY, 'MEME')).toBe(float)
    await fundDemoTreasury(s.ctx)
    expect(await avail(s, TREASURY, 'USDT')).toBe(float)
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'treasury_fund'")).toBe(3)
  })

  it('quotes at the reference price with the fee, and a confirmed quote moves user → treasury → user and the fee to FEES in one posting', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '1000')
    const treasuryUsdt = await avail(s, TREASURY, 'USDT')
    const treasuryNadi = await avail(s, TREASURY, 'NADI')

    const q = await api.quote('?from=USDT&to=NADI&amount=100')
    expect(q.statusCode, q.body).toBe(200)
    // 100 USDT at 0.25 USDT per NADI is 400 NADI; the 0.2% fee is 0.8 NADI.
    expect(q.body_.data).toMatchObject({ from: 'USDT', to: 'NADI', amount: '100', price: '0.25', receive: '399.2', fee: '0.8', fee_asset: 'NADI', expires_at: s.clock.now() + 30_000 })
    expect(q.body_.data.quote_id).toMatch(/^[A-Za-z0-9_-]{24}$/)
    // A quote moves nothing.
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('1000'))

    s.clock.advance(29_999)
    const ex = await api.exchange({ quote_id: q.body_.data.quote_id }, idemKey())
    expect(ex.statusCode, ex.body).toBe(200)
    expect(ex.body_.data).toMatchObject({ from: 'USDT', to: 'NADI', amount: '100', receive: '399.2', price: '0.25', fee: '0.8', created_at: s.clock.now() })
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('900'))
    expect(await avail(s, fund(me.userId), 'NADI')).toBe(units('399.2'))
    expect(await avail(s, TREASURY, 'USDT')).toBe(treasuryUsdt + units('100'))
    expect(await avail(s, TREASURY, 'NADI')).toBe(treasuryNadi - units('400'))
    expect(await avail(s, FEES, 'NADI')).toBe(units('0.8'))
    expect(await s.count("SELECT COUNT(*) FROM ledger_postings WHERE reason = 'exchange' AND ref = ?", `exchange:${ex.body_.data.id}`)).toBe(1)

    // The other way, with an amount that does not divide: the user's share is floored once.
    const back = await api.quote('?from=NADI&to=USDT&amount=1.23456789')
    // 1.23456789 × 0.25 = 0.3086419725 → the treasury pays 0.30864197; × 0.998 = 0.308024688555 → 0.30802468.
    expect(back.body_.data).toMatchObject({ receive: '0.30802468', fee: '0.00061729', price: '0.25' })
    expect((await api.exchange({ quote_id: back.body_.data.quote_id })).statusCode).toBe(200)
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('900.30802468'))
    expect(await avail(s, FEES, 'USDT')).toBe(units('0.00061729'))

    const log = await api.moneyLog('?type=exchange')
    expect(log.body_.data.list.map((r) => [r.asset, r.account, r.amount])).toEqual([
      ['USDT', 'fund', '0.30802468'],
      ['NADI', 'fund', '-1.23456789'],
      ['NADI', 'fund', '399.2'],
      ['USDT', 'fund', '-100'],
    ])
    expect((await api.exchangeList()).body_.data.total).toBe(2)
  })

  it('rounds in the platform’s favour by less than 1e-8, never for the user', () => {
    for (const [from, to] of [['USDT', 'NADI'], ['NADI', 'USDT']] as const) {
      for (const price of [1n, 7n, 25_000_000n, 33_333_333n, 123_456_789_012n]) {
        for (const amount of [1n, 3n, 99_999_999n, 123_456_789n, 10n ** 15n + 7n]) {
          for (const bps of [0, 1, 20, 9999]) {
            const { gross, receive, fee } = quoteAmounts(from, to, amount, price, bps)
            // exact receive = amount × rate × (1 − bps/10⁴) = n / d
            const [n, d] = from === 'NADI' ? [amount * price * BigInt(10_000 - bps), 10n ** 8n * 10_000n] : [amount * 10n ** 8n * BigInt(10_000 - bps), price * 10_000n]
            expect(receive * d <= n).toBe(true) // never more than the exact value
            expect(n - receive * d < d).toBe(true) // short by under one unit
            expect(fee).toBeGreaterThanOrEqual(0n)
            expect(gross).toBe(receive + fee)
          }
        }
      }
    }
  })

  it('refuses an expired quote, a used one, another user’s, an unknown one and a malformed id — each moving nothing', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const other = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'NADI', '1000')
    await credit(s, other.userId, 'NADI', '1000')

    // Expired: 30 s after it was given, it cannot be confirmed.
    const old = (await api.quote('?from=NADI&to=USDT&amount=10')).body_.data
    s.clock.advance(30_000)
    let before = await snapshot(s)
    expectRefused(await api.exchange({ quote_id: old.quote_id }, idemKey()), 409, msg('errors.quoteExpired'))
    expect(await snapshot(s)).toEqual(before)

    // Used: confirmed once, then refused (a retry with the first key replays the first answer).
    const q = (await api.quote('?from=NADI&to=USDT&amount=10')).body_.data
    const key = idemKey()
    const first = await api.exchange({ quote_id: q.quote_id }, key)
    expect(first.statusCode).toBe(200)
    expect((await api.exchange({ quote_id: q.quote_id }, key)).body).toBe(first.body)
    before = await snapshot(s)
    expectRefused(await api.exchange({ quote_id: q.quote_id }, idemKey()), 409, msg('errors.quoteUsed'))
    expectRefused(await api.exchange({ quote_id: q.quote_id }), 409, msg('errors.quoteUsed'))
    expect(await snapshot(s)).toEqual(before)
    expect(await avail(s, fund(me.userId), 'NADI')).toBe(units('990'))

    // Another user's quote is answered like a missing one, and stays usable by its owner.
    const mine = (await api.quote('?from=NADI&to=USDT&amount=1')).body_.data
    before = await snapshot(s)
    expectRefused(await as(s, other).exchange({ quote_id: mine.quote_id }, idemKey()), 404, msg('errors.quoteNotFound'))
    expectRefused(await api.exchange({ quote_id: 'AAAAAAAAAAAAAAAAAAAAAAAA' }), 404, msg('errors.quoteNotFound'))
    expectRefused(await api.exchange({ quote_id: 'short' }), 400, invalidField('quote_id'))
    expectRefused(await api.exchange({ quote_id: 12345678 }), 400, invalidField('quote_id'))
    expectRefused(await api.exchange({}), 400, invalidField('quote_id'))
    expect(await snapshot(s)).toEqual(before)
    expect(await avail(s, fund(other.userId), 'NADI')).toBe(units('1000'))
    expect((await api.exchange({ quote_id: mine.quote_id })).statusCode).toBe(200)
  })

  it('refuses a quote for the same asset, a bad amount or more than available, moving nothing and storing no quote', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '50')
    const before = await snapshot(s)
    const cases: [string, string, string][] = [
      ['same asset', '?from=USDT&to=USDT&amount=1', msg('errors.exchangeSameAsset')],
      ['no amount', '?from=USDT&to=NADI', msg('errors.amountRequired')],
      ['empty amount', '?from=USDT&to=NADI&amount=', msg('errors.amountRequired')],
      ['zero', '?from=USDT&to=NADI&amount=0', msg('errors.amountZero')],
      ['negative', '?from=USDT&to=NADI&amount=-3', msg('errors.amountBelowZero')],
      ['9 decimals', '?from=USDT&to=NADI&amount=0.000000001', msg('errors.amountDecimals')],
      ['letters', '?from=USDT&to=NADI&amount=abc', msg('errors.amountInvalid')],
      ['above available', '?from=USDT&to=NADI&amount=50.1', msg('errors.amountAboveAvailable', { available: '50', asset: 'USDT' })],
      ['nothing to receive', '?from=NADI&to=USDT&amount=0.00000003', msg('errors.exchangeAmountTooSmall')],
      ['unknown asset', '?from=BTC&to=NADI&amount=1', invalidField('from')],
      ['no target', '?from=USDT&amount=1', invalidField('to')],
    ]
    for (const [label, qs, message] of cases) expectRefused(await api.quote(qs), 400, message, label)
    expect(await snapshot(s)).toEqual(before)
    expect(await s.count('SELECT COUNT(*) FROM exchange_quotes')).toBe(0)
  })

  it('an exchange the treasury cannot cover is refused with a clear message, at the quote or at the confirmation', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '1000')
    // An operator moves the treasury's NADI out, leaving 100.
    const drain = async (ref: string, leave: string) =>
      await transfer(s.ctx.sql, { ref, reason: 'treasury.adjust', userId: null, from: TREASURY, to: FEES, asset: 'NADI', amount: await avail(s, TREASURY, 'NADI') - units(leave) })
    await drain('test:drain:1', '100')
    const short = msg('errors.exchangeTreasuryShort', { asset: 'NADI' })

    // 30 USDT would take 120 NADI out of the treasury.
    expectRefused(await api.quote('?from=USDT&to=NADI&amount=30'), 409, short)
    // 20 USDT → 80 NADI fits; then the treasury drops to 50 before the user confirms.
    const q = await api.quote('?from=USDT&to=NADI&amount=20')
    expect(q.statusCode, q.body).toBe(200)
    await drain('test:drain:2', '50')
    const before = await snapshot(s)
    expectRefused(await api.exchange({ quote_id: q.body_.data.quote_id }, idemKey()), 409, short)
    expect(await snapshot(s)).toEqual(before)
    expect(await avail(s, TREASURY, 'NADI')).toBe(units('50'))
    expect(await avail(s, fund(me.userId), 'USDT')).toBe(units('1000'))
    // The failed confirmation did not use the quote up.
    expect(await s.count('SELECT COUNT(*) FROM exchange_quotes WHERE used_at IS NULL')).toBe(1)
  })

  it('a user who spent the money between quote and confirmation is refused with the available amount', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'NADI', '10')
    const q = (await api.quote('?from=NADI&to=USDT&amount=10')).body_.data
    expect((await api.transfer({ asset: 'NADI', amount: '4', from: 'fund', to: 'trade' })).statusCode).toBe(200)
    const before = await snapshot(s)
    expectRefused(await api.exchange({ quote_id: q.quote_id }), 400, msg('errors.amountAboveAvailable', { available: '6', asset: 'NADI' }))
    expect(await snapshot(s)).toEqual(before)
  })
})

describe('money records', () => {
  it('lists every change to the available balance newest first, by type, paged', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    const api = as(s, me)
    await credit(s, me.userId, 'USDT', '40')
    s.clock.advance(1000)
    expect((await api.transfer({ asset: 'USDT', amount: '15', from: 'fund', to: 'trade' })).statusCode).toBe(200)
    const q = (await api.quote('?from=USDT&to=NADI&amount=1')).body_.data
    expect((await api.exchange({ quote_id: q.quote_id })).statusCode).toBe(200)

    const all = await api.moneyLog()
    expect(all.body_.data.total).toBe(5)
    expect(all.body_.data.list.map((r) => [r.type, r.asset, r.account, r.amount])).toEqual([
      ['exchange', 'NADI', 'fund', '3.992'],
      ['exchange', 'USDT', 'fund', '-1'],
      ['transfer', 'USDT', 'trade', '15'],
      ['transfer', 'USDT', 'fund', '-15'],
      ['deposit', 'USDT', 'fund', '40'],
    ])
    expect(all.body_.data.list[4]).toMatchObject({ created_at: expect.any(Number), id: expect.any(Number) })
    expect((await api.moneyLog('?type=deposit')).body_.data).toMatchObject({ total: 1, list: [{ amount: '40' }] })
    expect((await api.moneyLog('?page=3&page_size=2')).body_.data).toMatchObject({ total: 5, list: [{ type: 'deposit' }] })
    expect((await api.moneyLog('?type=nothing')).body_.data).toEqual({ list: [], total: 0 })
    expectRefused(await api.moneyLog('?type=Bad-Type'), 400, invalidField('type'))
  })
})
