// Savings (pledge) over HTTP (issue 11 part 5): the demo products, every refusal changing nothing, a
// daily pledge paid each settled day from the savings account and its principal released at the end
// (redeemed), a monthly one paid every 30 days, the capacity never exceeded under concurrent pledges,
// another user's pledge answered as unknown. The ledger audit and the settlement's own audit pass
// after each test.

import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { MyPledge, PledgeIncome, PledgeProduct, PledgeReleaseLog } from '../../contract/pledge.ts'
import { main as cli } from '../../server/cli.ts'
import { translate } from '../../server/i18n.ts'
import { SAVINGS, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { auditSettlement, settleDue } from '../../server/modules/settlement/service.ts'
import { checkPledgeFile, loadPledgeProducts, PledgeFileInvalid } from '../../server/modules/pledge/productFile.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } }, { audited: true, checks: [auditSettlement] })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
let refs = 0
const credit = (s: TestServer, userId: number, amount: string) =>
  transfer(s.ctx.sql, { ref: `test:pledge:${++refs}`, reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: units(amount) })
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const get = <T>(s: TestServer, who: SignedIn, path: string) => s.get<T>(`${API}/${path}`, { token: who.token, lang: 'EN' })
const post = <T>(s: TestServer, who: SignedIn, body: unknown) => s.post<T>(`${API}/pledge/pledge`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
/**
 * The user's fund NADI, less what other positions (a newcomer's trial power…) paid them, so the
 * figures are the pledge's own.
 */
const nadi = async (s: TestServer, userId: number) => {
  const b = await balance(s.ctx.sql, fund(userId), 'NADI')
  const other = BigInt(await s.count("SELECT coalesce(sum(l.amount), 0) FROM settlement_lines l JOIN positions p ON p.id = l.position_id WHERE p.user_id = ? AND p.kind <> 'pledge'", userId))
  return { available: b.available - other, frozen: b.frozen }
}
const bySlug = (s: TestServer, slug: string) => s.count('SELECT id FROM pledge_products WHERE slug = ?', slug)
const load = (s: TestServer, products: unknown[]) => s.ctx.sql.transaction((tx) => loadPledgeProducts(tx, checkPledgeFile({ products }), s.clock.now()))
const names = (en: string) => Object.fromEntries(['TW', 'EN', 'ZH', 'JP', 'KO', 'TH', 'PT', 'ID', 'VN', 'MS'].map((l) => [l, en]))

/** Moves the clock to `days` after the pledge was made (T0) and runs the settlement. */
async function dayAfter(s: TestServer, t0: number, days: number) {
  s.clock.set(t0 + days * DAY)
  return settleDue(s.ctx)
}

describe('products', () => {
  it('the demo offers 30, 90 and 180 days with both modes, named in the request language, with what is left', async () => {
    const s = await start()
    const u = await s.signIn()
    const list = (await get<PledgeProduct[]>(s, u, 'pledge/list')).body_.data
    expect(list.map((p) => p.day)).toEqual([30, 90, 180])
    expect(list[0]).toMatchObject({ name: '30-day savings', min_pledge: '100', day_rate: '0.1', month_rate: '3.2', left: '1000000', pledged: '0', day_periods: 30, month_periods: 1 })
    const tw = (await s.get<PledgeProduct[]>(`${API}/pledge/list`, { token: u.token, lang: 'TW' })).body_.data
    expect(tw[0]!.name).toBe('30 天定存')
    const d = await get<PledgeProduct>(s, u, `pledge/detail?id=${list[1]!.id}`)
    expect(d.body_.data).toMatchObject({ day: 90, month_periods: 3 })
    expect((await get(s, u, 'pledge/detail?id=999999')).statusCode).toBe(404)
    expect((await get(s, u, 'pledge/detail?id=abc')).statusCode).toBe(400)
    expect((await s.get(`${API}/pledge/list`)).statusCode).toBe(401)
  })

  it('the product file: rates and capacity checked, a capacity below what is pledged refused', async () => {
    const s = await start()
    const u = await s.signIn()
    await credit(s, u.userId, '1000')
    expect(() => checkPledgeFile({ products: [{ slug: 'x', name: names('x'), day: 10, min_pledge: '1', day_rate: '0', month_rate: '5', total_pledge: '100' }] })).toThrow(PledgeFileInvalid)
    expect(() => checkPledgeFile({ products: [{ slug: 'x', name: names('x'), day: 10, min_pledge: '100', day_rate: '1', month_rate: '0', total_pledge: '10' }] })).toThrow(/below min_pledge/)
    expect(() => checkPledgeFile({ products: [{ slug: 'x', name: names('x'), day: 10, min_pledge: '1', day_rate: '1', month_rate: '0', total_pledge: '99999999999' }] })).toThrow(/at most/)
    expect(await post(s, u, { product_id: await bySlug(s, 'savings-30'), amount: '300', mode: 'day' })).toMatchObject({ statusCode: 200 })
    const edited = { slug: 'savings-30', name: names('Thirty'), day: 30, min_pledge: '100', day_rate: '0.1', month_rate: '3.2', total_pledge: '200' }
    await expect(load(s, [edited])).rejects.toThrow(/below what is pledged/)
    expect(await load(s, [{ ...edited, total_pledge: '5000' }])).toEqual({ added: 0, updated: 1 })
    const p = (await get<PledgeProduct>(s, u, `pledge/detail?id=${await bySlug(s, 'savings-30')}`)).body_.data
    expect(p).toMatchObject({ name: 'Thirty', total_pledge: '5000', pledged: '300', left: '4700' })
  })
})

describe('the operator', () => {
  it("'pledge load' adds and updates products by slug beside the running server, refuses a bad file without writing; 'pledge list' shows them", async () => {
    const s = await start()
    const run = async (...argv: string[]) => {
      let out = ''
      let err = ''
      const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
      return { code, out, err }
    }
    const file = (body: unknown) => {
      const f = path.join(s.dir, `pledge-${Math.random().toString(36).slice(2)}.json`)
      fs.writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body))
      return f
    }
    const entry = { slug: 'op-60', name: names('Sixty'), day: 60, min_pledge: '50', day_rate: '0.12', month_rate: '4', total_pledge: '10000' }
    expect(await run('pledge', 'load', file({ products: [entry] }))).toMatchObject({ code: 0, out: 'pledge products loaded: 1 added, 0 updated\n' })
    expect(await run('pledge', 'load', file({ products: [{ ...entry, day_rate: '0.2' }] }))).toMatchObject({ code: 0, out: 'pledge products loaded: 0 added, 1 updated\n' })
    expect(await s.count("SELECT day_rate_ppm FROM pledge_products WHERE slug = 'op-60'")).toBe(2000)
    const count = await s.count('SELECT count(*) FROM pledge_products')
    for (const bad of ['{', { products: [{ ...entry, slug: 'op-bad', day_rate: '101' }] }, { products: [{ ...entry, extra: 1 }] }, { products: [entry, entry] }]) {
      const r = await run('pledge', 'load', file(bad))
      expect(r.code).toBe(1)
      expect(r.err).toMatch(/pledge load: /)
    }
    expect(await s.count('SELECT count(*) FROM pledge_products')).toBe(count)
    const list = await run('pledge', 'list')
    expect(list.code).toBe(0)
    expect(list.out).toMatch(/op-60 60 days min 50 day 2000 ppm month 40000 ppm pledged 0\/10000/)
  })
})

describe('refusals', () => {
  it('below the minimum, above the balance, too many decimals, an unoffered mode, beyond capacity, unknown or malformed: each changes nothing', async () => {
    const s = await start()
    const u = await s.signIn()
    await credit(s, u.userId, '150')
    await load(s, [{ slug: 'short', name: names('Short'), day: 7, min_pledge: '10', day_rate: '0.1', month_rate: '3', total_pledge: '50' }])
    const id30 = await bySlug(s, 'savings-30')
    const before = async () => ({ bal: await nadi(s, u.userId), pledges: await s.count('SELECT count(*) FROM pledges'), positions: await s.count("SELECT count(*) FROM positions WHERE kind = 'pledge'"), pledged: await s.count('SELECT sum(pledged) FROM pledge_products') })
    const was = await before()
    const cases: [unknown, number, string | null][] = [
      [{ product_id: id30, amount: '99.99999999', mode: 'day' }, 400, msg('errors.pledgeBelowMin', { amount: '100' })],
      [{ product_id: id30, amount: '150.00000001', mode: 'day' }, 400, msg('errors.paymentInsufficient', { asset: 'NADI', current: '150', required: '150.00000001' })],
      [{ product_id: id30, amount: '100.000000001', mode: 'day' }, 400, null],
      [{ product_id: id30, amount: '0', mode: 'day' }, 400, msg('errors.amountZero')],
      [{ product_id: await bySlug(s, 'short'), amount: '20', mode: 'month' }, 400, msg('errors.pledgeModeUnavailable')],
      [{ product_id: await bySlug(s, 'short'), amount: '60', mode: 'day' }, 409, msg('errors.pledgeCapacity', { left: '50' })],
      [{ product_id: 999999, amount: '100', mode: 'day' }, 404, msg('errors.pledgeProductNotFound')],
      [{ product_id: id30, amount: '100', mode: 'week' }, 400, msg('errors.invalidField', { field: msg('fields.mode') })],
      [{ product_id: 0, amount: '100', mode: 'day' }, 400, msg('errors.invalidField', { field: msg('fields.product_id') })],
      [{ product_id: id30, amount: '100', mode: 'day', extra: 1 }, 400, null],
      [{ product_id: id30, amount: '-100', mode: 'day' }, 400, null],
    ]
    for (const [body, status, text] of cases) {
      const r = await post(s, u, body)
      expect(r.statusCode, JSON.stringify(body)).toBe(status)
      if (text) expect(r.body_.msg).toBe(text)
      expect(await before()).toEqual(was)
    }
  })

  it("another user's pledge is answered like an unknown one", async () => {
    const s = await start()
    const a = await s.signIn()
    const b = await s.signIn()
    await credit(s, a.userId, '200')
    const mine = (await post<MyPledge>(s, a, { product_id: await bySlug(s, 'savings-30'), amount: '100', mode: 'day' })).body_.data
    expect((await get(s, a, `pledge/releaseLog?id=${mine.id}`)).statusCode).toBe(200)
    const theirs = await get(s, b, `pledge/releaseLog?id=${mine.id}`)
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body_.msg).toBe(msg('errors.pledgeNotFound'))
    expect((await get<PagedList<MyPledge>>(s, b, 'pledge/myList')).body_.data.total).toBe(0)
  })
})

describe('interest and release', () => {
  it('a daily pledge freezes the principal, earns each settled day from the savings account, and is redeemed at the end', async () => {
    const s = await start()
    const u = await s.signIn()
    await credit(s, u.userId, '1000')
    const t0 = s.clock.now()
    const savings0 = (await balance(s.ctx.sql, SAVINGS, 'NADI')).available
    const r = await post<MyPledge>(s, u, { product_id: await bySlug(s, 'savings-30'), amount: '500', mode: 'day' })
    expect(r.statusCode).toBe(200)
    const g = r.body_.data
    expect(g).toMatchObject({ amount: '500', rate: '0.1', status: 'waiting', remaining_days: 30, income: '0', expected_income: '15', release_amount: '500', release_rate: '0' })
    expect(g.start_date).toBe((dayOf(t0) + 1) * DAY)
    expect(g.end_date).toBe((dayOf(t0) + 30) * DAY)
    expect(g.release_time).toBe((dayOf(t0) + 31) * DAY)
    expect(await nadi(s, u.userId)).toEqual({ available: units('500'), frozen: units('500') })
    expect((await get<PledgeProduct>(s, u, `pledge/detail?id=${await bySlug(s, 'savings-30')}`)).body_.data.left).toBe('999500')

    await dayAfter(s, t0, 1) // the pledge day itself earns nothing: the term starts tomorrow
    expect((await nadi(s, u.userId)).available).toBe(units('500'))
    await dayAfter(s, t0, 2)
    expect((await nadi(s, u.userId)).available).toBe(units('500.5'))
    const income = (await get<PagedList<PledgeIncome>>(s, u, 'pledge/incomeLog')).body_.data
    expect(income).toMatchObject({ total: 1, list: [{ pledge_id: g.id, amount: '0.5', day: (dayOf(t0) + 1) * DAY, name: '30-day savings' }] })
    const mid = (await get<PagedList<MyPledge>>(s, u, 'pledge/myList')).body_.data.list[0]!
    expect(mid).toMatchObject({ income: '0.5', remaining_days: 29, status: 'waiting' })

    await dayAfter(s, t0, 30) // 29 days paid; the last day is not over yet
    expect(await nadi(s, u.userId)).toEqual({ available: units('514.5'), frozen: units('500') })
    await dayAfter(s, t0, 31)
    expect(await nadi(s, u.userId)).toEqual({ available: units('1015'), frozen: 0n })
    expect((await balance(s.ctx.sql, SAVINGS, 'NADI')).available).toBe(savings0 - units('15'))
    const log = (await get<PledgeReleaseLog>(s, u, `pledge/releaseLog?id=${g.id}`)).body_.data
    expect(log.pledge).toMatchObject({ status: 'redeemed', income: '15', release_rate: '100', remaining_days: 0 })
    expect(log.releases).toEqual([{ amount: '500', at: t0 + 31 * DAY, day: (dayOf(t0) + 30) * DAY }])
    expect(log.income).toHaveLength(30)
    expect((await get<PledgeProduct>(s, u, `pledge/detail?id=${await bySlug(s, 'savings-30')}`)).body_.data.pledged).toBe('0')
    // Later days pay and release nothing more.
    await dayAfter(s, t0, 40)
    expect(await nadi(s, u.userId)).toEqual({ available: units('1015'), frozen: 0n })
  })

  it('a monthly pledge pays every 30 days at the month rate, caught up after days missed', async () => {
    const s = await start()
    const u = await s.signIn()
    await credit(s, u.userId, '1000')
    const t0 = s.clock.now()
    const g = (await post<MyPledge>(s, u, { product_id: await bySlug(s, 'savings-90'), amount: '1000', mode: 'month' })).body_.data
    expect(g).toMatchObject({ rate: '4.8', expected_income: '144' })
    expect(await nadi(s, u.userId)).toEqual({ available: 0n, frozen: units('1000') })
    await dayAfter(s, t0, 30)
    expect((await nadi(s, u.userId)).available).toBe(0n) // the 30th day of the term is not over yet
    await dayAfter(s, t0, 31)
    expect((await nadi(s, u.userId)).available).toBe(units('48'))
    await dayAfter(s, t0, 75) // downtime: the days are caught up in order
    expect((await nadi(s, u.userId)).available).toBe(units('96'))
    await dayAfter(s, t0, 91)
    expect(await nadi(s, u.userId)).toEqual({ available: units('1144'), frozen: 0n })
    const income = (await get<PagedList<PledgeIncome>>(s, u, 'pledge/incomeLog')).body_.data
    expect(income.list.map((l) => l.amount)).toEqual(['48', '48', '48'])
    expect((await get<PagedList<MyPledge>>(s, u, 'pledge/myList')).body_.data.list[0]).toMatchObject({ status: 'redeemed', income: '144' })
  })
})

describe('capacity', () => {
  it('concurrent pledges never take more than the capacity: exactly the ones that fit succeed', async () => {
    const s = await start()
    await load(s, [{ slug: 'tiny', name: names('Tiny'), day: 30, min_pledge: '100', day_rate: '0.1', month_rate: '3', total_pledge: '1000' }])
    const id = await bySlug(s, 'tiny')
    const users = await Promise.all(Array.from({ length: 16 }, () => s.signIn()))
    for (const u of users) await credit(s, u.userId, '300')
    const answers = await Promise.all(users.map((u) => post(s, u, { product_id: id, amount: '100', mode: 'day' })))
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(10)
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(6)
    expect(await s.count('SELECT pledged FROM pledge_products WHERE id = ?', id)).toBe(Number(units('1000')))
    expect(await s.count('SELECT sum(amount) FROM pledges WHERE product_id = ?', id)).toBe(Number(units('1000')))
    const refused = users.filter((_, i) => answers[i]!.statusCode === 409)
    for (const u of refused) expect(await nadi(s, u.userId)).toEqual({ available: units('300'), frozen: 0n })
  })
})
