// The ranking in real Chromium (issue 12 part 3; SPEC §1 daily and total prize pools): two newcomers,
// the second invited by the first, and a third invited by the second. The first two watch /ranking;
// the third buys a device and pays it from balance; without a reload, both see their rank and the
// day's ranking move (the socket's ranking stream), and their team performance shows on /user. A test
// clock closes the day: the settlement feeds the daily pool from the day's fees and pays the top
// ranks, and the winners' prizes appear in their money logs with their localized name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { GoodsDetail } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import type { Address } from '../../contract/address.ts'
import { balance, custody, FEES, fund, transfer } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { shows, signInThroughInvite, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // The stream looks for changes every 200 ms, so the test waits little.
  app = await startApp({ NADI_RANKING_PUSH_MS: '200' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const DAY = 86_400_000
const UNIT = 100_000_000n
const seen = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true })

interface Member {
  context: BrowserContext
  page: Page
  errors: string[]
  userId: number
  code: string
  token: string
}

async function join(inviteCode: string): Promise<Member> {
  const context = await phone(browser)
  const page = await context.newPage()
  const errors = watchErrors(page)
  await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
  const w = await signInThroughInvite(context, page, app.url, inviteCode)
  const row = (await app.ctx.sql.get(statement<{ id: bigint; code: string }>('SELECT id, code FROM users WHERE wallet_address = ?'), w.address.toLowerCase()))!
  const token = (JSON.parse((await page.evaluate(() => sessionStorage.getItem('token'))) ?? '{}') as { value: string }).value
  return { context, page, errors, userId: Number(row.id), code: row.code, token }
}

async function api<T>(who: Member, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${app.url}/api/v1/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${who.token}`, LANG: 'TW', ...(body === undefined ? {} : { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID() }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const env = (await r.json()) as ApiEnvelope<T>
  expect(env.code).toBe(200)
  return env.data
}

describe('the ranking in real Chromium', () => {
  const members: Member[] = []

  afterAll(async () => {
    for (const m of members) await m.context.close()
  })

  it('a purchase three levels down moves both ancestors’ rank live; closing the day pays them, shown in their money logs', async () => {
    const a = await join(ROOT_CODE)
    const b = await join(a.code)
    const c = await join(b.code)
    members.push(a, b, c)

    // The first two open the ranking from home; nobody has ranked yet.
    for (const m of [a, b]) {
      await m.page.goto(`${app.url}/index`)
      await seen(m.page, 'shortcut-ranking').click()
      await m.page.waitForURL(/\/ranking$/)
      await shows(seen(m.page, 'my-rank-no')).toBe(text('tw', 'ranking.notRanked'))
      await shows(seen(m.page, 'pool-daily')).toContain(text('tw', 'ranking.pool.daily'))
    }

    // The third buys a device and pays it from balance.
    await transfer(app.ctx.sql, { ref: 'e2e:ranking:usdt', reason: 'deposit', from: custody('bsc'), to: fund(c.userId), asset: 'USDT', amount: 10_000n * UNIT })
    const address = await api<Address>(c, 'address/addAddress', { name: '陳小明', phone: '0912345678', area: '臺北市信義區', address: '松仁路 100 號', is_default: true })
    const device = (await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM products WHERE area = 'machine' ORDER BY sort, id LIMIT 1")))!
    const spec = (await api<GoodsDetail>(c, `machine/goodsDetail?id=${device.id}`)).specs[0]!
    const { order } = await api<PreOrderResult>(c, 'preOrder/preOrder', { area: 'machine', goods_id: Number(device.id), spec_id: spec.id, quantity: 1, address_id: address.id })
    await api(c, 'orders/payByBalance', { id: order.id })
    const price = spec.price

    // Live, no reload: A is first (same amount, reached in the same payment, the lower id), B second.
    await shows(seen(a.page, 'my-rank-no')).toBe('#1')
    await shows(seen(b.page, 'my-rank-no')).toBe('#2')
    await shows(seen(a.page, 'my-rank-amount')).toContain(price.replace(/\B(?=(\d{3})+(?!\d))/g, ','))
    const rows = seen(a.page, 'rank-row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.first().getAttribute('data-user')).toBe(String(a.userId))
    expect(await rows.nth(1).getAttribute('data-user')).toBe(String(b.userId))

    // Both ancestors' team performance shows on the user centre.
    for (const m of [a, b]) {
      await m.page.goto(`${app.url}/user`)
      const stat = m.page.locator('.stat').filter({ hasText: text('tw', 'user.teamPerformance') }).filter({ visible: true }).locator('strong')
      await shows(stat).toBe(price.replace(/\B(?=(\d{3})+(?!\d))/g, ','))
    }

    // The day's income: a 100 NADI withdraw fee; the daily pool's 10 % shows as today's accrual.
    const now = Date.now()
    const w = (await app.ctx.sql.get(statement<{ id: bigint }>(
        `INSERT INTO withdrawals (user_id, coin, chain, amount, fee, address, status, approved_by, from_address, tx_hash, raw_tx, nonce, confirmations, created_at, updated_at, finished_at)
         VALUES (?, 'NADI', 'nadi', ?, ?, '0x0000000000000000000000000000000000000001', 'confirmed', 'auto', '0x0000000000000000000000000000000000000002', ?, '0x', 0, 3, ?, ?, ?) RETURNING id`), c.userId, UNIT, 100n * UNIT, `0x${'e'.repeat(64)}`, now, now, now))!.id
    await transfer(app.ctx.sql, { ref: `e2e:ranking:wfee:${w}`, reason: 'withdraw', from: custody('nadi'), to: FEES, asset: 'NADI', amount: 100n * UNIT, at: now })
    await a.page.goto(`${app.url}/ranking`)
    await shows(seen(a.page, 'pool-daily-today')).toContain('10 NADI')

    // A test clock closes the day: the pool is fed, then ranks 1 and 2 get 30 % and 20 % of it.
    const before = [(await balance(app.ctx.sql, fund(a.userId), 'NADI')).available, (await balance(app.ctx.sql, fund(b.userId), 'NADI')).available]
    await settleDue({ ...app.ctx, now: () => Date.now() + 2 * DAY })
    expect((await balance(app.ctx.sql, fund(a.userId), 'NADI')).available - before[0]!).toBe(3n * UNIT)
    expect((await balance(app.ctx.sql, fund(b.userId), 'NADI')).available - before[1]!).toBe(2n * UNIT)

    for (const [m, prize] of [
      [a, '+3'],
      [b, '+2'],
    ] as const) {
      await m.page.goto(`${app.url}/wallet/moneyLog`)
      const rec = m.page.locator('[data-testid="money-log"] .record[data-type="ranking_prize"]').filter({ visible: true })
      await shows(rec).toContain(text('tw', 'moneyLog.type.ranking_prize'))
      expect(await rec.first().innerText()).toContain(`${prize} NADI`)
    }
    for (const m of members) expect(m.errors).toEqual([])
  })
})
