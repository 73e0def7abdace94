// The address book's failures in real Chromium (SPEC §8): an edit link opened cold loads its address
// through address/addressDetail, and each operation that fails says which one did and why — the
// server's reason for a refusal, "System error" for a broken server — leaving the data as it was.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { Address } from '../../contract/address.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text, valueOf } from './support/flows.ts'

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

async function addAddress(page: Page, body: Record<string, unknown>): Promise<Address> {
  const stored = await page.evaluate(() => sessionStorage.getItem('token'))
  const token = (JSON.parse(stored ?? '{}') as { value?: string }).value
  const res = await fetch(`${app.url}/api/v1/address/addAddress`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, LANG: 'TW', 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify(body),
  })
  return ((await res.json()) as { data: Address }).data
}

/** What the user reads when `operation` fails for `reason` (Traditional Chinese, the phone's language). */
const failed = (operation: string, reason: string) => text('tw', 'errors.failedBecause', { what: text('tw', `errors.failed.${operation}`), reason })
const toast = (page: Page) => page.locator('.toast.error').last()

describe('address failures say which operation failed (SPEC §8)', () => {
  it('an edit link opened cold loads through addressDetail; a broken server, a refused delete and a refused default each show their own message', async () => {
    const { page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    const home = await addAddress(page, { name: '林美', phone: '0912345678', area: '臺北市信義區', address: '松仁路 1 號', is_default: true })
    const office = await addAddress(page, { name: '陳大文', phone: '0922333444', area: '新北市板橋區', address: '文化路 2 號', is_default: false })

    // A link to the edit screen, no list ever loaded: the address comes from address/addressDetail.
    const detailCall = page.waitForRequest((r) => r.url().includes(`/api/v1/address/addressDetail?id=${office.id}`))
    await page.goto(`${app.url}/address/edit?id=${office.id}`)
    await detailCall
    await valueOf(page.locator('input[name="name"]:visible')).toBe('陳大文')
    await valueOf(page.locator('textarea[name="address"]:visible')).toBe('文化路 2 號')

    // The server breaks while saving the edit: "Could not save the address: System error", nothing changed.
    await page.route('**/api/v1/address/editAddress', (r) => r.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }))
    await page.locator('input[name="name"]:visible').fill('陳小文')
    await page.locator('form button[type="submit"]:visible').click()
    await shows(toast(page)).toBe(failed('addressEdit', text('tw', 'errors.systemError')))
    expect(new URL(page.url()).pathname).toBe('/address/edit')
    await page.unroute('**/api/v1/address/editAddress')

    // A detail the server cannot give: the screen names what failed.
    await page.route('**/api/v1/address/addressDetail*', (r) => r.fulfill({ status: 502, body: '' }))
    await page.goto(`${app.url}/address/edit?id=${home.id}`)
    await shows(page.getByTestId('load-failed').filter({ visible: true }), 15_000).toBe(failed('addressDetail', text('tw', 'errors.systemError')))
    await page.unroute('**/api/v1/address/addressDetail*')

    // The list: deleting answered with the server's refusal shows it after "Could not delete the address".
    await page.goto(`${app.url}/address`)
    await expect.poll(() => page.locator('.address-item').count(), { timeout: 10_000 }).toBe(2)
    const refusal = '這個地址已被其他裝置刪除'
    await page.route('**/api/v1/address/deleteAddress', (r) => r.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 404, msg: refusal, data: null }) }))
    await page.locator('.address-item', { hasText: '陳大文' }).locator('button', { hasText: text('tw', 'address.delete') }).click()
    await page.locator('.sheet button.danger').click()
    await shows(toast(page)).toBe(failed('addressDelete', refusal))
    await page.unroute('**/api/v1/address/deleteAddress')

    // Setting the default, the server broken: its own message, and the default stays where it was.
    await page.route('**/api/v1/address/setDefaultAddress', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: 'db locked', data: null }) }))
    await page.locator('.address-item', { hasText: '陳大文' }).locator('button', { hasText: text('tw', 'address.setDefault') }).click()
    await shows(toast(page)).toBe(failed('addressSetDefault', text('tw', 'errors.systemError')))
    await page.unroute('**/api/v1/address/setDefaultAddress')
    await page.reload()
    await shows(page.locator('.address-item').first().locator('strong').first()).toContain('林美')
    expect(await page.locator('.address-item').count()).toBe(2)
    expect(errors).toEqual([])
  })
})
