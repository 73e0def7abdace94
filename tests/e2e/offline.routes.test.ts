// A new user offline: after one online visit of /index only, every screen still opens (its code was
// fetched ahead by the service worker, src/app/sw.ts → sw/sw.ts CACHE_LAZY), none is blank; Save-Data
// keeps the worker from fetching ahead; and /trade shows the book it last saw, with its age.

import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { goOffline, goOnline, shows, signInThroughInvite, swControlled, text, visible } from './support/flows.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // The demo market maker keeps a living book for the /trade check.
  app = await startApp({ NADI_DEMO_MARKET: '1', NADI_DEMO_MARKET_EVERY_MS: '300' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

/** The screens' code the built worker fetches ahead: its manifest's entries marked lazy (vite.config.ts lazyCode). */
function lazyCode(): string[] {
  const sw = fs.readFileSync('dist/sw.js', 'utf8')
  const urls = [...sw.matchAll(/"lazy":true,"revision":null,"url":"([^"]+)"/g)].map((m) => `/${m[1]}`)
  if (urls.length === 0) throw new Error('dist/sw.js marks no lazy code')
  return urls
}

/** SPEC §2's routes as the app declares them (src/app/routes.ts), with an id or a day for each parameter. */
function routes(): string[] {
  const source = fs.readFileSync('src/app/routes.ts', 'utf8')
  const patterns = [...source.matchAll(/pattern: '([^']+)'/g)].map((m) => m[1]!)
  if (patterns.length < 40) throw new Error(`only ${patterns.length} routes found in src/app/routes.ts`)
  return patterns.map((p) => p.replace(':day', '2026-11-25').replace(/:\w+/g, '1'))
}

/** How many of `paths` the worker's runtime cache holds. */
const cachedCount = (page: Page, paths: string[]) =>
  page.evaluate(async (ps) => {
    const cache = await caches.open('nadi-assets')
    return (await Promise.all(ps.map((p) => cache.match(p)))).filter(Boolean).length
  }, paths)



/** A screen with something to read: its main content is visible and says something, not a spinner. */
async function notBlank(page: Page, route: string) {
  await expect
    .poll(async () => ((await page.locator('main').filter({ visible: true }).count()) > 0 ? (await page.locator('main').filter({ visible: true }).first().innerText()).trim().length : 0), {
      timeout: 10_000,
      message: `${route} shows nothing`,
    })
    .toBeGreaterThan(0)
}

/** A new user signed in on a phone, once the worker has fetched every screen's code ahead. */
async function signedInWithScreensSaved() {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await swControlled(page)
    const code = lazyCode()
    await expect.poll(() => cachedCount(page, code), { timeout: 30_000 }).toBe(code.length)
  return { context, page }
}

describe('offline, a new user', () => {
  it('opens every route offline after visiting only /index online: none is blank, and an address saved offline lands on a working list', { timeout: 240_000 }, async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    expect(new URL(page.url()).pathname).toBe('/index')
    await swControlled(page)

    // Online and idle on /index: the worker fetches every screen's code.
    const code = lazyCode()
    expect(code.some((p) => /AddressListScreen-/.test(p))).toBe(true)
    expect(code.some((p) => /EarningsScreen-/.test(p))).toBe(true)
    await expect.poll(() => cachedCount(page, code), { timeout: 30_000 }).toBe(code.length)
    // The wallet's code is not among it: connecting and paying need the network anyway.
    expect(code.filter((p) => /onboard|demoWallet/i.test(p))).toEqual([])

    await goOffline(context, page)
    // Never opened online: their data is not on the phone, and they say so instead of loading forever.
    const unsaved = ['/shop/detail/1', '/mall/detail/1', '/pledge/detail/1', '/node/detail/1', '/shop', '/pledge']
    for (const route of routes()) {
      await page.goto(`${app.url}${route}`)
      await notBlank(page, route)
      expect(await visible(page, 'screen-unavailable').count(), `${route} says its code is not saved`).toBe(0)
      if (unsaved.includes(route)) await shows(visible(page, 'not-saved')).toBe(text('tw', 'net.notSaved'))
    }
    expect(errors.filter((e) => /dynamically imported module/i.test(e))).toEqual([])

    // Saving an address offline lands on the address list, which shows it waiting.
    await page.goto(`${app.url}/address/add`)
    await page.locator('input[name="name"]:visible').fill('王小明')
    await page.locator('input[name="phone"]:visible').fill('0912345678')
    await page.locator('input[name="area"]:visible').fill('台北市信義區')
    await page.locator('textarea[name="address"]:visible').fill('松仁路 100 號')
    await page.locator('form button[type="submit"]:visible').click()
    await page.waitForURL(`${app.url}/address`)
    await expect.poll(() => page.locator('.address-item[data-pending="true"]').filter({ visible: true }).count()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })

  it('offline with nothing saved, a screen says the phone is offline and not saved yet, with a retry; it loads by itself when the network returns', { timeout: 120_000 }, async () => {
    const { context, page } = await signedInWithScreensSaved()

    await goOffline(context, page)
    // /address used to draw an empty list, /loan a skeleton forever; the rest said only "not saved".
    for (const route of ['/address', '/loan', '/wallet', '/mingLog', '/destoryList', '/notice', '/orders']) {
      await page.goto(`${app.url}${route}`)
      const unsaved = visible(page, 'offline-unsaved')
      await shows(unsaved.locator('strong'), 10_000).toBe(text('tw', 'net.offline'))
      expect(await unsaved.getByTestId('not-saved').innerText(), route).toBe(text('tw', 'net.notSaved'))
      expect(await unsaved.getByRole('button', { name: text('tw', 'common.retry') }).count(), `${route} offers a retry`).toBe(1)
    }

    // Still offline, the retry says the same; once online, it loads the list.
    await page.goto(`${app.url}/address`)
    await visible(page, 'offline-retry').click()
    await shows(visible(page, 'offline-unsaved').locator('strong')).toBe(text('tw', 'net.offline'))
    await goOnline(context, page)
    await expect.poll(() => page.locator('main').filter({ visible: true }).getByText(text('tw', 'address.empty')).count(), { timeout: 15_000 }).toBe(1)
    expect(await visible(page, 'offline-unsaved').count()).toBe(0)

    // Offline on /loan, then the network returns: the screen loads without a tap.
    await goOffline(context, page)
    await page.goto(`${app.url}/loan`)
    await visible(page, 'offline-unsaved').waitFor()
    await goOnline(context, page)
    await expect.poll(() => visible(page, 'loan-plans').count(), { timeout: 15_000 }).toBe(1)
    expect(await visible(page, 'offline-unsaved').count()).toBe(0)
    await context.close()
  })

  it('a screen whose code is not on the phone says so in the user’s language, with a retry that opens it once online and the way home', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    // Save-Data on: the worker fetches nothing ahead.
    await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' }, configurable: true }))
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await swControlled(page)
    await page.evaluate(() => localStorage.setItem('lang', 'EN'))
    await page.reload()
    await page.locator('.tabbar').waitFor()
    // Past the idle timeout (5 s) at which the app would have asked the worker to fetch ahead.
    await page.waitForTimeout(6000)
    const screens = lazyCode().filter((p) => /(Earnings|AddressList|Trade|Activity\w*)Screen-/.test(p))
    expect(screens.length).toBeGreaterThan(3)
    expect(await cachedCount(page, screens)).toBe(0)

    await goOffline(context, page)
    await page.goto(`${app.url}/wallet/earnings/2026-11-25`)
    await shows(visible(page, 'screen-unavailable').locator('h1')).toBe(text('en', 'net.screenNotSaved'))
    // Still offline, a retry says the same; online, it opens the screen.
    await visible(page, 'screen-unavailable').getByRole('button', { name: text('en', 'common.retry') }).click()
    await shows(visible(page, 'screen-unavailable').locator('h1')).toBe(text('en', 'net.screenNotSaved'))
    await goOnline(context, page)
    await visible(page, 'screen-unavailable').getByRole('button', { name: text('en', 'common.retry') }).click()
    await expect.poll(() => visible(page, 'screen-unavailable').count(), { timeout: 10_000 }).toBe(0)
    await notBlank(page, '/wallet/earnings/2026-11-25')

    // The way home.
    await goOffline(context, page)
    await page.goto(`${app.url}/activity`)
    await visible(page, 'screen-unavailable').getByRole('link', { name: text('en', 'notFound.home') }).click()
    await page.waitForURL(`${app.url}/index`)
    await page.locator('.tabbar').waitFor()
    await context.close()
  })

  it('/trade offline shows the book and ticker last seen, their age and the offline banner; never seen, it says not saved', async () => {
    const { context, page } = await signedInWithScreensSaved()

    // Never opened online: not saved on this phone yet, and no made-up 0.00 %.
    await goOffline(context, page)
    await page.goto(`${app.url}/trade`)
    await shows(visible(page, 'order-book').getByTestId('not-saved')).toBe(text('tw', 'net.notSaved'))
    await shows(visible(page, 'ticker-change')).toBe('—')
    await shows(visible(page, 'freshness')).toBe(text('tw', 'net.offline'))

    // Opened online once: the book is saved.
    await goOnline(context, page)
    await page.goto(`${app.url}/trade`)
    await expect.poll(() => visible(page, 'book-asks').locator('li').count(), { timeout: 20_000 }).toBeGreaterThan(0)
    const last = (await visible(page, 'ticker-last').innerText()).trim()
    expect(last).not.toBe('—')
    await page.waitForTimeout(1500) // the persister writes at most once a second

    await goOffline(context, page)
    await page.goto(`${app.url}/trade`)
    await expect.poll(() => visible(page, 'book-asks').locator('li').count(), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(await visible(page, 'book-bids').locator('li').count()).toBeGreaterThan(0)
    await expect.poll(() => page.locator('[data-testid="freshness"].offline').filter({ visible: true }).count()).toBe(1)
    const banner = (await visible(page, 'freshness').innerText()).trim()
    // "離線中 · 6 秒前儲存": offline, and how long ago the book was saved.
    const [before, after] = text('tw', 'net.offlineUpdated', { when: '|' }).split('|').map((p) => p.replace(/\s+/g, ' ').trim())
    const shown = banner.replace(/\s+/g, ' ')
    expect(shown.startsWith(before!) && shown.endsWith(after!) && /\d/.test(shown), shown).toBe(true)
    expect(await visible(page, 'ticker-change').innerText()).not.toBe('—')
    expect(await visible(page, 'order-book').getByTestId('not-saved').count()).toBe(0)
    // The candles seen online come from the phone's kline store.
    await page.waitForTimeout(1000)
    expect(await page.locator('.candle-chart').filter({ hasText: text('tw', 'net.notSaved') }).count()).toBe(0)
    await context.close()
  })
})
