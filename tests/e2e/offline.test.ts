import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { SEED_BANNERS, SEED_NOTICES } from '../../server/db/seed/content.ts'
import { launch, phone, ROOT_CODE, startApp, type RunningApp } from './support/app.ts'
import { goOffline, goOnline, homeDrawn, shows, signInThroughInvite, swControlled, text } from './support/flows.ts'
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


const addressRows = async (userWallet: string) =>
  Number(
    (await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM addresses a JOIN users u ON u.id = a.user_id WHERE u.wallet_address = ?'), userWallet.toLowerCase()))!.n,
  )

async function fill(page: Page, f: { name: string; phone: string; area: string; address: string }) {
  await page.locator('input[name="name"]:visible').fill(f.name)
  await page.locator('input[name="phone"]:visible').fill(f.phone)
  await page.locator('input[name="area"]:visible').fill(f.area)
  await page.locator('textarea[name="address"]:visible').fill(f.address)
}


/** Records, per start of /index, which drew the first banner title: "snapshot:<text>" (index.html's) or "app:<text>". */
async function watchFirstTitle(page: Page) {
  await page.addInitScript(() => {
    if (location.pathname !== '/index') return
    new MutationObserver((_, mo) => {
      const el = document.querySelector('#root .banner-title')
      if (!el?.textContent?.trim()) return
      mo.disconnect()
      sessionStorage.setItem('__firstTitle', `${el.closest('[data-snapshot]') ? 'snapshot' : 'app'}:${el.textContent.trim()}`)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
}

/** A phone whose starts of /index record who drew the first banner title, the chain notice already seen. */
async function phoneWatchingFirstTitle(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phone(browser)
  const page = await context.newPage()
  await watchFirstTitle(page)
  await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
  return { context, page }
}

/** Home's cache saved, the page left (home kept as it is), then /index opened offline and drawn by the app. */
async function leaveThenStartOffline(context: BrowserContext, page: Page) {
  await page.waitForTimeout(1500) // the persister writes at most once a second
  await page.goto('about:blank')
  await goOffline(context, page)
  await page.goto(`${app.url}/index`)
  await homeDrawn(page)
}

describe('offline first in real Chromium', () => {
  it('cached screens render offline after a reload, and offline address changes sync exactly once when the network returns', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    const wallet = await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await swControlled(page)

    // Online: visit the screens once so their data is cached.
    await page.locator('.tabbar a[href="/notice"]').click()
    await expect.poll(() => page.locator('.notice-item').count(), { timeout: 10_000 }).toBe(SEED_NOTICES.length)
    await page.locator('.tabbar a[href="/user"]').click()
    await page.getByTestId('invite-code').waitFor()
    await page.locator('a[href="/address"]').click()
    await shows(page.locator('.empty')).toBe(text('tw', 'address.empty'))
    await page.waitForTimeout(1500) // the persister writes at most once a second

    // Offline: reload, and the shell and the cached data render.
    await goOffline(context, page)
    await page.goto(`${app.url}/notice`)
    await expect.poll(() => page.locator('.notice-item').count(), { timeout: 10_000 }).toBe(SEED_NOTICES.length)
    // …and say they are offline copies.
    await expect.poll(() => page.locator('[data-testid="freshness"].offline').count(), { timeout: 5000 }).toBe(1)

    // Offline: add an address, then edit it while it waits.
    await page.goto(`${app.url}/address/add`)
    await fill(page, { name: '王小明', phone: '0912-345-678', area: '台北市信義區', address: '松仁路 100 號' })
    await page.locator('form button[type="submit"]:visible').click()
    await page.waitForURL(`${app.url}/address`)
    await expect.poll(() => page.locator('.address-item[data-pending="true"]').count()).toBe(1)
    await shows(page.locator('.address-item .mono')).toBe('091****678')
    await page.locator('.address-item a', { hasText: text('tw', 'address.edit') }).click()
    await page.locator('textarea[name="address"]:visible').fill('松仁路 100 號 5 樓')
    await page.locator('form button[type="submit"]:visible').click()
    await page.waitForURL(`${app.url}/address`)

    // Still pending after a reload; nothing has reached the server.
    await page.reload()
    await shows(page.locator('.address-item .address-text')).toContain('5 樓')
    expect(await page.locator('.address-item[data-pending="true"]').count()).toBe(1)
    expect(await addressRows(wallet.address)).toBe(0)

    // Back online: the queued add is replayed — and even sent twice it lands once.
    let sends = 0
    await page.route('**/api/v1/address/addAddress', async (route) => {
      sends++
      const first = await route.fetch()
      await route.fetch() // the same request again, same Idempotency-Key, as a flaky network might
      await route.fulfill({ response: first })
    })
    await goOnline(context, page)
    await expect.poll(() => page.locator('.address-item[data-pending="true"]').count(), { timeout: 20_000 }).toBe(0)
    expect(sends).toBe(1)
    expect(await addressRows(wallet.address)).toBe(1)
    const saved = (await app.ctx.sql.get(statement<{ address: string; is_default: bigint }>('SELECT address, is_default FROM addresses')))!
    expect(saved.address).toBe('松仁路 100 號 5 樓')
    expect(Number(saved.is_default)).toBe(1)
    await context.close()
  })

  it('an offline start shows home as it was left before the app has run; the app takes over and works; sign-out drops it', async () => {
    const { context, page } = await phoneWatchingFirstTitle()
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await swControlled(page)
    await homeDrawn(page)
    // A screen visited and kept mounted (hidden) behind home stays out of what is kept of home.
    await page.locator('.tabbar a[href="/notice"]').click()
    await expect.poll(() => page.locator('.notice-item').count(), { timeout: 10_000 }).toBe(SEED_NOTICES.length)
    await page.locator('.tabbar a[href="/index"]').click()
    await homeDrawn(page)

    // Leaving the page keeps home as it is.
    await leaveThenStartOffline(context, page)
    const title = SEED_BANNERS[0]!.title.tw
    expect(await page.evaluate(() => sessionStorage.getItem('__firstTitle'))).toBe(`snapshot:${title}`)
    const kept = await page.evaluate(() => ({ snap: JSON.parse(localStorage.getItem('home_snapshot') ?? 'null'), account: sessionStorage.getItem('account'), lang: localStorage.getItem('lang') ?? '' }))
    expect(kept.snap).toMatchObject({ v: 1, account: kept.account, lang: kept.lang })
    expect(kept.account).toMatch(/^u:\d+$/)
    expect(kept.snap.html).toContain('class="tabbar"')
    expect(kept.snap.html).toContain(title)
    expect(kept.snap.html).not.toContain('notice-item')
    expect(kept.snap.html).not.toContain('freshness')
    // The first slide's image is kept; the later slides, off the first screen, keep their boxes only.
    expect(kept.snap.html).toContain(`src="${SEED_BANNERS[0]!.image}"`)
    expect(kept.snap.html).toContain('src="/favicon.svg"') // the header's logo, at the top
    for (const later of SEED_BANNERS.slice(1)) expect(kept.snap.html).not.toContain(later.image)
    expect(kept.snap.html.match(/<img\b/g)?.length).toBeGreaterThanOrEqual(SEED_BANNERS.length)

    // The app replaced it — nothing inert is left — and it works: the tab bar moves within the page, offline.
    expect(await page.locator('[data-snapshot], [inert]').count()).toBe(0)
    await shows(page.locator('#root .banner-title').first()).toBe(title)
    await page.locator('.tabbar a[href="/notice"]').click()
    await page.waitForURL(`${app.url}/notice`)
    await expect.poll(() => page.locator('.notice-item').count(), { timeout: 10_000 }).toBe(SEED_NOTICES.length)
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1)

    // Online again, the user signs out: what was kept of their home goes with their other data.
    await goOnline(context, page)
    await page.locator('.tabbar a[href="/user"]').click()
    await page.locator('button.danger-text').click()
    await page.locator('.sheet .btn.danger').click()
    await page.waitForFunction(() => sessionStorage.getItem('token') === null)
    expect(await page.evaluate(() => localStorage.getItem('home_snapshot'))).toBeNull()
    await context.close()
  })

  it("a visitor's offline start gets the visitor's snapshot; one from another language is not drawn", async () => {
    const { context, page } = await phoneWatchingFirstTitle()
    await page.goto(`${app.url}/index`)
    await swControlled(page)
    await homeDrawn(page)
    await leaveThenStartOffline(context, page)
    expect(await page.evaluate(() => sessionStorage.getItem('__firstTitle'))).toMatch(/^snapshot:/)
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('home_snapshot') ?? 'null')?.account)).toBe('anon')

    // A snapshot taken in another language: its words would be the wrong ones. (Changed on a page that
    // is not home, which keeps no snapshot of its own when left.)
    await page.goto(`${app.url}/no-such-screen`)
    await page.evaluate(() => {
      const snap = JSON.parse(localStorage.getItem('home_snapshot')!)
      localStorage.setItem('home_snapshot', JSON.stringify({ ...snap, lang: 'JP' }))
    })
    await page.goto(`${app.url}/index`)
    await homeDrawn(page)
    expect(await page.evaluate(() => sessionStorage.getItem('__firstTitle'))).toMatch(/^app:/)
    await context.close()
  })

  it('a change the server refuses stops, shows the server’s message, and can be discarded', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await signInThroughInvite(context, page, app.url, ROOT_CODE)
    await swControlled(page)
    await page.goto(`${app.url}/address`)
    await page.locator('.bottom-action a').waitFor()
    await goOffline(context, page)
    await page.goto(`${app.url}/address/add`)
    await fill(page, { name: 'Bob', phone: '0912345678', area: 'Taipei', address: 'Road 1' })
    await page.locator('form button[type="submit"]:visible').click()
    await page.waitForURL(`${app.url}/address`)
    // The server will refuse it (as if the rules changed meanwhile).
    await page.route('**/api/v1/address/addAddress', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 400, msg: 'refused by the server', data: null }) }),
    )
    await goOnline(context, page)
    await shows(page.locator('.address-item .form-error'), 20_000).toBe(text('tw', 'errors.failedBecause', { what: text('tw', 'errors.failed.addressAdd'), reason: 'refused by the server' }))
    await page.locator('.address-item button', { hasText: text('tw', 'outbox.discard') }).click()
    await expect.poll(() => page.locator('.address-item').count()).toBe(0)
    await context.close()
  })
})
