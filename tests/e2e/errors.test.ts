// SPEC §8's error catalogue where the user meets it. Answers the server cannot be made to give (a 403,
// a 5xx, a detail without its order, a receipt refused mid-flight) are put in place of its own with
// page.route(); the rest happen naturally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { Address } from '../../contract/address.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { shipOrder } from '../../server/modules/preOrder/service.ts'
import { launch, phone, ROOT_CODE, startApp, type RunningApp } from './support/app.ts'
import { injectTestWallet } from './support/wallet.ts'
import { apiAs, connectTestWallet, newcomerOnPhone, png, shows, text } from './support/flows.ts'
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

/** A device bought through the API by the user of `page`, paid from balance and shipped: its order id and printed activation code. */
async function shippedDevice(page: Page, userId: number): Promise<{ orderId: number; code: string }> {
  const api = apiAs(app, page)
  await transfer(app.ctx.sql, { ref: `e2e:errors:credit:${userId}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 1_000_000n * 100_000_000n })
  const address = await api<Address>('address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })
  const item = (await api<PagedList<GoodsItem>>('machine/goodsList?page_size=50')).list.find((g) => g.power !== '0')!
  const goods = await api<GoodsDetail>(`machine/goodsDetail?id=${item.id}`)
  const spec = goods.specs.find((x) => x.stock > 0)!
  const { order } = await api<PreOrderResult>('preOrder/preOrder', { area: 'machine', goods_id: goods.id, spec_id: spec.id, quantity: 1, address_id: address.id })
  await api('orders/payByBalance', { id: order.id })
  const shipped = await shipOrder(app.ctx, Number(order.id), 'SF Express', 'SF1234567890')
  return { orderId: Number(order.id), code: shipped.device_codes[0]!.code }
}

describe.each([360, 390])('the error catalogue at %i px', (width) => {
  it('with no wallet in the browser and no demo wallet, connecting says “install a wallet”', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width, height: 800 })
    await page.route('**/api/v1/common/config', async (route) => {
      const res = await route.fetch()
      const body = (await res.json()) as { data: { demo: boolean } }
      body.data.demo = false
      await route.fulfill({ response: res, json: body })
    })
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await page.locator('.sheet .btn.primary').click()
    await shows(page.locator('.sheet .form-error')).toBe(text('tw', 'wallet.install'))
    await context.close()
  })

  it('a 403 says “no permission” and a 5xx “server error, try again later”, not the server’s text', async () => {
    const { context, page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    let status = 403
    await page.route('**/api/v1/notice/**', (route) => route.fulfill({ status, json: { code: status, msg: 'internal: stack trace here', data: null } }))
    await page.goto(`${app.url}/notice`)
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.noPermission'))
    status = 502
    await page.goto(`${app.url}/notice`)
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.server'))
    expect(await page.locator('.toast').allInnerTexts()).not.toContain('internal: stack trace here')
    await context.close()
  })

  it('a 401 with body code 200 at sign-in says “enter with an invite code” and asks for one', async () => {
    const context = await phone(browser)
    const page = await context.newPage()
    await page.setViewportSize({ width, height: 800 })
    await injectTestWallet(context)
    // The app believed this new address registered (a stale answer), so it signs in without a code: the server's 401.
    await page.route('**/api/v1/auth/isRegister', (route) => route.fulfill({ json: { code: 200, msg: '', data: { registered: true } } }))
    await page.goto(`${app.url}/?code=${ROOT_CODE}`)
    await connectTestWallet(page)
    await page.locator('.sheet .btn.primary').click()
    await shows(page.locator('.sheet .form-error')).toBe(text('tw', 'errors.inviteRequired'))
    await page.locator('.sheet input[name="invite"]').waitFor()
    await context.close()
  })

  it('the order detail says when the id is missing, when loading failed (with why), and when the answer has no order', async () => {
    const { context, page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    await page.goto(`${app.url}/mall/orderDetail`)
    await shows(page.getByTestId('shop-order-id-missing')).toBe(text('tw', 'shopOrders.idMissing'))

    // No such order: the server's 404, worded as the failed detail with its reason, and a retry.
    await page.goto(`${app.url}/mall/orderDetail?id=987654321`)
    const failed = page.getByTestId('shop-order-failed')
    await shows(failed, 30_000).toContain(text('tw', 'shopOrders.detailFailed'))
    await shows(failed).toContain(text('tw', 'errors.orderNotFound'))

    await page.route('**/api/v1/gold/orderDetail**', (route) => route.fulfill({ json: { code: 200, msg: '', data: null } }))
    await page.goto(`${app.url}/mall/orderDetail?id=987654322`)
    await shows(page.getByTestId('shop-order-data-missing')).toBe(text('tw', 'shopOrders.dataMissing'))
    await context.close()
  })

  it('a wrong activation code says “activation failed” with why; a refused receipt says it failed with why, then a receipt says it is confirmed', async () => {
    const { context, page, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    const { orderId } = await shippedDevice(page, userId)

    await page.goto(`${app.url}/ming`)
    const device = page.getByTestId('device').first()
    await device.getByTestId('device-activate').click()
    await page.getByTestId('device-code').fill('AAAA-BBBB-CCCC-DDDD')
    await page.getByTestId('device-activate-submit').click()
    await shows(page.getByTestId('device-activate-error')).toBe(text('tw', 'device.activateFailed', { reason: text('tw', 'errors.deviceCodeWrong') }))

    // The server refuses the receipt (as it does for an order not shipped): the failure, with its reason alone.
    const refusal = text('tw', 'errors.receiptNotPending')
    await page.route('**/api/v1/machine/receipt', (route) => route.fulfill({ status: 409, json: { code: 409, msg: refusal, data: null } }))
    await page.goto(`${app.url}/shop/orderList?status=pending_receipt`)
    const card = page.locator(`[data-testid="shop-order"][data-id="${orderId}"]`).filter({ visible: true })
    await card.getByTestId('shop-order-receive').click()
    await page.locator('.sheet .btn.primary').click()
    const failedWords = text('tw', 'shopOrders.receiptFailed', { reason: refusal })
    await shows(page.locator('.toast', { hasText: failedWords })).toBe(failedWords)
    expect((await app.ctx.sql.get(statement<{ fulfilment: unknown }>('SELECT fulfilment FROM pay_orders WHERE id = ?'), orderId))?.fulfilment).toBe('pending_receipt')

    await page.unroute('**/api/v1/machine/receipt')
    await card.getByTestId('shop-order-receive').click()
    await page.locator('.sheet .btn.primary').click()
    await expect.poll(async () => (await app.ctx.sql.get(statement<{ fulfilment: unknown }>('SELECT fulfilment FROM pay_orders WHERE id = ?'), orderId))?.fulfilment, { timeout: 15_000 }).toBe('completed')
    const doneWords = text('tw', 'shopOrders.receiptDone')
    await shows(page.locator('.toast', { hasText: doneWords })).toBe(doneWords)
    await context.close()
  })

  it('a refused car application says “car application failed” with the server’s reason', async () => {
    const { context, page } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    const car = Number((await app.ctx.sql.get(statement<{ id: unknown }>("SELECT id FROM products WHERE area = 'car' AND active = 1 ORDER BY sort, id LIMIT 1")))?.id)
    await page.goto(`${app.url}/apply?goods=${car}`)
    await expect.poll(() => page.locator('select[name="goods_id"]:visible').inputValue(), { timeout: 30_000 }).toBe(String(car))
    await page.locator('input[name="name"]:visible').fill('林美')
    await page.locator('input[name="phone"]:visible').fill('0912-345-678')
    await page.locator('input[name="id_number"]:visible').fill('A123456789')
    await page.locator('input[name="city"]:visible').fill('台北市')
    for (const doc of ['id_front', 'driver_licence']) {
      await page.locator(`input[type="file"][name="${doc}"]`).setInputFiles({ name: `${doc}.png`, mimeType: 'image/png', buffer: png() })
      await expect.poll(() => page.getByTestId(`doc-${doc}`).getAttribute('data-state'), { timeout: 15_000 }).toBe('uploaded')
    }
    // The server's refusal for a user with too many applications waiting, in its own words.
    const reason = text('tw', 'errors.carApplyLimit', { max: 3 })
    await page.route('**/api/v1/car/apply', (route) => route.fulfill({ status: 409, json: { code: 409, msg: reason, data: null } }))
    await page.locator('form[data-testid="apply-form"] button[type="submit"]:visible').click()
    await shows(page.getByTestId('apply-refused')).toBe(`${text('tw', 'errors.carApplyFailed')}: ${reason}`)
    await shows(page.locator('.toast')).toContain(text('tw', 'errors.carApplyFailed'))
    await context.close()
  })
})
