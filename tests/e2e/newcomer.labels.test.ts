// What a newcomer reads on the mining and trade screens (issue 33 items 9 and 10): the trial power
// they were given is labelled as trial power, the 0 NADI trial row of the destroy records says what it
// is, and the candle chart's OHLC line shows the market's four decimals and stays inside the chart,
// at 360 and 390 px; an order of theirs that fills later says so in a toast; an unpaid order the
// expiry job cancelled stays in /orders with its reason; the order form's placeholders fit.

import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { lotsOf, ticksOf } from '../../server/exchange/engine/index.ts'
import { createPayOrder, expireOrders } from '../../server/modules/orders/service.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { apiAs, newcomerOnPhone, placeRestingOrder, shows, text, visible } from './support/flows.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // The demo market maker trades, so the chart has candles to read out; newcomers get 100 trial power.
  app = await startApp({ NADI_DEMO_MARKET: '1', NADI_DEMO_MARKET_EVERY_MS: '300', NADI_TRIAL_POWER: '100', NADI_TRIAL_DAYS: '7' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

it('a newcomer’s power is labelled trial power, and the trial row of the destroy records says what it is, at 360 and 390 px', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  const info = await apiAs(app, page)<{ power: string; trial_power: string }>('mining/info')
  expect(info).toMatchObject({ power: '100', trial_power: '100' })
  const [before] = text('tw', 'mining.trialOnly', { power: '|' }).split('|')
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 760 })
    await page.goto(`${app.url}/ming`)
    await expect.poll(async () => ((await visible(page, 'mining-trial-power').count()) > 0 ? await visible(page, 'mining-trial-power').innerText() : '')).toContain(before!)
    await page.goto(`${app.url}/destoryList`)
    const trial = page.locator('[data-testid="destroy-record"][data-type="trial"]').filter({ visible: true })
    await shows(trial.getByTestId('destroy-trial-note')).toBe(text('tw', 'mining.trialRecord'))
  }
  expect(errors).toEqual([])
  await context.close()
})

it('the OHLC line shows the market’s price decimals and stays inside the chart, at 360 and 390 px', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 760 })
    await page.goto(`${app.url}/trade`)
    const readout = visible(page, 'candle-readout')
    await expect.poll(async () => ((await readout.count()) > 0 ? (await readout.innerText()).trim().length : 0), { timeout: 30_000 }).toBeGreaterThan(0)
    const parts = await readout.locator('span').allInnerTexts()
    expect(parts).toHaveLength(5)
    for (const price of parts.slice(0, 4)) expect(price.trim()).toMatch(/^[OHLC] \d+\.\d{4}$/)
    const fits = await page.evaluate(() => {
      const r = document.querySelector('[data-testid="candle-readout"]')!
      const host = document.querySelector('[data-testid="candle-chart"]')!.getBoundingClientRect()
      return [...r.querySelectorAll('span')].every((s) => {
        const b = s.getBoundingClientRect()
        return b.left >= host.left - 0.5 && b.right <= host.right + 0.5
      })
    })
    expect(fits, `${width} px`).toBe(true)
  }
  expect(errors).toEqual([])
  await context.close()
})

it('an order that fills after it was placed says so in a toast, once', { timeout: 90_000 }, async () => {
  const UNIT = 100_000_000n
  // A market of its own: the demo market maker's bids would take the sell below before the user's order.
  const app = await startApp()
  const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  await transfer(app.ctx.sql, { ref: 'e2e:labels:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 100n * UNIT })
  await placeRestingOrder(app, page, userId, 'e2e:labels:trade')
  // Someone sells into the resting buy (200 NADI at 0.01): the whole order fills on the book.
  const seller = Number((await app.ctx.sql.get(statement<{ id: bigint }>('INSERT INTO users (wallet_address, code, name, created_at) VALUES (?, ?, ?, ?) RETURNING id'), `0x${randomBytes(20).toString('hex')}`, `E2ELB${randomBytes(3).toString('hex')}`, 'Seller', Date.now()))!.id)
  await transfer(app.ctx.sql, { ref: 'e2e:labels:nadi', reason: 'deposit', from: custody('nadi'), to: trade(seller), asset: 'NADI', amount: 200n * UNIT })
  await app.exchange!.place(seller, { side: 'sell', type: 'limit', price: ticksOf(app.exchange!.spec, UNIT / 100n)!, lots: lotsOf(app.exchange!.spec, 200n * UNIT)!, clientOrderId: 'labels-sell' })
  const filled = page.locator('.toast').filter({ hasText: text('tw', 'trade.placed.filled') })
  await expect.poll(() => filled.count(), { timeout: 10_000 }).toBe(1)
  await page.waitForTimeout(500)
  expect(await filled.count()).toBe(1)
  expect(errors).toEqual([])
  await context.close()
  await app.close()
})

/** The placeholders of the screen's visible fields wider than the room their field gives them. */
const placeholdersCut = (page: Page) =>
  page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d')!
    return [...document.querySelectorAll<HTMLInputElement>('main.page input[placeholder]')]
      .filter((i) => i.getClientRects().length > 0 && i.placeholder)
      .flatMap((i) => {
        const s = getComputedStyle(i)
        ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`
        const width = ctx.measureText(i.placeholder).width
        const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
        return width > room + 0.5 ? [`${i.name}: "${i.placeholder}" ${Math.round(width)} > ${Math.round(room)} px`] : []
      })
  })

it('the order form’s placeholders (price, size, amount to spend) are shown whole in every language, at 360 and 390 px', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  const cut: string[] = []
  for (const lang of ['PT', 'EN', 'TW', 'JP', 'KO', 'TH', 'ID', 'VN', 'MS', 'ZH']) {
    await page.evaluate((l) => localStorage.setItem('lang', l), lang)
    for (const width of [360, 390]) {
      await page.setViewportSize({ width, height: 760 })
      for (const route of ['/trade']) {
        await page.goto(`${app.url}${route}`)
        await page.locator('main.page input').filter({ visible: true }).first().waitFor()
        const found = await placeholdersCut(page)
        // A market buy asks for an amount instead: its field too.
        if (route === '/trade') {
          await page.getByTestId('order-form').filter({ visible: true }).getByRole('button', { name: text(lang.toLowerCase(), 'trade.type.market'), exact: true }).click()
          found.push(...(await placeholdersCut(page)))
        }
        for (const f of found) cut.push(`${lang} ${width} ${route} ${f}`)
      }
    }
  }
  expect(cut).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})

it('an order cancelled for want of payment stays listed with that reason, beside one the user cancelled, at 360 and 390 px', { timeout: 90_000 }, async () => {
  const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  const late = await createPayOrder(app.ctx, { userId, type: 'destroy', asset: 'NADI', total: 100_000_000n, payWithinMs: 1 })
  await page.waitForTimeout(20)
  expect(await expireOrders(app.ctx)).toBeGreaterThanOrEqual(1)
  const mine = await createPayOrder(app.ctx, { userId, type: 'destroy', asset: 'NADI', total: 100_000_000n })
  await apiAs(app, page)('orders/cancel', { id: mine })
  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 760 })
    await page.goto(`${app.url}/orders`)
    await visible(page, 'payorders-tab-cancelled').click()
    const row = (id: number) => page.locator(`[data-testid="payorder-row"][data-id="${id}"]`).filter({ visible: true })
    await shows(row(late).getByTestId('payorder-cancel-reason')).toBe(text('tw', 'orders.cancelledReason.expiry'))
    await shows(row(mine).getByTestId('payorder-cancel-reason')).toBe(text('tw', 'orders.cancelledReason.user'))
  }
  expect(errors).toEqual([])
  await context.close()
})
