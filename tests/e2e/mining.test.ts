// Issue 11's whole journey in real Chromium (SPEC §2 /ming, /destoryList, /mingLog, /node, /user,
// /pledge, /loan): a newcomer with NADI and USDT goes from home to /ming, is refused below the minimum
// and with too many decimals before anything is sent, destroys NADI, pays the order from balance in
// the payment dialog and sees their power and the destroy list (with their trial power as SPEC §4's
// "trial"); the settlement of the next day (the server's clock moved as the pledge e2e does) pays
// them, /mingLog shows the released power and the money log the earning; they buy a core node and
// read T2 in the user centre, pledge NADI, borrow against the node and repay. Offline, destroying is
// off and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { randomBytes } from 'node:crypto'
import { balance, BURNED, custody, fund, MINING, trade, transfer, TREASURY } from '../../server/ledger/index.ts'
import { lotsOf, ticksOf } from '../../server/exchange/engine/index.ts'
import { SettlementFundingShort, settleDue, settlementHalt } from '../../server/modules/settlement/service.ts'
import { dayStart } from '../../server/modules/release/schedule.ts'
import { LANG_TAG } from '../../contract/constants.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text } from './support/flows.ts'
import { showAmount, units } from '../../src/features/wallet/amount.ts'
import type { MiningInfo } from '../../contract/mining.ts'
import { statement } from '../../server/db/query/types.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  // The demo's newcomer trial power (off outside development unless asked for), so the destroy list
  // has a trial record beside the destroy one.
  app = await startApp({ NADI_TRIAL_POWER: '100', NADI_TRIAL_DAYS: '7' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

const DAY = 86_400_000
const UNIT = 100_000_000n
/** Screens are kept alive, hidden: only what is visible counts. */
const seen = (page: Page, testId: string) => page.getByTestId(testId).filter({ visible: true })
const path = (page: Page) => new URL(page.url()).pathname

/** Two traders of the platform fill 20 NADI at `price`: the market's last price, which joint mining converts at, becomes it. */
async function moveMarket(price: bigint) {
  const trader = async (asset: 'NADI' | 'USDT', amount: bigint) => {
    const { id } = (await app.ctx.sql.get(statement<{ id: bigint }>('INSERT INTO users (wallet_address, code, name, created_at) VALUES (?, ?, ?, ?) RETURNING id'), `0x${randomBytes(20).toString('hex')}`, `E2EMV${randomBytes(3).toString('hex')}`, 'Trader', Date.now()))!
    await transfer(app.ctx.sql, { ref: `e2e:mining:move:${id}`, reason: 'deposit', from: custody(asset === 'NADI' ? 'nadi' : 'bsc'), to: trade(id), asset, amount })
    return Number(id)
  }
  const [seller, buyer] = [await trader('NADI', 20n * UNIT), await trader('USDT', 1_000n * UNIT)]
  const order = (side: 'sell' | 'buy') => ({ side, type: 'limit' as const, price: ticksOf(app.exchange!.spec, price)!, lots: lotsOf(app.exchange!.spec, 20n * UNIT)!, clientOrderId: `move-${side}` })
  await app.exchange!.place(seller, order('sell'))
  await app.exchange!.place(buyer, order('buy'))
  expect(app.exchange!.lastPrice()).toBe(price)
}

describe('mining, nodes, savings and loans', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number

  it('a newcomer destroys NADI on /ming, paying in the payment dialog, and sees the power and the destroy list', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    await transfer(app.ctx.sql, { ref: 'e2e:mining:nadi', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 1_000n * UNIT })
    await transfer(app.ctx.sql, { ref: 'e2e:mining:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 6_000n * UNIT })

    await page.goto(`${app.url}/index`)
    await seen(page, 'shortcut-ming').click()
    await expect.poll(() => path(page)).toBe('/ming')
    // The trial power alone, and the devices panel still there.
    await shows(seen(page, 'mining-power')).toBe('100')
    await seen(page, 'machines-panel').waitFor()

    const form = seen(page, 'mining-form-destroy')
    await shows(form.getByTestId('mining-min')).toBe('100 NADI')
    const amount = form.locator('input[name="amount"]')
    // Below the minimum: the server's own sentence, and nothing is sent.
    await amount.fill('50')
    await seen(page, 'mining-submit-destroy').click()
    await shows(form.locator('.form-error[data-field="amount"]')).toBe(text('tw', 'errors.destroyMin', { amount: '100' }))
    await amount.fill('100.123456789')
    await shows(form.locator('.form-error[data-field="amount"]')).toBe(text('tw', 'money.amountDecimals', { max: '8' }))
    await amount.fill('1000.5')
    await shows(form.locator('.form-error[data-field="amount"]')).toBe(text('tw', 'money.amountAboveAvailable', { available: '1,000', asset: 'NADI' }))
    expect(await app.ctx.sql.get(statement<{ n: bigint }>("SELECT count(*) AS n FROM pay_orders WHERE type IN ('destroy', 'joint')"))).toEqual({ n: 0n })

    // Joint mining has its own minimum, in USDT.
    await seen(page, 'mining-tab-joint').click()
    const joint = seen(page, 'mining-form-joint')
    await joint.locator('input[name="amount"]').fill('5')
    await seen(page, 'mining-submit-joint').click()
    await shows(joint.locator('.form-error[data-field="amount"]')).toBe(text('tw', 'errors.jointMin', { amount: '10' }))
    await seen(page, 'mining-tab-destroy').click()

    // 200 NADI × 3 + 10 % gift = 660 power, previewed before the order.
    await seen(page, 'mining-form-destroy').locator('input[name="amount"]').fill('200')
    await shows(seen(page, 'mining-preview-power')).toBe('600')
    await shows(seen(page, 'mining-preview-gift')).toBe('60')
    await shows(seen(page, 'mining-preview-total')).toBe('660')
    await seen(page, 'mining-submit-destroy').click()
    await shows(page.getByTestId('payment-total')).toContain('200')
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    await page.getByTestId('payment-done').click()
    // The summary refreshed after paying: trial 100 + 660.
    await shows(seen(page, 'mining-power')).toBe('760')
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).available).toBe(800n * UNIT)

    await seen(page, 'mining-destroy-list-link').click()
    await expect.poll(() => path(page)).toBe('/destoryList')
    const records = seen(page, 'destroy-record')
    await expect.poll(() => records.count()).toBe(2)
    const destroyed = records.first()
    expect(await destroyed.getAttribute('data-type')).toBe('destroy')
    await shows(destroyed.getByTestId('destroy-status')).toBe(text('tw', 'mining.status.permanent'))
    expect(await destroyed.getByTestId('destroy-amount').innerText()).toContain('200')
    expect(await destroyed.getByTestId('destroy-usdt').innerText()).toContain('50')
    await shows(records.nth(1).getByTestId('destroy-status')).toBe(text('tw', 'mining.status.trial'))
    expect(errors).toEqual([])
  })

  it('the settlement of the next day pays the power: /mingLog shows it released and the money log the earning', async () => {
    // The server's clock moves on: the power starts tomorrow, and a day is settled once it has ended.
    const settled = await settleDue({ ...app.ctx, now: () => Date.now() + 2 * DAY })
    expect(settled.length).toBeGreaterThanOrEqual(1)
    // 660 × 0.5 % = 3.3 NADI from the destroy power; the trial's 100 over 7 days pays 14.2858 (shown as 14.28: power shows 2 decimals).
    await page.goto(`${app.url}/ming`)
    await seen(page, 'mining-power-log-link').click()
    await expect.poll(() => path(page)).toBe('/mingLog')
    const destroyRow = page.locator('[data-testid="power-row"][data-type="destroy"]').filter({ visible: true })
    // Every figure with its unit: power in power, what it released in NADI.
    const power = text('tw', 'mining.powerUnit')
    await shows(destroyRow.getByTestId('power-released')).toBe('3.3 NADI')
    await shows(destroyRow.getByTestId('power-remaining')).toBe(`656.7 ${power}`)
    await shows(destroyRow.getByTestId('power-buy')).toBe(`600 ${power}`)
    await shows(destroyRow.getByTestId('power-gift')).toBe(`60 ${power}`)
    const trialRow = page.locator('[data-testid="power-row"][data-type="trial"]').filter({ visible: true })
    await shows(trialRow.getByTestId('power-released')).toBe('14.2858 NADI')
    // Why the trial pays 14.2858 a day and the bought power 3.3: each row says how it releases.
    await shows(trialRow.getByTestId('power-rule')).toBe(text('tw', 'mining.rule.trial', { days: 7 }))
    await shows(destroyRow.getByTestId('power-rule')).toBe(text('tw', 'mining.rule.bought', { percent: '0.5' }))
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).available).toBe(800n * UNIT + 1_758_580_000n)

    await page.goto(`${app.url}/wallet/moneyLog`)
    const earning = page.locator('[data-testid="money-log"] [data-type="settlement"]').filter({ visible: true })
    await shows(earning).toContain(text('tw', 'moneyLog.type.settlement'))
    expect(await earning.first().innerText()).toContain('+17.5858')
    expect(errors).toEqual([])
  })

  it('while the mining reward pool cannot fund a day, the records read "paused" with the reason; funded, they mine again', async () => {
    const later = { ...app.ctx, now: () => Date.now() + 3 * DAY }
    const pool = (await balance(app.ctx.sql, MINING, 'NADI')).available
    await transfer(app.ctx.sql, { ref: 'e2e:mining:drain', reason: 'test', from: MINING, to: TREASURY, asset: 'NADI', amount: pool })
    await expect(settleDue(later)).rejects.toBeInstanceOf(SettlementFundingShort)
    const since = new Intl.DateTimeFormat(LANG_TAG.TW, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(dayStart((await settlementHalt(app.ctx))!.day))
    const why = text('tw', 'mining.pause.reward_pool', { date: since })

    await page.goto(`${app.url}/ming`)
    // The account's pools (SPEC §3): the burned NADI, and the note saying why mining is paused.
    await shows(seen(page, 'mining-destroy-pool')).toBe(`${showAmount((await balance(app.ctx.sql, BURNED, 'NADI')).available, 'NADI')} NADI`)
    await shows(seen(page, 'mining-pause')).toBe(why)
    await seen(page, 'mining-destroy-list-link').click()
    const destroyed = page.locator('[data-testid="destroy-record"][data-type="destroy"]').filter({ visible: true })
    await shows(destroyed.getByTestId('destroy-status')).toBe(text('tw', 'mining.status.paused'))
    expect(await destroyed.getAttribute('data-status')).toBe('2')
    await shows(destroyed.getByTestId('mining-pause')).toBe(why)

    await transfer(app.ctx.sql, { ref: 'e2e:mining:refill', reason: 'test', from: TREASURY, to: MINING, asset: 'NADI', amount: pool })
    expect((await settleDue(later)).length).toBe(1)
    await page.reload()
    await shows(destroyed.getByTestId('destroy-status')).toBe(text('tw', 'mining.status.permanent'))
    expect(await destroyed.getByTestId('mining-pause').count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('buys a core node on /node and reads T2 in the user centre', async () => {
    await page.goto(`${app.url}/node`)
    const core = page.locator('[data-testid="node-tier"][data-type="core"]').filter({ visible: true })
    await core.getByTestId('node-buy').click()
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    await page.getByTestId('payment-done').click()
    await shows(page.locator('[data-testid="my-node"]:visible [data-testid="my-node-status"]')).toBe(text('tw', 'node.status.active'))
    expect(await balance(app.ctx.sql, fund(userId), 'USDT')).toEqual({ available: 1_000n * UNIT, frozen: 5_000n * UNIT })
    await page.goto(`${app.url}/user`)
    await shows(page.locator('.profile .badge.gold')).toBe('T2')
    expect(errors).toEqual([])
  })

  it('pledges NADI on /pledge', async () => {
    await page.goto(`${app.url}/pledge`)
    await seen(page, 'pledge-product').first().click()
    await page.waitForURL(/\/pledge\/detail\/\d+$/)
    await page.locator('input[name="amount"]').filter({ visible: true }).fill('200')
    await seen(page, 'pledge-submit').click()
    await page.locator('.sheet .btn.primary').click()
    await page.waitForURL(/\/pledge\?tab=mine$/)
    const mine = seen(page, 'my-pledge')
    await shows(mine.first().getByTestId('pledge-status')).toBe(text('tw', 'pledge.status.waiting'))
    expect((await balance(app.ctx.sql, fund(userId), 'NADI')).frozen).toBe(200n * UNIT)
    expect(errors).toEqual([])
  })

  it('borrows against the node on /loan and repays', async () => {
    await page.goto(`${app.url}/loan`)
    await shows(seen(page, 'loan-capacity')).toBe('2,500 USDT')
    await page.locator('input[name="borrow"]:visible').fill('1000')
    await seen(page, 'borrow-submit').click()
    await page.locator('.sheet .btn.primary').click()
    const loan = page.locator('[data-testid="loan"]:visible').first()
    await shows(loan.getByTestId('loan-debt')).toBe('1,000 USDT')
    expect((await balance(app.ctx.sql, fund(userId), 'USDT')).available).toBe(2_000n * UNIT)
    const loanId = await loan.getAttribute('data-id')
    await page.locator(`input[name="repay-${loanId}"]:visible`).fill('1000')
    await loan.getByTestId('repay-submit').click()
    await expect.poll(() => loan.getAttribute('data-status'), { timeout: 10_000 }).toBe('repaid')
    expect(await balance(app.ctx.sql, fund(userId), 'USDT')).toEqual({ available: 1_000n * UNIT, frozen: 5_000n * UNIT })
    expect(errors).toEqual([])
  })

  it('joint mining is confirmed at the quoted price shown with its countdown: when the market moves between preview and confirm, the order still goes through at that price', async () => {
    await page.goto(`${app.url}/ming`)
    await seen(page, 'mining-tab-joint').click()
    await seen(page, 'mining-form-joint').locator('input[name="amount"]').fill('10')
    await shows(seen(page, 'mining-quote-price')).toBe('0.25 USDT')
    await shows(seen(page, 'mining-quote-timer')).toMatch(/30|29|28/)
    // 10 USDT at 0.25 = 40 NADI's worth × 2 + 10 % gift.
    await shows(seen(page, 'mining-preview-total')).toBe('88')
    await moveMarket(UNIT / 2n)
    await seen(page, 'mining-submit-joint').click()
    await shows(page.getByTestId('payment-total')).toContain('10')
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    await page.getByTestId('payment-done').click()
    const bought = await app.ctx.sql.get(statement<{ price: unknown; total: unknown }>("SELECT price, power + gift AS total FROM mining_buys WHERE kind = 'joint' ORDER BY id DESC LIMIT 1"))
    expect(bought).toEqual({ price: UNIT / 4n, total: 88n * UNIT })
    // The quote placed its one order: the next is previewed at a new quote, at the market's price.
    await shows(seen(page, 'mining-quote-price')).toBe('0.5 USDT')
    await seen(page, 'mining-tab-destroy').click()
  })

  it('offline, /ming still shows its power and destroying is off, saying why', async () => {
    await page.goto(`${app.url}/ming`)
    // Destroy and trial power left after the first day, and now the node's power too.
    const power = seen(page, 'mining-power')
    // The server's figure: the screen first shows the saved one (an older figure) and then what it fetched.
    const token = (JSON.parse((await page.evaluate(() => sessionStorage.getItem('token'))) ?? '{}') as { value: string }).value
    const info = (await (await fetch(`${app.url}/api/v1/mining/info`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: MiningInfo }
    const figure = showAmount(units(info.data.power), 'power')
    expect(figure).not.toBe('760')
    await shows(power).toBe(figure)
    await context.setOffline(true)
    await page.evaluate(() => window.dispatchEvent(new Event('offline')))
    await shows(seen(page, 'offline-reason')).toBe(text('tw', 'common.offlineDisabled'))
    expect(await seen(page, 'mining-submit-destroy').isDisabled()).toBe(true)
    await shows(power).toBe(figure)
    await context.setOffline(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
