// Savings in real Chromium (issue 11 part 5; SPEC §2 /pledge, /pledge/detail/{id},
// /pledge/releaseLog/{id}): a user with NADI goes from home's shortcut to /pledge, picks a product on
// /pledge, pledges on its detail once its terms are confirmed (a cancel freezes nothing) and finds the
// pledge under "my pledges", waiting for release with its principal frozen; once the server's clock
// has moved past the first day of the term and the settlement has run, the day's interest shows in
// the pledge's log and in the income record. Offline, pledging is disabled and the screen says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp()
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const DAY = 86_400_000
/** Screens are kept alive, hidden: only what is visible counts. */
const seen = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true })
const UNIT = 100_000_000n

describe('savings', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number

  it('a user with NADI pledges on /pledge/detail and sees it in my pledges; after the settlement of its first day, the income shows', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app))
    await transfer(app.ctx.sql, { ref: 'e2e:pledge:1', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 1000n * UNIT })

    // Home leads to savings.
    await page.goto(`${app.url}/index`)
    await seen(page, 'shortcut-pledge').click()
    await page.waitForURL(/\/pledge$/)
    const products = seen(page, 'pledge-product')
    await shows(products).toContain('NADI')
    expect(await products.count()).toBe(3)
    await products.first().click()
    await page.waitForURL(/\/pledge\/detail\/\d+$/)
    await shows(seen(page, 'pledge-form')).toContain('NADI')
    // Below the minimum the form says so before anything is sent.
    const amount = page.locator('input[name="amount"]').filter({ visible: true })
    await amount.fill('50')
    await seen(page, 'pledge-submit').click()
    await shows(page.locator('.form-error[data-field="amount"]')).toBe(text('tw', 'money.amountBelowMin', { min: '100', asset: 'NADI' }))
    expect(await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM pledges'))).toEqual({ n: 0n })

    await amount.fill('200')
    await shows(seen(page, 'pledge-estimate')).toBe('6 NADI') // 0.1 % a day × 30 days
    // The terms come first: amount, rate, term, income, what is frozen until when. Cancelling freezes nothing.
    await seen(page, 'pledge-submit').click()
    const terms = page.getByTestId('confirm-terms')
    await shows(terms.locator('[data-term="amount"] dd')).toBe('200 NADI')
    expect(await terms.locator('[data-term="rate"] dd').innerText()).toBe(text('tw', 'pledge.confirm.rateDay', { rate: '0.1' }))
    expect(await terms.locator('[data-term="term"] dd').innerText()).toMatch(/^30 天（/)
    expect(await terms.locator('[data-term="income"] dd').innerText()).toBe('6 NADI')
    expect(await terms.locator('[data-term="frozen"] dd').innerText()).toMatch(/^200 NADI，\d{4}\/\d{2}\/\d{2} 返還$/)
    await page.locator('.sheet .btn.ghost').click()
    await page.locator('.sheet').waitFor({ state: 'detached' })
    expect(await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM pledges'))).toEqual({ n: 0n })
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).frozen).toBe(0n)
    expect(new URL(page.url()).pathname).toMatch(/^\/pledge\/detail\/\d+$/)
    // Confirmed, it is pledged.
    await seen(page, 'pledge-submit').click()
    await page.locator('.sheet .btn.primary').click()
    await page.waitForURL(/\/pledge\?tab=mine$/)
    const mine = seen(page, 'my-pledge')
    await shows(mine).toContain('200')
    expect(await mine.count()).toBe(1)
    expect(await mine.first().getAttribute('data-status')).toBe('waiting')
    expect(await mine.first().getByTestId('pledge-status').innerText()).toBe(text('tw', 'pledge.status.waiting'))
    expect(await mine.first().getByTestId('pledge-amount').innerText()).toContain('200')
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).frozen).toBe(200n * UNIT)

    // The server's clock moves on: the term starts tomorrow, and a day is settled once it has ended.
    const settled = await settleDue({ ...app.ctx, now: () => Date.now() + 2 * DAY })
    expect(settled.length).toBeGreaterThanOrEqual(1)
    const id = await mine.first().getAttribute('data-id')
    await mine.first().click()
    await page.waitForURL(new RegExp(`/pledge/releaseLog/${id}$`))
    await shows(seen(page, 'pledge-income-row')).toContain('+0.2 NADI')
    expect(await seen(page, 'pledge-log-head').getByTestId('pledge-income').innerText()).toContain('0.2')

    await page.goto(`${app.url}/pledge?tab=income`)
    await shows(seen(page, 'pledge-income').getByTestId('pledge-income-row')).toContain('+0.2 NADI')
    expect(errors).toEqual([])
  })

  it('offline, pledging is disabled and the screen says why', async () => {
    const id = Number((await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM pledge_products WHERE slug = 'savings-90'")))!.id)
    await page.goto(`${app.url}/pledge/detail/${id}`)
    await shows(seen(page, 'pledge-form')).toContain('4.8%')
    await context.setOffline(true)
    await page.evaluate(() => window.dispatchEvent(new Event('offline')))
    await shows(seen(page, 'offline-reason')).toBe(text('tw', 'common.offlineDisabled'))
    expect(await seen(page, 'pledge-submit').isDisabled()).toBe(true)
    await context.setOffline(false)
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect.poll(() => seen(page, 'pledge-submit').isDisabled()).toBe(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
