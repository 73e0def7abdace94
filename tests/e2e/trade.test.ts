// Two users trade NADI/USDT in real Chromium (issue 5 part 9): one's limit order rests and shows in
// the book and in current orders; the other crosses it; both see the fill, the deal and the candle
// update live; a cancel releases what was still held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { parseUnits } from 'ethers'
import { balance, custody, trade, transfer } from '../../server/ledger/index.ts'
import { launch, phone, ROOT_CODE, startApp, watchErrors, type RunningApp } from './support/app.ts'
import { apiAs, shows, signInThroughInvite, text } from './support/flows.ts'
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

interface Trader {
  context: BrowserContext
  page: Page
  userId: number
  errors: string[]
}

let refs = 0
async function trader(): Promise<Trader> {
  const context = await phone(browser)
  const page = await context.newPage()
  const errors = watchErrors(page)
  const w = await signInThroughInvite(context, page, app.url, ROOT_CODE)
  const row = (await app.ctx.sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), w.address.toLowerCase()))!
  const userId = Number(row.id)
  // Money in the trade account, as a deposit and a transfer from the fund account would put it there.
  for (const asset of ['USDT', 'NADI'] as const) {
    await transfer(app.ctx.sql, { ref: `e2e:trade:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset, amount: parseUnits('1000', 8) })
  }
  return { context, page, userId, errors }
}

/** Fills the order form of /trade and confirms it; resolves once the result toast shows. */
async function placeLimit(page: Page, side: 'buy' | 'sell', price: string, size: string, result: string) {
  const form = page.getByTestId('order-form').filter({ visible: true })
  await form.locator(`.side-switch .side-btn.${side}`).click()
  await form.getByRole('button', { name: text('tw', 'trade.type.limit'), exact: true }).click()
  await form.locator('input[name="price"]').fill(price)
  await form.locator('input[name="size"]').fill(size)
  await form.getByTestId('place-order').click()
  await page.locator('.sheet .btn.primary').click()
  await shows(page.locator('.toast')).toContain(text('tw', `trade.placed.${result}`))
}

const frozen = async (userId: number, asset: 'USDT' | 'NADI') => (await balance(app.ctx.sql, trade(userId), asset)).frozen

describe('trading NADI/USDT between two users in Chromium', () => {
  let alice: Trader
  let bob: Trader

  it("one user's limit order rests: it shows in the book, in current orders, and holds the funds", async () => {
    alice = await trader()
    bob = await trader()
    await alice.page.goto(`${app.url}/trade`)
    await placeLimit(alice.page, 'sell', '0.3', '100', 'pending')
    await shows(alice.page.getByTestId('book-asks')).toContain('0.3')
    await shows(alice.page.getByTestId('open-orders-count')).toBe('1')
    expect(await frozen(alice.userId, 'NADI')).toBe(parseUnits('100', 8))

    // The other user's book has it too, live from the socket.
    await bob.page.goto(`${app.url}/trade`)
    await shows(bob.page.getByTestId('book-asks')).toContain('100')
  })

  it('the other user crosses it; both see the fill on the tape, the ticker and the candle at once', async () => {
    await placeLimit(bob.page, 'buy', '0.3', '40', 'filled')
    for (const t of [alice, bob]) {
      await shows(t.page.getByTestId('recent-trades')).toContain('40')
      await shows(t.page.getByTestId('ticker-last')).toContain('0.3')
      const chart = t.page.getByTestId('candle-chart').filter({ visible: true })
      await expect.poll(() => chart.getAttribute('data-last-close'), { timeout: 10_000 }).toBe('0.3')
      await expect.poll(() => chart.getAttribute('data-last-volume'), { timeout: 10_000 }).toBe('40')
    }
    // What is left of the ask stays on the book.
    await shows(alice.page.getByTestId('book-asks')).toContain('60')
  })

  it('both see the deal; an order list open on screen follows a fill as it happens', async () => {
    await alice.page.goto(`${app.url}/trade/orderList`)
    const row = alice.page.getByTestId('order-row').filter({ visible: true }).first()
    await shows(row.getByTestId('order-status')).toBe(text('tw', 'trade.status.partially_filled'))
    await shows(row.getByTestId('order-filled')).toBe('40')

    // Bob buys 10 more while Alice watches her list: user@update_order reloads it.
    await placeLimit(bob.page, 'buy', '0.3', '10', 'filled')
    await shows(row.getByTestId('order-filled')).toBe('50')

    for (const t of [alice, bob]) {
      await t.page.goto(`${app.url}/trade/close`)
      await expect.poll(() => t.page.getByTestId('deal-row').filter({ visible: true }).count(), { timeout: 10_000 }).toBe(2)
      await shows(t.page.getByTestId('deal-row').filter({ visible: true }).first()).toContain('0.3')
    }
  })

  it('a cancel releases what the order still held', async () => {
    await alice.page.goto(`${app.url}/trade/orderList`)
    const row = alice.page.getByTestId('order-row').filter({ visible: true }).first()
    await row.getByTestId('cancel-order').click()
    await alice.page.locator('.sheet .btn.danger, .sheet .btn.primary').first().click()
    await expect.poll(() => frozen(alice.userId, 'NADI'), { timeout: 10_000 }).toBe(0n)
    await alice.page.getByTestId('orders-tab-history').click()
    await shows(alice.page.getByTestId('order-status').filter({ visible: true }).first()).toBe(text('tw', 'trade.status.cancelled'))

    // Back on /trade the form shows the released NADI as available: 1000 − 50 sold.
    await alice.page.goto(`${app.url}/trade`)
    await alice.page.getByTestId('order-form').filter({ visible: true }).locator('.side-switch .side-btn.sell').click()
    await shows(alice.page.getByTestId('trade-available')).toContain('950')
    for (const t of [alice, bob]) expect(t.errors.filter((e) => !/eth_getBalance/.test(e))).toEqual([])
  })

  it('an order the market cancelled says why in the history, where an order its owner cancelled says nothing', async () => {
    const call = apiAs(app, alice.page)
    const sell = await call<{ id: number }>('trade/placeOrder', { inst_id: 'NADI-USDT', side: 'sell', type: 'limit', price: '0.5', size: '10', client_order_id: 'e2e-self-sell' })
    // Her own buy reaches her resting sell: self-trade prevention cancels the sell, the buy rests.
    const buy = await call<{ id: number }>('trade/placeOrder', { inst_id: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.5', size: '10', client_order_id: 'e2e-self-buy' })
    await call('trade/cancelOrder', { order_id: buy.id })
    await alice.page.goto(`${app.url}/trade/orderList?tab=history`)
    const row = (id: number) => alice.page.locator(`[data-testid="order-row"][data-id="${id}"]`).filter({ visible: true })
    await shows(row(sell.id).getByTestId('order-cancel-reason')).toBe(text('tw', 'trade.cancelReason.self_trade'))
    await shows(row(buy.id).getByTestId('order-status')).toBe(text('tw', 'trade.status.cancelled'))
    expect(await row(buy.id).getByTestId('order-cancel-reason').count()).toBe(0)
    expect(alice.errors.filter((e) => !/eth_getBalance/.test(e))).toEqual([])
  })
})
