// Devices in real Chromium (issue 11 part 2; SPEC §2 /ming, §4 device activation, §5 code required):
// a user with a paid device order sees it on /ming as pending; the operator ships it, which issues
// the activation code the CLI prints; a wrong code shows the server's words and changes nothing; the
// printed code activates it and the card reads success with its activation time.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { Address } from '../../contract/address.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { GoodsDetail, GoodsItem } from '../../contract/goods.ts'
import type { PreOrderResult } from '../../contract/preOrder.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { shipOrder } from '../../server/modules/preOrder/service.ts'
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

async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  const stored = await page.evaluate(() => sessionStorage.getItem('token'))
  const token = (JSON.parse(stored ?? '{}') as { value?: string }).value
  const res = await fetch(`${app.url}/api/v1/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, LANG: 'EN', 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify(body),
  })
  const env = (await res.json()) as { code: number; msg: string; data: T }
  if (res.status !== 200 || env.code !== 200) throw new Error(`${path}: HTTP ${res.status} ${env.msg}`)
  return env.data
}

describe('my machines in real Chromium', () => {
  it('a paid, shipped device is activated on /ming with the code printed by ship; a wrong code shows the error', async () => {
    const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await transfer(app.ctx.sql, { ref: 'e2e:device:credit', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 1_000_000n * 100_000_000n })
    const address = await api<Address>(page, 'address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })
    const list = (await (await fetch(`${app.url}/api/v1/machine/goodsList?page_size=50`)).json()).data as PagedList<GoodsItem>
    const item = list.list.find((g) => g.power !== '0')!
    const goods = (await (await fetch(`${app.url}/api/v1/machine/goodsDetail?id=${item.id}`)).json()).data as GoodsDetail
    const spec = goods.specs.find((s) => s.stock > 0)!
    const { order } = await api<PreOrderResult>(page, 'preOrder/preOrder', { area: 'machine', goods_id: goods.id, spec_id: spec.id, quantity: 1, address_id: address.id })
    await api(page, 'orders/payByBalance', { id: order.id })

    // Paid, not shipped: pending, with no code to enter yet.
    await page.goto(`${app.url}/ming`)
    const card = page.getByTestId('device').first()
    await shows(card.getByTestId('device-status')).toBe(text('tw', 'device.status.pending'))
    await shows(card).toContain(goods.name)
    expect(await card.getByTestId('device-activate').count()).toBe(0)

    // The operator ships it: `ship` prints the code of each device (the same list shipOrder answers).
    const shipped = await shipOrder(app.ctx, Number(order.id), 'SF Express', 'SF1234567890')
    const [printed] = shipped.device_codes
    expect(printed!.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/)
    await page.getByTestId('devices-refresh').click()
    await card.getByTestId('device-activate').click()

    // Empty: the code is required (SPEC §5), nothing is sent.
    await page.getByTestId('device-activate-submit').click()
    await shows(page.getByTestId('device-activate-error')).toBe(text('tw', 'device.codeRequired'))
    // A wrong code: the server's words under the field, and the device is still pending.
    await page.getByTestId('device-code').fill('AAAA-BBBB-CCCC-DDDD')
    await page.getByTestId('device-activate-submit').click()
    await shows(page.getByTestId('device-activate-error')).toContain(text('tw', 'errors.deviceCodeWrong'))
    expect(await app.ctx.sql.get(statement<{ status: unknown }>('SELECT status FROM devices WHERE id = ?'), printed!.device_id)).toEqual({ status: 'pending' })

    // The printed code, typed in lower case without dashes: activated.
    await page.getByTestId('device-code').fill(printed!.code.replace(/-/g, '').toLowerCase())
    await page.getByTestId('device-activate-submit').click()
    await shows(card.getByTestId('device-status')).toBe(text('tw', 'device.status.success'))
    await card.getByTestId('device-activated-at').waitFor()
    expect(await card.getByTestId('device-activate').count()).toBe(0)
    expect(await app.ctx.sql.get(statement<{ n: bigint }>("SELECT COUNT(*) AS n FROM positions WHERE kind = 'device' AND source = ?"), `device:${printed!.device_id}`)).toEqual({ n: 1n })
    expect(errors).toEqual([])
    await context.close()
  })
})
