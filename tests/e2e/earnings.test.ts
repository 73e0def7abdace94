// Every earning traceable, in real Chromium (issue 11 part 7): a user with a pledge and trial power
// is paid by the settlement of a day (driven by the server's clock); the money log names the record
// in the user's language and opens that day's earnings, one line per position, and the pledge's line
// leads to the pledge. Seen once, the day's earnings render from the saved cache offline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'
import { dayOf } from '../../server/modules/release/schedule.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser
const DAY = 86_400_000
/** The server's clock runs ahead of the browser's by this much once the test moves it on. */
let ahead = 0
const YEARS = String(10 * 365 * DAY)

beforeAll(async () => {
  app = await startApp({ NADI_TRIAL_POWER: '100', NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS }, { now: () => Date.now() + ahead })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const UNIT = 100_000_000n
const seen = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true })

/** Waits until the service worker controls the page, so a load offline is served from its cache. */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

describe('earnings in the money log', () => {
  it('a settlement record opens its day’s earnings, whose pledge line leads to the pledge; offline the day renders from the cache', async () => {
    const { context, page, errors, userId } = await newcomerOnPhone(browser, app)
    await controlled(page)
    await transfer(app.ctx.sql, { ref: 'e2e:earnings:1', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 1000n * UNIT })

    // A 200 NADI daily pledge, made with the user's own session (the pledge screens have their own test).
    const product = Number((await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM pledge_products WHERE slug = 'savings-30'")))!.id)
    const pledged = await page.evaluate(async (productId) => {
      const token = (JSON.parse(sessionStorage.getItem('token') ?? '{}') as { value?: string }).value ?? ''
      const res = await fetch('/api/v1/pledge/pledge', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ product_id: productId, amount: '200', mode: 'day' }),
      })
      return (await res.json()) as { code: number; data: { id: number } }
    }, product)
    expect(pledged.code).toBe(200)

    // The server's clock moves on two days: the first day of the term has ended and is settled.
    ahead = 2 * DAY
    const settled = await settleDue(app.ctx)
    const day = dayOf(Date.now()) + 1
    expect(settled.map((d) => d.day)).toContain(day)
    expect(app.ctx.now()).toBeGreaterThan((day + 1) * DAY)

    await page.goto(`${app.url}/wallet/moneyLog`)
    const record = page.locator('li[data-type="settlement"]').filter({ visible: true }).first()
    await shows(record).toContain(text('tw', 'moneyLog.type.settlement'))
    await record.getByTestId('money-log-link').click()
    await page.waitForURL(new RegExp(`/wallet/earnings/${day}$`))
    await shows(seen(page, 'earnings-date')).toBe(new Date(day * DAY).toISOString().slice(0, 10).replace(/-/g, '/'))
    const lines = seen(page, 'earnings-line')
    await expect.poll(() => lines.count()).toBe(2)
    const pledgeLine = page.locator('[data-testid="earnings-line"][data-kind="pledge"]').filter({ visible: true })
    await shows(pledgeLine).toContain(text('tw', 'earnings.kind.pledge'))
    expect(await pledgeLine.innerText()).toContain('+0.2 NADI')
    await shows(page.locator('[data-testid="earnings-line"][data-kind="trial"]').filter({ visible: true })).toContain(text('tw', 'earnings.kind.trial'))
    await page.waitForTimeout(1500) // the persister writes at most once a second

    await pledgeLine.getByTestId('earnings-position').click()
    await page.waitForURL(new RegExp(`/pledge/releaseLog/${pledged.data.id}$`))
    await shows(seen(page, 'pledge-income-row')).toContain('+0.2 NADI')

    // Offline, the day seen once renders from the saved cache after a fresh load, saying it is an offline copy.
    await context.setOffline(true)
    await page.evaluate(() => window.dispatchEvent(new Event('offline')))
    await page.goto(`${app.url}/wallet/earnings/${day}`)
    await shows(seen(page, 'earnings-total')).toContain('NADI')
    await expect.poll(() => page.locator('[data-testid="freshness"].offline').filter({ visible: true }).count(), { timeout: 5000 }).toBe(1)
    await context.setOffline(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
