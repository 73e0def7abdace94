// Activities in real Chromium (issue 12 part 4): a newcomer opens the activities from home, reads the
// running one (the demo's purchases race), finds no place of theirs on its leaderboard, buys a car
// paid from balance, and then sees their own rank pinned above the board, even though sixty buyers
// before them keep them out of the top shown. Offline, the leaderboard opens from the saved cache.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { formatMoney } from '../../contract/money.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { scorePurchase } from '../../server/modules/activity/scores.ts'
import { RANK_SCREEN_TOP as RANK_TOP } from '../../contract/activity.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { newcomerOnPhone, shows, text, visible } from './support/flows.ts'
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

const UNIT = 100_000_000n
const path = (page: Page) => new URL(page.url()).pathname
const AHEAD = RANK_TOP + 10

describe('activities in real Chromium', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number
  let activityId: number

  it('from home to the running activity and its leaderboard, where the newcomer has no place yet', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    activityId = Number((await app.ctx.sql.get(statement<{ id: bigint }>("SELECT id FROM activities WHERE slug = 'device-sprint'")))!.id)

    await visible(page, 'shortcut-activity').click()
    expect(path(page)).toBe('/activity')
    const card = page.locator(`[data-testid="activity-list-running"] [data-testid="activity-card"][data-id="${activityId}"]`)
    await card.waitFor()
    await shows(card.locator('.activity-title')).toBe('設備衝刺賽')
    await visible(page, 'activity-tab-upcoming').click()
    await page.locator('[data-testid="activity-list-upcoming"] [data-testid="activity-card"]').first().waitFor()
    await visible(page, 'activity-tab-running').click()
    await card.click()
    expect(path(page)).toBe(`/activity/detail/${activityId}`)
    await shows(visible(page, 'activity-title')).toBe('設備衝刺賽')
    await shows(visible(page, 'activity-measure')).toBe(text('tw', 'activity.measure.purchases'))
    await shows(visible(page, 'activity-countdown')).toMatch(new RegExp(`^${text('tw', 'activity.endsIn')} .*\\d\\d:\\d\\d:\\d\\d$`))
    await visible(page, 'activity-rank-link').click()
    expect(path(page)).toBe(`/activity/rank/${activityId}`)
    await shows(visible(page, 'rank-me-none')).toContain(text('tw', 'activity.notRanked'))
  })

  it('a car bought from balance while the activity runs puts the buyer on its board, their rank pinned outside the top shown', async () => {
    // Sixty buyers already ahead, each with more than any car costs: each paid order written with its
    // activity score, in one transaction, as the paying site writes them.
    const now = Date.now()
    for (let i = 0; i < AHEAD; i++) {
      await app.ctx.sql.transaction(async (tx) => {
        const u = (await tx.get(statement<{ id: bigint }>('INSERT INTO users (wallet_address, code, name, created_at) VALUES (?, ?, ?, ?) RETURNING id'), `0x${randomBytes(20).toString('hex')}`, `E2EACT${i}`, `Buyer ${i}`, now))!.id
        await tx.run(statement("INSERT INTO pay_orders (order_no, user_id, type, asset, total, state, created_at, expires_at, paid_at, fulfilment) VALUES (?, ?, 'car', 'USDT', ?, 'completed', ?, ?, ?, 'completed')"), `E2EACT${i}`, u, 10_000_000n * UNIT, now, now, now)
        await scorePurchase(tx, { user_id: BigInt(u), type: 'car', asset: 'USDT', total: 10_000_000n * UNIT }, now)
      })
    }
    await transfer(app.ctx.sql, { ref: 'e2e:activity:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 1_000_000n * UNIT })

    await page.goto(`${app.url}/cars`)
    await visible(page, 'car-buy').first().click()
    await page.getByTestId('car-continue').click()
    await visible(page, 'order-submit').click()
    await shows(page.locator('.sheet h2')).toBe(text('tw', 'preOrder.placedTitle'))
    await page.locator('.sheet .btn.primary').click()
    await page.getByTestId('payment-pay-balance').click()
    await shows(page.getByTestId('payment-success')).not.toBeNull()
    await page.getByTestId('payment-done').click()
    const paid = (await app.ctx.sql.get(statement<{ total: bigint }>("SELECT total FROM pay_orders WHERE user_id = ? AND type = 'car' AND paid_at IS NOT NULL"), userId))!
    expect(paid.total).toBeGreaterThan(0n)

    await page.goto(`${app.url}/activity/rank/${activityId}`)
    // The board is recomputed every few seconds and the screen refreshes while the activity runs.
    const me = page.locator('[data-testid="rank-me"] [data-testid="rank-row"]').filter({ visible: true })
    await expect.poll(() => me.getAttribute('data-user').catch(() => null), { timeout: 30_000 }).toBe(String(userId))
    expect(await me.getAttribute('data-rank')).toBe(String(AHEAD + 1))
    await shows(me.locator('[data-testid="rank-score"]')).toBe(`${formatMoney(paid.total).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} USDT`)
    const top = page.locator('[data-testid="rank-top"] [data-testid="rank-row"]').filter({ visible: true })
    expect(await top.count()).toBe(RANK_TOP)
    expect(await page.locator(`[data-testid="rank-top"] [data-user="${userId}"]`).count()).toBe(0)
    await shows(visible(page, 'rank-top').locator('..').locator('p.small')).toBe(text('tw', 'activity.topOf', { shown: RANK_TOP, count: AHEAD + 1 }))
  })

  it('offline, the leaderboard opens from the saved cache and says it is not live', async () => {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.locator('[data-testid="rank-me"] [data-testid="rank-row"]').filter({ visible: true }).waitFor()
    await page.waitForTimeout(1500) // the persister writes at most once a second
    await context.setOffline(true)
    await page.evaluate(() => window.dispatchEvent(new Event('offline')))
    await page.reload().catch(() => {})
    await page.locator(`[data-testid="rank-me"] [data-user="${userId}"]`).filter({ visible: true }).waitFor({ timeout: 15_000 })
    await page.locator('.freshness.offline').filter({ visible: true }).waitFor()
    await context.setOffline(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
