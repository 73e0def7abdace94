// The newcomer's payment moments of issue 33 in Chromium, at 360 and 390 px. Moment 2: the wallet the
// user signed in with pays recharges and orders without being connected again, across a change of
// chain, and the network chips the flow waits for are on the first screen. Moment 3: "pay from my
// wallet instead" can be taken back to the balance, and placing the same order again after closing
// the dialog (even after a reload) resumes it: one intent, one order, still listed with its countdown.
// Moment 8: a gold price reads in cents on the detail, the confirm screen and the payment, and the
// balance goes down by exactly that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { createPayOrder } from '../../server/modules/orders/service.ts'
import { recordGoldPrice } from '../../server/modules/goods/service.ts'
import { launch, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { fillAddress, shows, signInThroughInvite, text, userIdOf, visible } from './support/flows.ts'
import { injectTestWallet } from './support/wallet.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser
const UNIT = 100_000_000n

beforeAll(async () => {
  // The gold price stands still here; the test records its own, of eight decimals.
  app = await startApp({ NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual', NADI_GOLD_WALK_MS: '0' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const PHONES = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
] as const

let refs = 0
const credit = (userId: number, usdt: bigint) =>
  transfer(app.ctx.sql, { ref: `e2e:newcomer-pay:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: usdt * UNIT })
const view = (page: Page) => expect.poll(() => page.getByTestId('payment-dialog').getAttribute('data-view'), { timeout: 15_000, interval: 100 })
/** Opened in the app, as a tap would: a reload would start a new page session. */
const inApp = (page: Page, path: string) =>
  page.evaluate((p) => {
    history.pushState(null, '', p)
    dispatchEvent(new PopStateEvent('popstate'))
  }, path)
/** The element is on the first screen: inside the viewport, nothing of it below the fold. */
async function onFirstScreen(page: Page, testId: string, height: number): Promise<void> {
  const box = await visible(page, testId).boundingBox()
  expect(box, testId).not.toBeNull()
  expect(box!.y).toBeGreaterThanOrEqual(0)
  expect(box!.y + box!.height).toBeLessThanOrEqual(height)
}

async function newcomer(size: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; userId: number; errors: string[] }> {
  const cfg = (await (await fetch(`${app.url}/api/v1/common/config`)).json()).data as { chains: { id: number }[] }
  const context = await browser.newContext({ viewport: size, deviceScaleFactor: 2, hasTouch: true })
  const wallet = await injectTestWallet(context, { chainId: cfg.chains[0]!.id, chains: cfg.chains.map((c) => c.id) })
  const page = await context.newPage()
  const errors = watchErrors(page)
  await signInThroughInvite(context, page, app.url, ROOT_CODE, wallet)
  return { context, page, userId: await userIdOf(app, wallet.address), errors }
}

describe.each(PHONES)('paying as a newcomer at $width × $height', (size) => {
  it('the wallet signed in with pays a recharge on either chain and an order, never connected again; the network chips are on the first screen', async () => {
    const { context, page, userId, errors } = await newcomer(size)
    const me = (await app.ctx.sql.get(statement<{ wallet_address: string }>('SELECT wallet_address FROM users WHERE id = ?'), userId))!.wallet_address
    await inApp(page, '/recharge?coin=USDT&chain=bsc')
    await shows(page.getByTestId('pay-from')).toMatch(new RegExp(me.slice(0, 6), 'i'))
    expect(await visible(page, 'pay-connect').count()).toBe(0)
    expect(await visible(page, 'pay-other-account').count()).toBe(0)
    // Another chain: the same wallet, still not connected again.
    await visible(page, 'deposit').waitFor()
    await page.locator('.chip', { hasText: text('tw', 'chains.nadi') }).filter({ visible: true }).click()
    await shows(page.getByTestId('deposit-address')).not.toBeNull()
    await shows(page.getByTestId('pay-from')).toMatch(new RegExp(me.slice(0, 6), 'i'))
    expect(await visible(page, 'pay-connect').count()).toBe(0)

    const id = await createPayOrder(app.ctx, { userId, type: 'device', asset: 'USDT', total: 30n * UNIT })
    await inApp(page, '/orders')
    await page.locator(`[data-testid="payorder-row"][data-id="${id}"] [data-testid="payorder-pay"]`).click()
    await page.getByTestId('payment-use-wallet').click()
    await view(page).toBe('chooseChain')
    expect(await page.getByTestId('payment-connect').count()).toBe(0)
    await onFirstScreen(page, 'payment-chains', size.height)

    // A reload keeps the session but not the connection: the wallet signed in with is taken up again, no picker.
    await page.goto(`${app.url}/orders`)
    await page.locator(`[data-testid="payorder-row"][data-id="${id}"] [data-testid="payorder-pay"]`).click()
    await page.getByTestId('payment-use-wallet').click()
    await view(page).toBe('chooseChain')
    expect(await page.locator('onboard-v2').evaluate((el) => el.shadowRoot?.querySelector('.wallets-container') ?? null)).toBeNull()
    await page.goto(`${app.url}/recharge?coin=USDT&chain=bsc`)
    await shows(page.getByTestId('pay-from')).toMatch(new RegExp(me.slice(0, 6), 'i'))
    expect(await visible(page, 'pay-connect').count()).toBe(0)
    expect(errors).toEqual([])
    await context.close()
  })

  it('"pay from my wallet instead" goes back to the balance, which pays exactly the total shown', async () => {
    const { context, page, userId, errors } = await newcomer(size)
    await credit(userId, 100n)
    const id = await createPayOrder(app.ctx, { userId, type: 'device', asset: 'USDT', total: 30n * UNIT })
    await inApp(page, '/orders')
    await page.locator(`[data-testid="payorder-row"][data-id="${id}"] [data-testid="payorder-pay"]`).click()
    await page.getByTestId('payment-use-wallet').click()
    await view(page).toBe('chooseChain')
    await page.getByTestId('payment-use-balance').click()
    await view(page).toBe('payOptions')
    await onFirstScreen(page, 'payment-pay-balance', size.height)
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    expect((await balance(app.ctx.sql, fund(userId), 'USDT')).available).toBe(70n * UNIT)
    expect(errors).toEqual([])
    await context.close()
  })

  it('the same order placed again after closing the dialog and reloading resumes it: one order, listed with its countdown', async () => {
    const { context, page, userId, errors } = await newcomer(size)
    const phone = (await app.ctx.sql.get(statement<{ id: bigint; spec: bigint }>("SELECT p.id, s.id AS spec FROM products p JOIN product_specs s ON s.product_id = p.id WHERE p.area = 'machine' AND s.stock > 2 ORDER BY p.sort, p.id, s.id LIMIT 1")))!
    const confirmUrl = `${app.url}/shop/orderConfirm?goods=${phone.id}&spec=${phone.spec}&qty=1`
    await page.goto(confirmUrl)
    await visible(page, 'order-address-add').click()
    await fillAddress(page, { name: '陳小明', phone: '0912 345 678', area: '臺北市信義區', address: '松仁路 100 號 8 樓' })
    await page.locator('form button[type="submit"]:visible').click()
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
    await page.locator('.sheet .btn.primary').click()
    await page.getByTestId('payment-dialog').waitFor()
    await page.locator('.sheet .icon-btn').click()
    await page.getByTestId('payment-dialog').waitFor({ state: 'detached' })
    const first = (await app.ctx.sql.get(statement<{ id: bigint; order_no: string }>("SELECT id, order_no FROM pay_orders WHERE user_id = ? AND state = 'open'"), userId))!

    // Tapped again from a fresh screen: the same order, resumed.
    await page.goto(confirmUrl)
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.resumedTitle'))
    await shows(page.locator('.sheet')).toContain(first.order_no)
    await page.locator('.sheet .btn.primary').click()
    await page.getByTestId('payment-dialog').waitFor()
    expect(await app.ctx.sql.get(statement<{ n: bigint }>('SELECT count(*) AS n FROM pay_orders WHERE user_id = ?'), userId)).toEqual({ n: 1n })
    await page.locator('.sheet .icon-btn').click()

    await inApp(page, '/orders')
    await expect.poll(() => page.getByTestId('payorder-row').filter({ visible: true }).count(), { timeout: 10_000 }).toBe(1)
    expect(await visible(page, 'payorder-row').getAttribute('data-id')).toBe(String(first.id))
    await shows(page.getByTestId('payorder-countdown')).toMatch(/\d/)
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('what is charged is what was shown (360 px)', () => {
  it('a gold bar reads in cents on the detail, the confirm screen and the payment, and the balance goes down by exactly that', async () => {
    const { context, page, userId, errors } = await newcomer(PHONES[0])
    await credit(userId, 100_000n)
    // A price per gram of eight decimals: weight × it has more than two.
    await recordGoldPrice(app.ctx, app.ctx.sql, Date.now(), 10_082_625_99n)
    const bar = (await app.ctx.sql.get(statement<{ id: bigint; spec: bigint }>("SELECT p.id, s.id AS spec FROM products p JOIN product_specs s ON s.product_id = p.id WHERE p.area = 'gold' AND s.stock > 0 AND s.weight_mg IS NOT NULL ORDER BY p.sort, p.id, s.id LIMIT 1")))!
    await page.goto(`${app.url}/mall/detail/${bar.id}`)
    await visible(page, 'spec-chip').first().waitFor()
    await page.locator(`[data-testid="spec-chip"]:visible`).nth(0).click()
    const shownDetail = (await page.locator('.goods-price strong').filter({ visible: true }).first().innerText()).trim()
    expect(shownDetail).toMatch(/^\d{1,3}(,\d{3})*(\.\d{1,2})?$/)

    await page.goto(`${app.url}/mall/orderConfirm?goods=${bar.id}&spec=${bar.spec}&qty=1`)
    await visible(page, 'order-address-add').click()
    await fillAddress(page, { name: '陳小明', phone: '0912 345 678', area: '臺北市信義區', address: '松仁路 100 號 8 樓' })
    await page.locator('form button[type="submit"]:visible').click()
    const shownConfirm = (await visible(page, 'order-total').innerText()).replace(/\s*USDT$/, '').trim()
    expect(shownConfirm).toBe(shownDetail)
    await visible(page, 'order-submit').click()
    await page.locator('.sheet .btn.primary').click()
    await shows(page.getByTestId('payment-total')).toBe(`${shownDetail} USDT`)
    const before = (await balance(app.ctx.sql, fund(userId), 'USDT')).available
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    const taken = before - (await balance(app.ctx.sql, fund(userId), 'USDT')).available
    expect(taken).toBe(BigInt(Math.round(Number(shownDetail.replaceAll(',', '')) * 100)) * 1_000_000n)
    expect(errors).toEqual([])
    await context.close()
  })
})
