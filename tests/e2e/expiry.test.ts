// SPEC §8 / DESIGN §4: a login that expires during use says so, goes to the root after 1.5 s with the
// sign-in sheet open, and signing in again as the same account returns to the screen the user was
// on, its form as they typed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { connectTestWallet, fillAddress, newcomerOnPhone, shows, text, valueOf } from './support/flows.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
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

const pathOf = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search

/** The server forgets every session (a token revoked elsewhere); the next call answers 401. */
const revokeSessions = () => app.ctx.sql.run(statement('UPDATE sessions SET revoked_at = ?'), Date.now())

/** The expiry as the user meets it: the words, then the root with the sheet, then signing in again. */
async function expiresThenSignsInAgain(page: Page): Promise<void> {
  await shows(page.locator('.toast')).toContain(text('tw', 'errors.loginExpired'))
  await expect.poll(() => pathOf(page), { timeout: 5000 }).toBe('/index')
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull()
  await page.locator('.sheet').waitFor()
  await connectTestWallet(page)
  await page.locator('.sheet .btn.primary').click()
  await page.waitForFunction(() => sessionStorage.getItem('token') !== null)
}

describe.each([360, 390])('an expired login at %i px', (width) => {
  it('a transfer refused with 401 says “login expired”, and signing in again returns to it with the amount as typed', async () => {
    const { context, page, userId, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    await transfer(app.ctx.sql, { ref: `e2e:expiry:${width}`, reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 100n * 100_000_000n })
    await page.goto(`${app.url}/draw?asset=NADI`)
    await page.locator('input[name="amount"]:visible').fill('12.5')
    await revokeSessions()
    await page.locator('form button[type="submit"]:visible').click()
    await expiresThenSignsInAgain(page)
    await expect.poll(() => pathOf(page), { timeout: 5000 }).toBe('/draw?asset=NADI')
    await valueOf(page.locator('input[name="amount"]:visible')).toBe('12.5')
    expect(errors).toEqual([])
    await context.close()
  })

  it('an address being added survives the expiry, and once saved the next one starts empty', async () => {
    const { context, page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    await page.goto(`${app.url}/address/add`)
    const typed = { name: '陳小明', phone: '0912 345 678', area: '臺北市信義區', address: '松仁路 100 號 8 樓' }
    await fillAddress(page, typed)
    await revokeSessions()
    await page.locator('form button[type="submit"]:visible').click()
    await expiresThenSignsInAgain(page)
    await expect.poll(() => pathOf(page), { timeout: 5000 }).toBe('/address/add')
    await valueOf(page.locator('input[name="name"]:visible')).toBe(typed.name)
    await valueOf(page.locator('textarea[name="address"]:visible')).toBe(typed.address)
    // Saved now, the draft is gone: the next address starts empty.
    await page.locator('form button[type="submit"]:visible').click()
    await shows(page.locator('.toast')).toContain(text('tw', 'address.saved'))
    await page.goto(`${app.url}/address/add`)
    await valueOf(page.locator('input[name="name"]:visible')).toBe('')
    expect(errors).toEqual([])
    await context.close()
  })
})
