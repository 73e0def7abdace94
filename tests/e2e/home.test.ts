import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Route } from 'playwright-core'
import { SEED_BANNERS, SEED_NOTICES } from '../../server/db/seed/content.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { homeDrawn, shows, signInThroughInvite, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // A chain-upgrade warning with a 2-second countdown, as an operator would configure one.
  app = await startApp({ NADI_CHAIN_NOTICE: '1', NADI_CHAIN_NOTICE_SECONDS: '2', NADI_CHAIN_NOTICE_ENDS_AT: String(Date.now() + 86_400_000) })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const newestNotice = [...SEED_NOTICES].sort((a, b) => Number(b.pinned) - Number(a.pinned) || a.daysAgo - b.daysAgo)[0]!

describe('home, languages and notices in real Chromium', () => {
  it('the chain-upgrade warning can be closed only after its countdown, and stays closed', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.goto(`${app.url}/index`)
    const ok = page.locator('.overlay .btn.primary')
    await ok.waitFor()
    expect(await ok.isDisabled()).toBe(true)
    await page.locator('.overlay').click({ position: { x: 5, y: 5 } })
    expect(await ok.isVisible()).toBe(true) // the overlay does not close it early
    await expect.poll(() => ok.isDisabled(), { timeout: 5000 }).toBe(false)
    await shows(ok).toBe(text('tw', 'chainNotice.ok'))
    await ok.click()
    await page.locator('.overlay').waitFor({ state: 'detached' })
    await page.reload()
    await homeDrawn(page)
    await page.waitForTimeout(500)
    expect(await page.locator('.overlay').count()).toBe(0)
    await context.close()
  })

  it('the home shell draws the first banner before the app’s code has loaded, in the box the app then draws it in', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    // The app's code held back: what shows is the shell alone.
    const noCode = (route: Route) => route.abort()
    await page.route('**/assets/*.js', noCode)
    await page.goto(`${app.url}/index`)
    const shellBanner = page.locator('#root .banner img')
    await shellBanner.waitFor()
    expect(await shellBanner.getAttribute('src')).toBe(SEED_BANNERS[0]!.image)
    await expect.poll(() => shellBanner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    const shellBox = await shellBanner.boundingBox()

    await page.unroute('**/assets/*.js', noCode)
    await page.reload()
    await shows(page.locator('.banner-title').first()).toBe(SEED_BANNERS[0]!.title.tw)
    expect(await page.locator('.banner img').first().boundingBox()).toEqual(shellBox)
    await context.close()
  })

  it('switching language changes the interface and the server’s content, and survives a reload', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const errors = watchErrors(page)
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await page.goto(`${app.url}/index`)
    await shows(page.locator('.banner-title')).toBe(SEED_BANNERS[0]!.title.tw)
    await shows(page.locator('.tabbar .tab')).toBe(text('tw', 'tabs.home'))

    await page.locator('.home-head .chip').first().click()
    await page.getByRole('option', { name: '日本語' }).click()
    await shows(page.locator('.tabbar .tab')).toBe(text('jp', 'tabs.home'))
    await shows(page.locator('.banner-title')).toBe(SEED_BANNERS[0]!.title.jp)
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja')

    await page.reload()
    await homeDrawn(page)
    await shows(page.locator('.tabbar .tab')).toBe(text('jp', 'tabs.home'))
    await shows(page.locator('.ticker-text')).toBe(newestNotice.title.jp)
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('JP')
    expect(errors).toEqual([])
    await context.close()
  })

  it('a signed-in user reads notices and the list is kept alive when they come back', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await page.locator('.tabbar a[href="/notice"]').click()
    await expect.poll(() => page.locator('.notice-item').count(), { timeout: 10_000 }).toBe(SEED_NOTICES.length)
    await shows(page.locator('.notice-item h3')).toContain(newestNotice.title.tw)

    // Mark the list's DOM: if the screen is kept alive, the mark is still there after a round trip.
    await page.locator('.notice-item').first().evaluate((el) => el.setAttribute('data-kept', 'yes'))
    await page.locator('.notice-item').first().click()
    await page.waitForURL(/\/notice\/detail\/\d+$/)
    await shows(page.locator('.article h2')).toBe(newestNotice.title.tw)
    await shows(page.locator('.article')).toContain(newestNotice.content.tw.split('\n\n')[0]!.slice(0, 20))
    await page.locator('.topbar .icon-btn').first().click()
    await page.waitForURL(`${app.url}/notice`)
    expect(await page.locator('.notice-item[data-kept="yes"]').count()).toBe(1)
    await context.close()
  })

  it('the opening screen enters home by itself and an unknown route shows a way back', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await page.goto(`${app.url}/open_screen`)
    await page.locator('.open-screen').waitFor()
    await page.waitForURL(`${app.url}/index`, { timeout: 6000 })
    await page.goto(`${app.url}/no/such/page`)
    await shows(page.locator('h1')).toBe(text('tw', 'notFound.title'))
    await page.locator('a[href="/index"]').click()
    await page.waitForURL(`${app.url}/index`)
    await context.close()
  })

  it('the demo wallet signs a person in without any wallet extension and keeps its key across reloads', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    const signInWithDemo = async () => {
      await page.locator('.sheet .btn.primary').click()
      await page.getByText(text('tw', 'wallet.demoWallet'), { exact: true }).first().click()
      await page.locator('.sheet .kv .mono').waitFor()
      await page.locator('.sheet .btn.primary').click()
      await page.waitForFunction(() => sessionStorage.getItem('token') !== null)
    }
    await shows(page.getByTestId('home-intro')).toBe(text('tw', 'home.introBody'))
    // Signing in looks again at what home shows: its figures are fetched as of now, and it speaks to a member.
    const refetched = page.waitForRequest((r) => r.url().includes('/api/v1/common/mainInfo') && r.headers()['authorization'] !== undefined, { timeout: 10_000 })
    await signInWithDemo()
    await refetched
    await shows(page.getByTestId('home-intro')).toBe(text('tw', 'home.introBodyMember'))
    const users = async () => Number((await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM users')))!.n)
    const count = await users()
    await page.locator('.tabbar a[href="/user"]').click()
    const address = await page.getByTestId('wallet-address').innerText()

    // Signing out and in again with the demo wallet is the same account: its key lives in IndexedDB.
    await page.evaluate(() => sessionStorage.clear())
    await page.goto(`${app.url}/index`)
    await page.locator('.home-head .chip.gold').click()
    await signInWithDemo()
    expect(await users()).toBe(count)
    await page.locator('.tabbar a[href="/user"]').click()
    await shows(page.getByTestId('wallet-address')).toBe(address)
    await context.close()
  })
})
