// Each language loads in two parts (vite.config.ts localeSplit): a lazy screen open when the user switches
// language shows the new language whole — its lazy namespaces too — and so does the next lazy screen.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, text } from './support/flows.ts'

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

it('switching language on a lazy screen shows the new language whole, never keys', async () => {
  const { page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  await page.goto(`${app.url}/user`)
  await page.getByText(text('tw', 'team.title')).first().waitFor()
  await page.getByRole('button', { name: text('tw', 'lang.switch') }).first().click()
  await page.getByRole('option', { name: 'English' }).click()
  await page.getByText(text('en', 'team.title')).first().waitFor({ timeout: 5000 })
  const body = await page.locator('main.page').filter({ visible: true }).innerText()
  expect(body).not.toMatch(/\bteam\.[a-z]/)
  await page.goto(`${app.url}/ming`)
  await page.locator('main.page').filter({ visible: true }).first().waitFor()
  await page.waitForTimeout(1500)
  const ming = await page.locator('main.page').filter({ visible: true }).innerText()
  expect(ming).not.toMatch(/\bmining\.[a-z]/)
  expect(ming).toContain(text('en', 'mining.title'))
})
