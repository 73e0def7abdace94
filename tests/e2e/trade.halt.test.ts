// A halted market in Chromium (issue 9 part 2): on the data folder two overlapping servers left
// (tests/fixtures/journal-refused-on-replay), /trade says trading is paused and since when, and the
// order form cannot send; the rest of the app works (sign-in, the wallet). When the operator's repair
// brings the market back, the page follows live: the note goes, the form can place again.
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, phone, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { shows, signInThroughInvite, text } from './support/flows.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  app = await startApp({}, { database: path.resolve(import.meta.dirname, '../fixtures/journal-refused-on-replay/nadi.sqlite') })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

it('/trade shows the halted market and disables the form; the repair brings it back live on the open page', async () => {
  expect(app.exchange!.status().state).toBe('halted')
  const context = await phone(browser)
  const page = await context.newPage()
  const errors = watchErrors(page)
  await signInThroughInvite(context, page, app.url, 'DEMOTAKER')

  // The wallet serves while the market is halted.
  await page.goto(`${app.url}/wallet`)
  await page.locator('main.page').filter({ visible: true }).first().waitFor()

  await page.goto(`${app.url}/trade`)
  const note = page.getByTestId('market-halted')
  await shows(note).toContain(text('tw', 'trade.halted.title'))
  expect(await note.innerText()).toContain(text('tw', 'trade.halted.body'))
  // The chart of a short series hours old ends at the present (plus the live candle's room), not in the future.
  const chart = page.locator('[data-candles]').filter({ visible: true })
  await expect.poll(() => chart.getAttribute('data-candles')).toBe('1')
  const viewMax = Number(await chart.getAttribute('data-view-max'))
  expect(viewMax).toBeLessThanOrEqual(Date.now() / 1000 + 4 * 15 * 60)
  expect(viewMax).toBeGreaterThan(Date.now() / 1000 - 15 * 60)
  const submit = page.getByTestId('place-order').filter({ visible: true })
  await expect.poll(() => submit.isDisabled()).toBe(true)
  expect((await submit.innerText()).trim()).toBe(text('tw', 'trade.halted.title'))

  const record = await app.exchange!.repair()
  expect(record?.plan.cancel.length).toBe(6)
  await expect.poll(() => note.count(), { timeout: 10_000 }).toBe(0)
  await expect.poll(() => submit.isDisabled()).toBe(false)
  // The repaired book shows (while halted there was none to show).
  await expect.poll(() => page.getByTestId('book-asks').filter({ visible: true }).locator('.book-row').count(), { timeout: 10_000 }).toBeGreaterThan(0)
  await expect.poll(() => page.getByTestId('book-bids').filter({ visible: true }).locator('.book-row').count(), { timeout: 10_000 }).toBeGreaterThan(0)
  expect(errors).toEqual([])
  await context.close()
})
