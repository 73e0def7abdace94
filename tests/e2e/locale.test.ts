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

it("the page carries the stored language's tag before anything is drawn, so the first paint is in that language's faces", async () => {
  const { context, page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  // When the parser reaches <body>, only <head>'s inline scripts have run: the app's code starts at its end.
  await context.addInitScript(() => {
    new MutationObserver((_, mo) => {
      if (!document.body) return
      mo.disconnect()
      sessionStorage.setItem('__langAtBody', document.documentElement.lang)
    }).observe(document, { childList: true, subtree: true })
  })
  const atBody = async () => {
    await page.goto(`${app.url}/index`)
    await page.locator('#root > .app:not([data-snapshot]) .banner-title').first().waitFor()
    return page.evaluate(() => ({ atBody: sessionStorage.getItem('__langAtBody'), now: document.documentElement.lang, font: getComputedStyle(document.documentElement).fontFamily }))
  }
  // Nothing stored: the default language, as the shell is written.
  expect(await atBody()).toMatchObject({ atBody: 'zh-TW', now: 'zh-TW', font: expect.stringMatching(/^"Noto Sans CJK TC"/) })
  for (const [code, tag, face] of [['JP', 'ja', 'JP'], ['ZH', 'zh-CN', 'SC'], ['KO', 'ko', 'KR'], ['EN', 'en', null]] as const) {
    await page.evaluate((c) => localStorage.setItem('lang', c), code)
    const seen = await atBody()
    expect(seen.atBody).toBe(tag)
    expect(seen.now).toBe(tag)
    if (face) expect(seen.font).toMatch(new RegExp(`^"Noto Sans CJK ${face}"`))
    else expect(seen.font).toMatch(/^system-ui/)
  }
  // A stored value that is no language leaves the shell's own.
  await page.evaluate(() => localStorage.setItem('lang', 'toString'))
  expect((await atBody()).atBody).toBe('zh-TW')
  await context.close()
})
