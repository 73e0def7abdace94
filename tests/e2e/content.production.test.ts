// A production start has nothing seeded: its home screen and notice list show only what the operator
// publishes with the CLI (`notice load|unpublish`, `banner load|remove`), here from the example files
// docs/commands.md documents, in real Chromium on a phone.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { main as cli } from '../../server/cli.ts'
import { freePort } from '../integration/support/child.ts'
import { operatorEnv } from '../integration/support/operatorEnv.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text, visible } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

interface Texts {
  title: Record<string, string>
}
const examples = (name: string) => JSON.parse(fs.readFileSync(path.join('docs/examples', name), 'utf8')) as Record<string, (Texts & { key: string; state?: string })[]>
const published = examples('notices.json').notices!.filter((n) => (n.state ?? 'published') === 'published')
const banners = examples('banners.json').banners!

let app: RunningApp
let browser: Browser

async function run(...argv: string[]) {
  let err = ''
  const code = await cli(argv, { env: operatorEnv(app.ctx.config), io: { out: () => undefined, err: (t) => void (err += t) } })
  expect(code, err).toBe(0)
}

beforeAll(async () => {
  const port = await freePort()
  app = await startApp({ NADI_ENV: 'production', NADI_DEMO: '0', NADI_PUBLIC_URL: `http://127.0.0.1:${port}`, NADI_ENVELOPE: 'off' }, { port })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

it('production shows no banner and no notice until the CLI loads them; what it unpublishes or removes disappears', async () => {
  expect((await app.ctx.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM notices')))?.v).toBe(0n)
  const { context, page } = await newcomerOnPhone(browser, app)
  await page.goto(`${app.url}/notice`)
  await shows(page.getByText(text('tw', 'notice.empty'))).toBe(text('tw', 'notice.empty'))
  expect(await visible(page, 'notice-item').count()).toBe(0)

  await run('notice', 'load', 'docs/examples/notices.json')
  await run('banner', 'load', 'docs/examples/banners.json')
  // The public lists may be kept by the browser for their max-age (docs/commands.md): past it.
  const cdp = await context.newCDPSession(page)
  const pastMaxAge = () => cdp.send('Network.clearBrowserCache')
  await pastMaxAge()
  await page.reload()
  await expect.poll(() => visible(page, 'notice-item').count(), { timeout: 15_000 }).toBe(published.length)
  const pinned = published.find((n) => (n as { pinned?: boolean }).pinned) ?? published[0]!
  await shows(visible(page, 'notice-item').first()).toContain(pinned.title.TW)

  // Public lists may be kept by a browser for their max-age: a visitor's new context asks afresh.
  const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } })

  const visitor = await fresh.newPage()
  await visitor.goto(`${app.url}/index`)
  await shows(visitor.locator('.banner-title').first()).toBe(banners[0]!.title.TW)

  await run('notice', 'unpublish', published[0]!.key)
  await run('banner', 'remove', banners[0]!.key)
  await pastMaxAge()
  await page.reload()
  await expect.poll(() => visible(page, 'notice-item').count(), { timeout: 15_000 }).toBe(published.length - 1)
  const later = await browser.newContext({ viewport: { width: 360, height: 760 } })
  const again = await later.newPage()
  await again.goto(`${app.url}/index`)
  await again.locator('#root > .app:not([data-snapshot])').waitFor()
  await expect.poll(() => again.locator('.banner-title').filter({ hasText: banners[0]!.title.TW }).count(), { timeout: 10_000 }).toBe(0)
  await Promise.all([context.close(), fresh.close(), later.close()])
})
