// The orders after payment in real Chromium (issue 10 part 6; SPEC §2, §4): a device order bought and
// paid from balance waits under "pending shipment" on /shop/orderList; the operator ships it and the
// card shows the carrier and number; the user confirms receipt and it is completed. A gold order's
// first release arrives when its first day has begun, on /shop/orderRelease (gold) and in the money
// log; its detail copies the express number (and says so when the clipboard is refused). Offline, the
// lists render from the saved cache and a confirmation of receipt waits in the outbox, marked pending,
// and is sent when the network is back — also when the clock confirmed that order meanwhile (the
// server's 409 "already confirmed" ends the queued item as done).
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Address } from '../../contract/address.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PayOrder } from '../../contract/orders.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { autoConfirmReceipts, shipOrder } from '../../server/modules/preOrder/service.ts'
import { releaseDue } from '../../server/modules/release/service.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text } from './support/flows.ts'
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

const DAY = 86_400_000
const UNIT = 100_000_000n

/** A call to the API as the signed-in user of `page` (the token the app stored). */
async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const stored = await page.evaluate(() => sessionStorage.getItem('token'))
  const token = (JSON.parse(stored ?? '{}') as { value?: string }).value
  const res = await fetch(`${app.url}/api/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, LANG: 'EN', ...(method === 'POST' ? { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() } : {}) },
    body: method === 'POST' ? JSON.stringify(body ?? {}) : null,
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  if (res.status !== 200 || env.code !== 200) throw new Error(`${path}: HTTP ${res.status} ${env.msg}`)
  return env.data
}

async function product(area: 'machine' | 'gold', pick: (g: GoodsItem) => boolean): Promise<GoodsDetail> {
  const list = (await (await fetch(`${app.url}/api/v1/${area}/goodsList?page_size=50`)).json()).data as PagedList<GoodsItem>
  const item = list.list.find(pick)
  if (!item) throw new Error(`no ${area} product fits`)
  return (await (await fetch(`${app.url}/api/v1/${area}/goodsDetail?id=${item.id}`)).json()).data as GoodsDetail
}

let refs = 0
/** Money arrives as a deposit would: through the ledger, from chain custody. */
const credit = (userId: number, asset: 'USDT' | 'NADI', whole: bigint) =>
  transfer(app.ctx.sql, { ref: `e2e:shopOrders:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset, amount: whole * UNIT })

/** Buys one unit of a product through the API (preOrder/preOrder) and pays it from balance. Returns the order id. */
async function buyAndPay(page: Page, area: 'machine' | 'gold', goods: GoodsDetail, addressId: number): Promise<number> {
  const spec = goods.specs.find((s) => s.stock > 0)!
  const r = await api<PreOrderResult>(page, 'POST', 'preOrder/preOrder', { area, goods_id: goods.id, spec_id: spec.id, quantity: 1, address_id: addressId, remark: 'e2e: leave at the door' })
  const paid = await api<PayOrder>(page, 'POST', 'orders/payByBalance', { id: r.order.id })
  expect(paid.status).not.toBe('pending_payment')
  return r.order.id
}

const card = (page: Page, id: number) => page.locator(`[data-testid="shop-order"][data-id="${id}"]`).filter({ visible: true })
const fulfilment = async (id: number) => ((await app.ctx.sql.get(statement<{ fulfilment: string; received_by: string | null }>('SELECT fulfilment, received_by FROM pay_orders WHERE id = ?'), id))!)

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true)
  await page.evaluate(() => window.dispatchEvent(new Event('offline')))
}
async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false)
  await page.evaluate(() => window.dispatchEvent(new Event('online')))
}

/** Waits until the service worker controls the page, so a reload offline is served from its cache. */
async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
}

/** Taps "Confirm receipt" on a card and says yes in the confirm popup. */
async function confirmReceipt(page: Page, id: number) {
  await card(page, id).getByTestId('shop-order-receive').click()
  await page.locator('.sheet .btn.primary').click()
}

describe('orders after payment in real Chromium', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number
  let addressId: number
  let device: GoodsDetail

  it('a paid device order waits under "pending shipment"; shipped, its card shows the express number; receipt confirmed, it is completed', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    await credit(userId, 'USDT', 1_000_000n)
    addressId = (await api<Address>(page, 'POST', 'address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })).id
    device = await product('machine', (g) => g.kind === 'foldable')
    const id = await buyAndPay(page, 'machine', device, addressId)

    await page.goto(`${app.url}/shop/orderList`)
    await page.getByTestId('shop-orders-tab-pending_shipment').click()
    await shows(card(page, id).getByTestId('shop-order-status')).toBe(text('tw', 'shopOrders.status.pending_shipment'))
    await shows(card(page, id).getByTestId('shop-order-line')).toContain(device.name)
    await shows(card(page, id).getByTestId('shop-order-qty')).toBe('×1')
    expect(await card(page, id).getByTestId('shop-order-receive').count()).toBe(0)
    // The details unfold in place (device orders have no detail route): the masked phone, the remark, the times.
    await card(page, id).getByTestId('shop-order-toggle').click()
    await shows(card(page, id).getByTestId('shop-order-address')).toContain('091****678')
    await shows(card(page, id).getByTestId('shop-order-remark')).toContain('e2e: leave at the door')
    await card(page, id).getByTestId('shop-order-time-pay').waitFor()

    // The operator ships it.
    await shipOrder(app.ctx, id, 'SF Express', 'SF1234567890')
    await page.getByTestId('shop-orders-tab-pending_receipt').click()
    await shows(card(page, id).getByTestId('shop-order-express-no')).toBe('SF1234567890')
    await shows(card(page, id).getByTestId('shop-order-express')).toContain('SF Express')

    // Confirm receipt, asked first: the order leaves "pending receipt" and is completed.
    await confirmReceipt(page, id)
    await expect.poll(() => card(page, id).count(), { timeout: 10_000 }).toBe(0)
    expect(await fulfilment(id)).toEqual({ fulfilment: 'completed', received_by: 'user' })
    await page.getByTestId('shop-orders-tab-completed').click()
    await shows(card(page, id).getByTestId('shop-order-status')).toBe(text('tw', 'shopOrders.status.completed'))
    await card(page, id).getByTestId('shop-order-toggle').click()
    await card(page, id).getByTestId('shop-order-time-confirm').waitFor()
  })

  it('a gold order’s first release arrives the day after payment: on /shop/orderRelease (gold), in its detail, and in the money log', async () => {
    const gold = await product('gold', (g) => g.release !== null)
    const id = await buyAndPay(page, 'gold', gold, addressId)
    // Nothing is due on the day of payment.
    expect(await releaseDue(app.ctx)).toEqual([])
    // The server's clock moves one day on: the first instalment is posted.
    const posted = await releaseDue({ ...app.ctx, now: () => Date.now() + DAY })
    expect(posted.length).toBeGreaterThanOrEqual(1)

    await page.goto(`${app.url}/shop/orderRelease`)
    await page.getByTestId('release-tab-gold').click()
    const plan = page.locator(`[data-testid="release-plan"][data-order-id="${id}"]`).filter({ visible: true })
    await shows(plan.getByTestId('release-status')).toBe(text('tw', 'release.status.releasing'))
    await shows(plan.getByTestId('release-days')).toBe(text('tw', 'release.daysOf', { done: 1, days: gold.release!.days }))
    await shows(plan.getByTestId('release-title')).toBe(gold.name)
    const released = (await plan.getByTestId('release-released').innerText()).split(' ')[0]!
    expect(Number(released.replace(/,/g, ''))).toBeGreaterThan(0)

    // The mall's list opens the order's detail, which shows the same progress.
    await page.goto(`${app.url}/mall/orderList`)
    await card(page, id).getByTestId('shop-order-open').click()
    await page.waitForURL(`${app.url}/mall/orderDetail?id=${id}`)
    await shows(page.getByTestId('shop-order-release').filter({ visible: true }).getByTestId('release-days')).toBe(
      text('tw', 'release.daysOf', { done: 1, days: gold.release!.days }),
    )
    await shows(page.getByTestId('shop-order-address').filter({ visible: true })).toContain('091****678')

    // Shipped, the detail shows the carrier and number; the copy button copies it, and says so when refused.
    await shipOrder(app.ctx, id, 'Kerry Express', 'KR-20250001')
    await page.reload()
    const express = page.getByTestId('shop-order-express').filter({ visible: true })
    await shows(express.getByTestId('shop-order-express-no')).toBe('KR-20250001')
    await page.getByTestId('shop-order-auto-confirm').filter({ visible: true }).waitFor()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url })
    await express.locator('.copy-btn').click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('KR-20250001')
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))
      document.execCommand = () => false
    })
    await express.locator('.copy-btn').click()
    await shows(page.locator('.toast.error')).toBe(text('tw', 'errors.copyFailed'))

    // The money log has the release.
    await page.goto(`${app.url}/wallet/moneyLog`)
    await shows(page.locator('.record[data-type="release"]').filter({ visible: true }), 10_000).toContain(text('tw', 'moneyLog.type.release'))
  })

  it('offline: the list renders from the saved cache; receipts confirmed offline wait as pending and complete when back online, also one the clock confirmed meanwhile', async () => {
    const a = await buyAndPay(page, 'machine', device, addressId)
    const b = await buyAndPay(page, 'machine', device, addressId)
    await shipOrder(app.ctx, a, 'SF Express', 'SFA0001')
    await shipOrder(app.ctx, b, 'Kerry', 'KR-0002')
    await controlled(page)
    await page.goto(`${app.url}/shop/orderList?status=pending_receipt`)
    await card(page, a).waitFor()
    await card(page, b).waitFor()
    await page.waitForTimeout(1500) // the persister writes at most once a second

    // Offline, after a reload: the saved list, saying it is an offline copy.
    await goOffline(context, page)
    await page.reload()
    await card(page, a).waitFor()
    await shows(card(page, b).getByTestId('shop-order-express-no')).toBe('KR-0002')
    await expect.poll(() => page.locator('[data-testid="freshness"].offline').filter({ visible: true }).count(), { timeout: 5000 }).toBe(1)

    // Both confirmations wait in the outbox, marked pending; nothing reaches the server.
    await confirmReceipt(page, a)
    await shows(card(page, a).getByTestId('shop-order-queued')).toContain(text('tw', 'shopOrders.receiptPending'))
    await confirmReceipt(page, b)
    await card(page, b).getByTestId('shop-order-queued').waitFor()
    expect(await card(page, a).getAttribute('data-pending')).toBe('true')
    expect((await fulfilment(a)).fulfilment).toBe('pending_receipt')

    // Meanwhile the clock confirms b (shipped long enough ago): its queued confirmation will be answered 409.
    await app.ctx.sql.run(statement('UPDATE pay_orders SET shipped_at = ? WHERE id = ?'), Date.now() - 30 * DAY, b)
    expect(await autoConfirmReceipts(app.ctx)).toBe(1)

    // Back online: both are sent, in order; the 409 "already confirmed" ends as done, not stuck.
    const answers: number[] = []
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v1/machine/receipt')) answers.push(r.status())
    })
    await goOnline(context, page)
    // Wait for both answers: a card leaves the pending-receipt list as soon as a refetch shows it
    // completed (b by the clock), which can be before its queued confirmation is sent.
    await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(2)
    await expect.poll(() => page.locator('[data-testid="shop-order-queued"]').count(), { timeout: 20_000 }).toBe(0)
    await expect.poll(() => card(page, a).count(), { timeout: 10_000 }).toBe(0)
    await expect.poll(() => card(page, b).count(), { timeout: 10_000 }).toBe(0)
    expect(answers).toEqual([200, 409])
    expect(await fulfilment(a)).toEqual({ fulfilment: 'completed', received_by: 'user' })
    expect(await fulfilment(b)).toEqual({ fulfilment: 'completed', received_by: 'auto' })
    await page.getByTestId('shop-orders-tab-completed').click()
    await card(page, a).waitFor()
    await card(page, b).waitFor()
    expect(errors).toEqual([])
    await context.close()
  })
})
