// The demo ships by itself (issue 33, newcomer moment 5) in real Chromium at 360 px: a device bought
// from balance shows shipped a few seconds later with its tracking number and activation code; the
// user confirms receipt and activates the device on /ming with the code the card shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { DEMO_EXPRESS_COMPANY } from '../../server/modules/preOrder/demoShipping.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { buyPhoneFromBalance, newcomerOnPhone, shows, text } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // Long enough for the purchase flow to see the order pending shipment first.
  app = await startApp({ NADI_DEMO_SHIP_AFTER_MS: '4000' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

describe('the demo ships its own orders in real Chromium', () => {
  it('a device bought from balance ships by itself; receipt is confirmed and the device activated with the code shown', async () => {
    const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await transfer(app.ctx.sql, { ref: 'e2e:demoShipping:credit', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 1_000_000n * 100_000_000n })
    await buyPhoneFromBalance(app, page, userId)
    const { id, order_no } = (await app.ctx.sql.get(statement<{ id: bigint; order_no: string }>("SELECT id, order_no FROM pay_orders WHERE user_id = ? AND type = 'device'"), userId))!

    // Nobody ships it: the demo's job does, once it has been paid for the delay.
    await expect.poll(async () => (await app.ctx.sql.get(statement<{ fulfilment: string }>('SELECT fulfilment FROM pay_orders WHERE id = ?'), id))!.fulfilment, { timeout: 20_000 }).toBe('pending_receipt')
    await page.goto(`${app.url}/shop/orderList`)
    await page.getByTestId('shop-orders-tab-pending_receipt').click()
    const card = page.locator(`[data-testid="shop-order"][data-id="${id}"]`).filter({ visible: true })
    await shows(card.getByTestId('shop-order-status')).toBe(text('tw', 'shopOrders.status.pending_receipt'))
    await shows(card.getByTestId('shop-order-express')).toContain(DEMO_EXPRESS_COMPANY)
    await shows(card.getByTestId('shop-order-express-no')).toContain(order_no.replace(/[^A-Za-z0-9]/g, '').slice(-8))
    await shows(card.getByTestId('shop-order-codes')).toContain(text('tw', 'shopOrders.activationCodes'))
    const code = (await card.getByTestId('shop-order-code').locator('.mono').innerText()).trim()
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/)

    await card.getByTestId('shop-order-receive').click()
    await page.locator('.sheet .btn.primary').click()
    await expect.poll(async () => (await app.ctx.sql.get(statement<{ fulfilment: string }>('SELECT fulfilment FROM pay_orders WHERE id = ?'), id))!.fulfilment, { timeout: 10_000 }).toBe('completed')

    await page.goto(`${app.url}/ming`)
    const device = page.getByTestId('device').first()
    await device.getByTestId('device-activate').click()
    await page.getByTestId('device-code').fill(code)
    await page.getByTestId('device-activate-submit').click()
    await shows(device.getByTestId('device-status')).toBe(text('tw', 'device.status.success'))
    expect(errors).toEqual([])
    await context.close()
  })
})
