import fs from 'node:fs'
import { expect } from 'vitest'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { injectTestWallet, type TestWallet } from './wallet.ts'

type Tree = { [k: string]: string | Tree }
const cache = new Map<string, Tree>()

/** A string from a locale file, so tests assert what a user of that language reads. */
export function text(locale: string, key: string, params: Record<string, string | number> = {}): string {
  let dict = cache.get(locale)
  if (!dict) cache.set(locale, (dict = JSON.parse(fs.readFileSync(`locales/${locale}.json`, 'utf8')) as Tree))
  let node: string | Tree | undefined = dict
  for (const k of key.split('.')) node = typeof node === 'object' ? node[k] : undefined
  if (typeof node !== 'string') throw new Error(`no ${key} in ${locale}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, n: string) => String(params[n] ?? ''))
}

/** Opens the wallet modal from the sign-in sheet and picks the injected test wallet. */
export async function connectTestWallet(page: Page): Promise<void> {
  await page.locator('.sheet .btn.primary').click()
  await page.getByText('Test Wallet', { exact: true }).first().click()
  await page.locator('.sheet .kv .mono').waitFor()
}

/**
 * The invite-link journey: open /?code=…, connect, sign. Resolves once a token is stored.
 */
export async function signInThroughInvite(context: BrowserContext, page: Page, url: string, code: string, wallet?: TestWallet): Promise<TestWallet> {
  const w = wallet ?? (await injectTestWallet(context))
  await page.goto(`${url}/?code=${code}`)
  await connectTestWallet(page)
  await page.locator('.sheet .btn.primary').click()
  await page.waitForFunction(() => sessionStorage.getItem('token') !== null)
  await page.locator('.sheet').waitFor({ state: 'detached' })
  return w
}

/**
 * Polls what a locator shows until the assertion holds (vitest has no Playwright matchers). Only
 * visible matches count: screens kept alive stay in the DOM, hidden.
 */
export const shows = (locator: Locator, timeout = 10_000) => {
  const visible = locator.filter({ visible: true })
  return expect.poll(async () => ((await visible.count()) > 0 ? (await visible.first().innerText()).trim() : null), { timeout, interval: 100 })
}
export const valueOf = (locator: Locator, timeout = 10_000) => expect.poll(() => locator.inputValue(), { timeout, interval: 100 })
