// A phone whose clock is minutes off still counts an unpaid order down to the moment the server ends
// it: the app asks GET_TIME over the socket and counts on the server's clock (DESIGN §5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { apiAs, newcomerOnPhone, visible } from './support/flows.ts'

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

/** The phone's clock 7 minutes behind: every Date.now() the page reads. */
const SKEW_MS = -7 * 60_000

/** "請在 14:58 內付款" → seconds. */
const secondsShown = (s: string) => {
  const m = /(?:(\d+):)?(\d\d):(\d\d)/.exec(s)
  if (!m) return null
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3])
}

describe.each([360, 390])('an unpaid order’s countdown at %i px', (width) => {
  it('shows the time the server leaves, though the phone’s clock is 7 minutes behind', async () => {
    const { context, page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
    await page.setViewportSize({ width, height: 800 })
    const api = apiAs(app, page)
    const car = (await api<{ list: { id: number }[] }>('car/goodsList?page_size=50')).list[0]!
    const spec = (await api<{ specs: { id: number }[] }>(`car/goodsDetail?id=${car.id}`)).specs[0]!
    const { order } = await api<{ order: { id: number; expires_at: number } }>('preOrder/preOrder', { area: 'car', goods_id: car.id, spec_id: spec.id, quantity: 1 })

    await context.addInitScript((skew) => {
      const real = Date.now.bind(Date)
      Date.now = () => real() + skew
    }, SKEW_MS)
    await page.goto(`${app.url}/orders`)
    const countdown = visible(page, 'payorder-countdown')
    await countdown.first().waitFor()
    // The server's remaining time, give or take the poll and a round trip.
    await expect
      .poll(async () => Math.abs((secondsShown(await countdown.first().innerText()) ?? -1e9) - (order.expires_at - Date.now()) / 1000), { timeout: 10_000, interval: 200 })
      .toBeLessThan(3)
    expect(errors).toEqual([])
    await context.close()
  })
})
