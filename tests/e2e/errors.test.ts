// SPEC §8's error catalogue where the user meets it. Answers the server cannot be made to give (a 403,
// a 5xx) are put in place of its own with page.route(); the rest happen naturally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, phone, ROOT_CODE, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text } from './support/flows.ts'

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

describe.each([360, 390])('the error catalogue at %i px', (width) => {
  it('with no wallet in the browser and no demo wallet, connecting says “install a wallet”', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width, height: 800 })
    await page.route('**/api/v1/common/config', async (route) => {
      const res = await route.fetch()
      const body = (await res.json()) as { data: { demo: boolean } }
      body.data.demo = false
      await route.fulfill({ response: res, json: body })
    })
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await page.locator('.sheet .btn.primary').click()
    await shows(page.locator('.sheet .form-error')).toBe(text('tw', 'wallet.install'))
    await context.close()
  })

  it('a 403 says “no permission” and a 5xx “server error, try again later”, not the server’s text', async () => {
    const { context, page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    let status = 403
    await page.route('**/api/v1/notice/**', (route) => route.fulfill({ status, json: { code: status, msg: 'internal: stack trace here', data: null } }))
    await page.goto(`${app.url}/notice`)
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.noPermission'))
    status = 502
    await page.goto(`${app.url}/notice`)
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.server'))
    expect(await page.locator('.toast').allInnerTexts()).not.toContain('internal: stack trace here')
    await context.close()
  })
})
