// The journey on PostgreSQL in real Chromium (issue 18): the same server on NADI_DATABASE_URL — a
// newcomer signs in, a deposit on the local chain is credited after its confirmations, a phone is
// bought and paid from the balance, and a limit order rests on the market. The rest of the e2e suite
// runs on SQLite; this file shows the app whole on the other backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { parseUnits } from 'ethers'
import { dialectOf } from '../../server/db/connection.ts'
import { audit, balance, fund, trade, transfer } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text, visible } from './support/flows.ts'
import { freshDatabase, type TestDatabase } from '../support/pg.ts'

let app: RunningApp
let browser: Browser
let db: TestDatabase

beforeAll(async () => {
  db = freshDatabase()
  app = await startApp({ NADI_DATABASE_URL: db.url, NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
  db?.drop()
})

const UNIT = 100_000_000n
const path = (page: Page) => new URL(page.url()).pathname

describe('the journey on PostgreSQL', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number

  it('runs on PostgreSQL', () => {
    expect(dialectOf(app.ctx.sqlite)).toBe('postgres')
  })

  it('a newcomer signs in, and USDT paid into their deposit address is credited after 3 confirmations', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    // The deposit address the recharge screen hands out (and the watcher then watches).
    await page.goto(`${app.url}/recharge?coin=USDT&chain=bsc`)
    const deposit = await page.getByTestId('deposit-address').innerText()
    expect(deposit).toBe(app.gateway.depositAddress('bsc', userId))
    await app.gateway.faucet('bsc', deposit, { USDT: parseUnits('5000', 18) })
    await app.gateway.dev!.mine('bsc', 3)
    await expect.poll(() => balance(app.ctx.sqlite, fund(userId), 'USDT').available, { timeout: 15_000 }).toBe(5000n * UNIT)
    await page.goto(`${app.url}/wallet`)
    await shows(page.getByTestId('available-USDT-fund')).toMatch(/^5,?000(\.0+)?$/)
  })

  it('buys a phone and pays it from the balance', async () => {
    await page.goto(`${app.url}/`)
    await visible(page, 'shortcut-shop').click()
    const phone = app.ctx.sqlite.prepare("SELECT p.id, s.id AS spec, s.price FROM products p JOIN product_specs s ON s.product_id = p.id WHERE p.area = 'machine' AND s.stock > 0 ORDER BY p.sort, p.id, s.id LIMIT 1").get() as { id: bigint; spec: bigint; price: bigint }
    await page.goto(`${app.url}/shop/orderConfirm?goods=${phone.id}&spec=${phone.spec}&qty=1`)
    await visible(page, 'order-submit').click()
    await visible(page, 'order-address-add').click()
    await page.locator('input[name="name"]:visible').fill('陳小明')
    await page.locator('input[name="phone"]:visible').fill('0912 345 678')
    await page.locator('input[name="area"]:visible').fill('臺北市信義區')
    await page.locator('textarea[name="address"]:visible').fill('松仁路 100 號 8 樓')
    await page.locator('form button[type="submit"]:visible').click()
    await expect.poll(() => path(page), { timeout: 10_000 }).toBe('/shop/orderConfirm')
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
    await page.locator('.sheet .btn.primary').click()
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    const row = app.ctx.sqlite.prepare("SELECT fulfilment FROM pay_orders WHERE user_id = ? AND type = 'device'").get(userId) as { fulfilment: string }
    expect(row.fulfilment).toBe('pending_shipment')
    expect(balance(app.ctx.sqlite, fund(userId), 'USDT').available).toBe(5000n * UNIT - phone.price)
  })

  it('places a limit order that rests on the book and holds its funds', async () => {
    transfer(app.ctx.sqlite, { ref: 'e2e:pg:to-trade', reason: 'transfer', from: fund(userId), to: trade(userId), asset: 'USDT', amount: 100n * UNIT })
    await page.goto(`${app.url}/trade`)
    const form = page.getByTestId('order-form').filter({ visible: true })
    await form.locator('.side-switch .side-btn.buy').click()
    await form.getByRole('button', { name: text('tw', 'trade.type.limit'), exact: true }).click()
    await form.locator('input[name="price"]').fill('0.01')
    await form.locator('input[name="size"]').fill('200')
    await form.getByTestId('place-order').click()
    await page.locator('.sheet .btn.primary').click()
    await shows(page.locator('.toast')).toContain(text('tw', 'trade.placed.pending'))
    expect(balance(app.ctx.sqlite, trade(userId), 'USDT').frozen).toBe(2n * UNIT)
    expect(audit(app.ctx.sqlite).violations).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
