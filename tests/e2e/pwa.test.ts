// The PWA in real Chromium: installable, the shell works offline, nothing from /api is cached, the
// precache is only the app shell, and a new deploy waits for the user's click.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/chromium.ts'
import { launch, phone, startApp, watchErrors, type RunningApp } from './support/app.ts'

let browser: Browser
const apps: RunningApp[] = []
const contexts: BrowserContext[] = []
const tmpDirs: string[] = []

beforeAll(async () => {
  browser = await launch()
})

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => {})))
  await browser?.close()
  await Promise.all(apps.map((a) => a.close()))
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

async function start(env: Record<string, string> = {}): Promise<RunningApp> {
  const app = await startApp(env)
  apps.push(app)
  return app
}

/**
 * A phone-sized context on a real profile: Chromium reports every context of launch() as incognito,
 * where an app is never installable. Same binary and switches.
 */
async function persistentPhone(): Promise<BrowserContext> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-pwa-profile-'))
  tmpDirs.push(dir)
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS],
    viewport: { width: 360, height: 760 },
    deviceScaleFactor: 2,
    isMobile: false,
    hasTouch: true,
  })
  contexts.push(context)
  return context
}

async function openIndex(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${url}/index`)
  await page.locator('.tabbar').waitFor()
  return page
}

/** Waits until a worker is active and controls the page (it claims it; else one reload). Reloaded? */
async function controlled(page: Page): Promise<boolean> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  const claimed = await page
    .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 5000 })
    .then(() => true)
    .catch(() => false)
  if (claimed) return false
  await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
  return true
}

/** Every cache in Cache Storage with the paths (and query) it holds. */
function cacheContents(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {}
    for (const name of await caches.keys()) {
      const keys = await (await caches.open(name)).keys()
      out[name] = keys.map((r) => {
        const u = new URL(r.url)
        return u.pathname + u.search
      })
    }
    return out
  })
}

/** What the built index.html names as the shell's code: entry, modulepreloads, stylesheet, and both parts of the tw locale. */
function shellCode(dist: string): string[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8')
  const files = new Set<string>()
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) files.add(m[1]!)
  for (const m of html.matchAll(/<link[^>]+rel="(?:modulepreload|stylesheet)"[^>]+href="([^"]+)"/g)) files.add(m[1]!)
  for (const part of ['core', 'rest']) {
    const tw = fs.readdirSync(path.join(dist, 'assets')).find((f) => new RegExp(`^locale-tw-${part}-[\\w-]+\\.js$`).test(f))
    if (!tw) throw new Error(`no tw locale ${part} chunk in dist`)
    files.add(`/assets/${tw}`)
  }
  return [...files].sort()
}

interface Version {
  versionId: string
  scriptURL: string
  status: string
}

/** Follows the page's service worker versions through CDP (installed = waiting, activated = in charge). */
async function watchVersions(cdp: CDPSession): Promise<Map<string, Version>> {
  const versions = new Map<string, Version>()
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: Version[] }) => {
    for (const v of e.versions) versions.set(v.versionId, v)
  })
  await cdp.send('ServiceWorker.enable')
  return versions
}

describe('the PWA in real Chromium', () => {
  it('is installable, works offline from the shell, caches no /api answer and precaches only the shell', async () => {
    const app = await start()
    const context = await persistentPhone()
    const page = await openIndex(context, app.url)
    const errors = watchErrors(page)
    // Claimed on first install, without a reload: what the page loaded before must reach the cache.
    expect(await controlled(page)).toBe(false)
    // The assets loaded before the worker took over (the home screen, the locale) are handed to it.
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name))
        .filter((u) => u.origin === location.origin && u.pathname.startsWith('/assets/'))
        .map((u) => u.pathname),
    )
    expect(loaded.length).toBeGreaterThan(0)
    await expect
      .poll(() => page.evaluate(async (paths) => (await Promise.all(paths.map((p) => caches.match(p)))).filter((r) => !r).length, loaded), {
        timeout: 10_000,
      })
      .toBe(0)

    const cdp = await context.newCDPSession(page)
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] }
    expect(manifest.url).toBe(`${app.url}/manifest.webmanifest`)
    expect(manifest.errors).toEqual([])
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    expect(installabilityErrors).toEqual([])

    // Navigations the shell must leave alone go to the network; client routes get the shell.
    const other = await context.newPage()
    for (const [url, fromWorker] of [
      ['/notice', true],
      ['/api/docs', false],
      ['/index?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn', false],
      ['/wc?uri=wc%3Aabc', false],
      ['/banners/banner-1.svg', false],
    ] as const) {
      const r = await other.goto(`${app.url}${url}`)
      expect(r?.fromServiceWorker(), url).toBe(fromWorker)
    }
    await other.close()

    // Sign-out empties the user's caches (and only those): here a token that the server refuses.
    await page.evaluate(async () => {
      await (await caches.open('nadi-user-test')).put('/user-data', new Response('private'))
      await (await caches.open('other-test')).put('/other', new Response('kept'))
      sessionStorage.setItem('token', JSON.stringify({ value: 'x'.repeat(43), expires: Date.now() + 3000 }))
    })
    await page.reload()
    await page.locator('.tabbar').waitFor()
    await expect.poll(() => page.evaluate(() => caches.has('nadi-user-test')), { timeout: 10_000 }).toBe(false)
    expect(await page.evaluate(() => caches.delete('other-test'))).toBe(true)

    // API calls under the worker, public and with a token: none may land in a cache.
    await page.evaluate(async () => {
      await fetch('/api/v1/common/config')
      await fetch('/api/v1/notice/list')
      await fetch('/api/v1/user/info', { headers: { authorization: `Bearer ${'x'.repeat(43)}` } })
    })

    const contents = await cacheContents(page)
    for (const [name, paths] of Object.entries(contents)) {
      expect(paths.filter((p) => p.startsWith('/api')), name).toEqual([])
    }

    // The precache: the shell's code, the pages and icons, nothing else (no wallet, no other locale, no twin).
    const precacheName = Object.keys(contents).find((n) => n.startsWith('workbox-precache'))
    expect(precacheName).toBeDefined()
    const precached = contents[precacheName!]!.map((p) => p.replace(/\?__WB_REVISION__=\w+$/, ''))
    const dist = path.resolve('dist')
    const walletChunks = fs.readdirSync(path.join(dist, 'assets')).filter((f) => /^(onboard|demoWallet|web3|ethers)[\w-]*\.js$/i.test(f))
    expect(walletChunks.length).toBeGreaterThan(0)
    for (const f of walletChunks) expect(precached).not.toContain(`/assets/${f}`)
    expect(precached.filter((p) => p.endsWith('.br') || p.endsWith('.gz'))).toEqual([])
    expect(precached.filter((p) => p.startsWith('/assets/')).sort()).toEqual(shellCode(dist))
    expect(precached.filter((p) => !p.startsWith('/assets/')).sort()).toEqual(
      [
        '/index.html',
        '/favicon.svg',
        '/manifest.webmanifest',
        '/icons/apple-touch-icon-180.png',
        '/icons/icon-192.png',
        '/icons/icon-512.png',
        '/icons/maskable-192.png',
        '/icons/maskable-512.png',
      ].sort(),
    )
    expect(errors).toEqual([])

    // Offline, a reload still renders the shell, answered by the worker.
    await context.setOffline(true)
    const res = await page.reload()
    expect(res?.fromServiceWorker()).toBe(true)
    await page.locator('.tabbar').waitFor({ timeout: 10_000 })
    // The worker's own network is offline too: an uncached asset cannot be fetched.
    const fetched = await page.evaluate(() => fetch('/assets/not-cached-0000.js').then(() => 'fetched', () => 'failed'))
    expect(fetched).toBe('failed')
    await context.setOffline(false)
    await context.close()
  })

  it('a new deploy shows the update prompt and swaps code only on the user’s click', async () => {
    // A copy of dist the test can "deploy" into, without a rebuild.
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-pwa-dist-'))
    tmpDirs.push(dist)
    fs.cpSync('dist', dist, { recursive: true })
    const app = await start({ NADI_DIST_DIR: dist })
    const context = await phone(browser)
    const page = await openIndex(context, app.url)
    await controlled(page)
    const cdp = await context.newCDPSession(page)
    const versions = await watchVersions(cdp)
    await expect.poll(() => [...versions.values()].filter((v) => v.status === 'activated').length).toBe(1)
    const first = [...versions.values()].find((v) => v.status === 'activated')!
    expect(await page.locator('.update-prompt').count()).toBe(0)

    // The deploy: a changed sw.js (its precompressed twins would be served instead, so they go).
    fs.appendFileSync(path.join(dist, 'sw.js'), `\n// revision ${Date.now()}\n`)
    for (const twin of ['sw.js.br', 'sw.js.gz']) fs.rmSync(path.join(dist, twin), { force: true })

    await page.evaluate(() => void Object.assign(window, { beforeUpdate: true }))
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()))
    await page.locator('.update-prompt').waitFor({ timeout: 15_000 })
    const second = () => [...versions.values()].find((v) => v.versionId !== first.versionId)

    // Nothing swaps by itself: the new worker waits, the page is the same page.
    await page.waitForTimeout(1500)
    expect(second()?.status).toBe('installed')
    expect(versions.get(first.versionId)?.status).toBe('activated')
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBe(true)
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r !== undefined && r.waiting !== null))).toBe(true)

    // "Later" hides it; a plain reload neither activates the new worker nor forgets it.
    await page.locator('.update-prompt .btn.ghost').click()
    await page.locator('.update-prompt').waitFor({ state: 'detached' })
    await page.reload()
    await page.locator('.update-prompt').waitFor({ timeout: 15_000 })
    expect(second()?.status).toBe('installed')

    // "Reload": the new worker takes over and the page reloads under it.
    await page.evaluate(() => void Object.assign(window, { beforeUpdate: true }))
    await page.locator('.update-prompt .btn.primary').click()
    await page.waitForFunction(() => !(window as unknown as { beforeUpdate?: boolean }).beforeUpdate, undefined, { timeout: 15_000 })
    await page.locator('.tabbar').waitFor()
    await expect.poll(() => second()?.status, { timeout: 10_000 }).toBe('activated')
    expect(versions.get(first.versionId)?.status).toBe('redundant')
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r !== undefined && r.waiting === null))).toBe(true)
    expect(await page.locator('.update-prompt').count()).toBe(0)
    await context.close()
  })
})
