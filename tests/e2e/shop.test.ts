// The buying half in real Chromium (issue 10, part 6): a newcomer goes from home to the device shop,
// opens the foldable phone, picks a specification and a quantity, adds a delivery address on the way,
// confirms, says "pay now" in the popup and pays from balance in the payment dialog, and lands on the
// device order list with the order paid and pending shipment. A gold product shows its price in parts;
// a car is confirmed without an address and left unpaid, and home reminds of it; the order button is
// off offline, and the shop opens offline from the saved cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { GoodsDetail } from '../../contract/goods.ts'
import { formatMoney, parseMoney } from '../../contract/money.ts'
import { balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text, visible } from './support/flows.ts'
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

const UNIT = 100_000_000n
const path = (page: Page) => new URL(page.url()).pathname

async function api<T>(p: string, token: string): Promise<T> {
  const r = await fetch(`${app.url}/api/v1/${p}`, { headers: { Authorization: `Bearer ${token}`, LANG: 'TW' } })
  const body = (await r.json()) as { code: number; data: T }
  expect(body.code).toBe(200)
  return body.data
}

/** Waits until the service worker controls the page, so a reload offline is served from its cache. */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true)
  await page.evaluate(() => window.dispatchEvent(new Event('offline')))
}

describe('shopping in real Chromium', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number
  let token: string

  it('a newcomer buys a foldable phone: spec and quantity, an address added on the way, pay now from balance, and lands on the device orders', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    token = (JSON.parse((await page.evaluate(() => sessionStorage.getItem('token'))) ?? '{}') as { value: string }).value
    await transfer(app.ctx.sql, { ref: 'e2e:shop:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 10_000n * UNIT })

    // Home → the device shop → the foldable tab → the foldable phone.
    await visible(page, 'shortcut-shop').click()
    await page.getByTestId('shop-tab-foldable').click()
    const foldable = (await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM products WHERE area = 'machine' AND kind = 'foldable' ORDER BY sort, id LIMIT 1")))!
    const card = page.locator(`[data-testid="shop-list-foldable"] [data-testid="goods-card"][data-id="${foldable.id}"]`)
    await card.click()
    expect(path(page)).toBe(`/shop/detail/${foldable.id}`)

    // The second specification, two of them.
    const detail = await api<GoodsDetail>(`machine/goodsDetail?id=${foldable.id}`, token)
    const spec = detail.specs[1]!
    await shows(visible(page, 'goods-name')).toBe(detail.name)
    await visible(page, 'spec-chip').and(page.locator(`[data-id="${spec.id}"]`)).click()
    await shows(visible(page, 'spec-stock')).toBe(text('tw', 'goods.stock', { stock: spec.stock }))
    await visible(page, 'quantity-plus').click()
    expect(await visible(page, 'quantity-input').inputValue()).toBe('2')
    await visible(page, 'buy-now').click()
    expect(path(page)).toBe('/shop/orderConfirm')
    expect(new URL(page.url()).search).toBe(`?goods=${foldable.id}&spec=${spec.id}&qty=2`)

    // No address yet: ordering asks for one; adding one comes back here with it chosen.
    await shows(visible(page, 'order-total')).toBe(`${formatMoney(2n * parseMoney(spec.price)!).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} USDT`)
    await visible(page, 'order-submit').click()
    await shows(page.locator('[data-testid="order-address"] [data-field="address"]').filter({ visible: true })).toBe(text('tw', 'preOrder.addressRequired'))
    await visible(page, 'order-address-add').click()
    expect(path(page)).toBe('/address/add')
    await page.locator('input[name="name"]:visible').fill('陳小明')
    await page.locator('input[name="phone"]:visible').fill('0912 345 678')
    await page.locator('input[name="area"]:visible').fill('臺北市信義區')
    await page.locator('textarea[name="address"]:visible').fill('松仁路 100 號 8 樓')
    await page.locator('form button[type="submit"]:visible').click()
    await expect.poll(() => path(page), { timeout: 10_000 }).toBe('/shop/orderConfirm')
    await shows(visible(page, 'order-address-selected')).toContain('陳小明')
    await visible(page, 'order-remark').fill('請於平日送達')

    // Place the order; the popup asks to pay now; the dialog pays from balance.
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
    // Its dismiss button says what it does: the order waits to be paid later.
    await shows(page.locator('.sheet .btn.ghost')).toBe(text('tw', 'preOrder.payLater'))
    await page.locator('.sheet .btn.primary').click()
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    await page.getByTestId('payment-done').click()
    await expect.poll(() => path(page), { timeout: 10_000 }).toBe('/shop/orderList')

    // The order, as the server has it: paid, pending shipment, the spec, quantity, address and remark.
    const row = (await app.ctx.sql.get(statement<{
      id: bigint
      fulfilment: string
      remark: string
    }>("SELECT o.id, o.fulfilment, o.remark FROM pay_orders o WHERE o.user_id = ? AND o.type = 'device'"), userId))!
    expect(row).toMatchObject({ fulfilment: 'pending_shipment', remark: '請於平日送達' })
    expect((await api<{ status: string }>(`orders/detail?id=${row.id}`, token)).status).toBe('paid')
    const orders = await api<{ list: { id: number; status: string; lines: { spec_id: number; quantity: number }[]; ship_to: { name: string } | null }[] }>('machine/orderList', token)
    expect(orders.list).toHaveLength(1)
    expect(orders.list[0]).toMatchObject({ id: Number(row.id), status: 'pending_shipment', lines: [{ spec_id: spec.id, quantity: 2 }], ship_to: { name: '陳小明' } })
    expect((await balance(app.ctx.sql, fund(userId), 'USDT')).available).toBe(10_000n * UNIT - 2n * parseMoney(spec.price)!)
  })

  it('a gold product shows its price in parts: weight × the gold price per gram + the craft fee', async () => {
    await page.goto(`${app.url}/mall`)
    await visible(page, 'gold-price').waitFor()
    await visible(page, 'gold-sparkline').waitFor()
    await page.locator('[data-testid="mall-shelf"]:visible [data-testid="goods-card"]').first().click()
    const id = Number(path(page).split('/').pop())
    await visible(page, 'gold-breakdown').waitFor()
    const d = await api<GoodsDetail>(`gold/goodsDetail?id=${id}`, token)
    const spec = d.specs.find((s) => s.stock > 0)!
    const fee = parseMoney(spec.craft_fee!)!
    const price = parseMoney(spec.price)!
    await shows(visible(page, 'breakdown-weight')).toBe(text('tw', 'mall.grams', { weight: spec.weight! }))
    // The gold price moves (the demo's walk): the parts shown always add up to the price shown.
    const shown = async (t: string) => parseMoney((await visible(page, t).innerText()).replace(/[^\d.]/g, ''))!
    expect((await shown('breakdown-metal')) + (await shown('breakdown-craft'))).toBe(await shown('breakdown-price'))
    expect(await shown('breakdown-craft')).toBe(fee)
    expect(price).toBeGreaterThan(fee)
  })

  it('a car is confirmed without an address; left unpaid from the popup, it waits in /orders and home reminds of it', async () => {
    await page.goto(`${app.url}/cars`)
    await visible(page, 'car-buy').first().click()
    await page.getByTestId('car-continue').click()
    expect(path(page)).toBe('/shop/orderConfirm')
    expect(new URL(page.url()).searchParams.get('area')).toBe('car')
    await visible(page, 'order-no-shipping').waitFor()
    expect(await visible(page, 'order-address').count()).toBe(0)
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
    // A tap on the overlay is a "no": the popup rejects, and the order waits.
    await page.locator('.overlay').click({ position: { x: 5, y: 5 } })
    await shows(page.locator('.toast')).toBe(text('tw', 'preOrder.waiting'))
    await visible(page, 'order-placed').waitFor()
    const car = (await app.ctx.sql.get(statement<{ id: bigint; state: string }>("SELECT id, state FROM pay_orders WHERE user_id = ? AND type = 'car'"), userId))!
    expect(car.state).toBe('open')

    await page.goto(`${app.url}/index`)
    const reminder = visible(page, 'unpaid-reminder')
    await shows(reminder).toContain(text('tw', 'home.unpaidCount', { count: 1 }))
    await shows(visible(page, 'unpaid-countdown')).toMatch(/\d\d:\d\d/)
    await reminder.click()
    expect(path(page)).toBe('/orders')
    await page.locator(`[data-testid="payorder-row"][data-id="${car.id}"]`).filter({ visible: true }).waitFor()
  })

  it('offline, ordering is off and says why; the shop opens from the saved cache after a reload', async () => {
    await controlled(page)
    await page.goto(`${app.url}/shop`)
    await visible(page, 'goods-card').first().waitFor()
    const first = await visible(page, 'goods-card').first().getAttribute('data-id')
    await page.goto(`${app.url}/shop/detail/${first}`)
    await visible(page, 'buy-now').click()
    await visible(page, 'order-submit').waitFor()
    await page.waitForTimeout(1500) // the persister writes at most once a second

    await goOffline(context, page)
    await visible(page, 'offline-reason').waitFor()
    expect(await visible(page, 'order-submit').isDisabled()).toBe(true)

    await page.goto(`${app.url}/shop`).catch(() => {})
    // A cold start from the worker and IndexedDB: ~3 s here alone, past 15 s once while both test
    // suites shared the two cores.
    await visible(page, 'goods-card').first().waitFor({ timeout: 30_000 })
    await page.locator('.freshness.offline').filter({ visible: true }).waitFor()
    await context.setOffline(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
