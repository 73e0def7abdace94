import fs from 'node:fs'
import { randomUUID } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { expect } from 'vitest'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { parseUnits } from 'ethers'
import { balance, fund, trade, transfer } from '../../../server/ledger/index.ts'
import { airplaneMode } from '../../../scripts/chromium.ts'
import { phone, ROOT_CODE, watchErrors, type RunningApp } from './app.ts'
import { injectTestWallet, type TestWallet } from './wallet.ts'
import { statement } from '../../../server/db/query/types.ts'

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

/** A test id's visible elements (a screen kept alive in the background holds hidden twins). */
export const visible = (page: Page, testId: string): Locator => page.getByTestId(testId).filter({ visible: true })

/** Fills the visible address form (add or edit). */
export async function fillAddress(page: Page, f: { name: string; phone: string; area: string; address: string }): Promise<void> {
  await page.locator('input[name="name"]:visible').fill(f.name)
  await page.locator('input[name="phone"]:visible').fill(f.phone)
  await page.locator('input[name="area"]:visible').fill(f.area)
  await page.locator('textarea[name="address"]:visible').fill(f.address)
}

/** A small real PNG (a 16×12 gradient), made here: signature, IHDR, IDAT, IEND with their CRCs. */
export function png(width = 16, height = 12): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (b: Buffer) => {
    let c = 0xffffffff
    for (const x of b) c = table[(c ^ x) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([len, body, sum])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  const rows = Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (_, x) => [x * 16, y * 20, 180]).flat()]))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}

/** The user id of a wallet that signed in. */
export async function userIdOf(app: RunningApp, address: string): Promise<number> {
  return Number((await app.ctx.sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), address.toLowerCase()))!.id)
}

export interface Newcomer {
  context: BrowserContext
  page: Page
  /** Console and page errors seen so far (watchErrors). */
  errors: string[]
  wallet: TestWallet
  userId: number
}

/**
 * A new user on a phone, signed in through an invite link (the root's by default), with the page's
 * errors watched; `seenChainNotice` keeps the one-time chain upgrade notice from covering the screen;
 * `onPage` sees the page before anything is loaded (to watch its traffic from the first request).
 */
export async function newcomerOnPhone(browser: Browser, app: RunningApp, opts: { code?: string; seenChainNotice?: boolean; onPage?: (page: Page) => void } = {}): Promise<Newcomer> {
  const context = await phone(browser)
  const page = await context.newPage()
  const errors = watchErrors(page)
  opts.onPage?.(page)
  if (opts.seenChainNotice) await page.addInitScript(() => localStorage.setItem('chain_notice_seen', 'nadi-chain-upgrade-1'))
  const wallet = await signInThroughInvite(context, page, app.url, opts.code ?? ROOT_CODE)
  return { context, page, errors, wallet, userId: await userIdOf(app, wallet.address) }
}

/** Calls the API as the user signed in on `page` (the token the app stored); throws on any refusal. */
export function apiAs(app: RunningApp, page: Page) {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const token = (JSON.parse((await page.evaluate(() => sessionStorage.getItem('token'))) ?? '{}') as { value?: string }).value
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() }
    const res = await fetch(`${app.url}/api/v1/${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) })
    const env = (await res.json()) as { code: number; msg: string; data: T }
    if (res.status !== 200 || env.code !== 200) throw new Error(`${path}: HTTP ${res.status} ${env.msg}`)
    return env.data
  }
}

/** Waits until the service worker controls the page, so a reload offline is served from its cache. */
export async function swControlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

/**
 * The app has drawn the home screen itself: until then a start may show index.html's snapshot of it
 * (src/features/home/snapshot.ts), the same content but inert.
 */
export async function homeDrawn(page: Page): Promise<void> {
  await page.locator('#root > .app:not([data-snapshot]) .banner-title').first().waitFor()
}

const backOnline = new WeakMap<BrowserContext, () => Promise<void>>()

/**
 * The network goes, and the page hears it at once (as a phone's does); documents loaded from now on
 * start offline (scripts/chromium.ts `airplaneMode`).
 */
export async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  if (!backOnline.has(context)) backOnline.set(context, await airplaneMode(context))
  await page.evaluate(() => window.dispatchEvent(new Event('offline')))
}

/** The network returns after `goOffline`, and the page hears it at once. */
export async function goOnline(context: BrowserContext, page: Page): Promise<void> {
  const back = backOnline.get(context)
  backOnline.delete(context)
  await (back ? back() : context.setOffline(false))
  await page.evaluate(() => {
    ;(window as { __nadiBackOnline?: () => void }).__nadiBackOnline?.()
    window.dispatchEvent(new Event('online'))
  })
}

const UNIT = 100_000_000n
const pathOf = (page: Page) => new URL(page.url()).pathname

// The journey's steps (postgres.test.ts, envelope.test.ts): the app whole, each step checked on the books.

/** USDT paid into the deposit address the recharge screen hands out, credited after 3 confirmations and shown in the wallet. Needs NADI_DEV_CHAINS with manual blocks. */
export async function depositUsdt(app: RunningApp, page: Page, userId: number, usdt: bigint): Promise<void> {
  await page.goto(`${app.url}/recharge?coin=USDT&chain=bsc`)
  const deposit = await page.getByTestId('deposit-address').innerText()
  expect(deposit).toBe(app.gateway.depositAddress('bsc', userId))
  await app.gateway.faucet('bsc', deposit, { USDT: parseUnits(String(usdt), 18) })
  await app.gateway.dev!.mine('bsc', 3)
  await expect.poll(async () => (await balance(app.ctx.sql, fund(userId), 'USDT')).available, { timeout: 15_000 }).toBe(usdt * UNIT)
  await page.goto(`${app.url}/wallet`)
  await shows(page.getByTestId('available-USDT-fund')).toMatch(new RegExp(`^${usdt.toLocaleString('en-US').replaceAll(',', ',?')}(\\.0+)?$`))
}

/** The first phone in stock, bought from the shop with a new address and paid from the balance: answers its price. */
export async function buyPhoneFromBalance(app: RunningApp, page: Page, userId: number): Promise<bigint> {
  const before = (await balance(app.ctx.sql, fund(userId), 'USDT')).available
  await page.goto(`${app.url}/`)
  await visible(page, 'shortcut-shop').click()
  const phone = (await app.ctx.sql.get(statement<{ id: bigint; spec: bigint; price: bigint }>("SELECT p.id, s.id AS spec, s.price FROM products p JOIN product_specs s ON s.product_id = p.id WHERE p.area = 'machine' AND s.stock > 0 ORDER BY p.sort, p.id, s.id LIMIT 1")))!
  await page.goto(`${app.url}/shop/orderConfirm?goods=${phone.id}&spec=${phone.spec}&qty=1`)
  await visible(page, 'order-submit').click()
  await visible(page, 'order-address-add').click()
  await fillAddress(page, { name: '陳小明', phone: '0912 345 678', area: '臺北市信義區', address: '松仁路 100 號 8 樓' })
  await page.locator('form button[type="submit"]:visible').click()
  await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe('/shop/orderConfirm')
  await visible(page, 'order-submit').click()
  await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
  await page.locator('.sheet .btn.primary').click()
  await page.getByTestId('payment-pay-balance').click()
  await shows(page.getByTestId('payment-success')).not.toBeNull()
  const row = (await app.ctx.sql.get(statement<{ fulfilment: string }>("SELECT fulfilment FROM pay_orders WHERE user_id = ? AND type = 'device'"), userId))!
  expect(row.fulfilment).toBe('pending_shipment')
  expect((await balance(app.ctx.sql, fund(userId), 'USDT')).available).toBe(before - phone.price)
  return phone.price
}

/** 100 USDT moved to trading, and a limit buy of 200 NADI at 0.01 placed that rests on the book, holding 2 USDT. */
export async function placeRestingOrder(app: RunningApp, page: Page, userId: number, ref: string): Promise<void> {
  await transfer(app.ctx.sql, { ref, reason: 'transfer', from: fund(userId), to: trade(userId), asset: 'USDT', amount: 100n * UNIT })
  await page.goto(`${app.url}/trade`)
  const form = page.getByTestId('order-form').filter({ visible: true })
  await form.locator('.side-switch .side-btn.buy').click()
  await form.getByRole('button', { name: text('tw', 'trade.type.limit'), exact: true }).click()
  await form.locator('input[name="price"]').fill('0.01')
  await form.locator('input[name="size"]').fill('200')
  await form.getByTestId('place-order').click()
  await page.locator('.sheet .btn.primary').click()
  await shows(page.locator('.toast')).toContain(text('tw', 'trade.placed.pending'))
  expect((await balance(app.ctx.sql, trade(userId), 'USDT')).frozen).toBe(2n * UNIT)
}
