// The journey on PostgreSQL in real Chromium (issue 18): the same server on NADI_DATABASE_URL — a
// newcomer signs in, a deposit on the local chain is credited after its confirmations, a phone is
// bought and paid from the balance, and a limit order rests on the market. The rest of the e2e suite
// runs on SQLite; this file shows the app whole on the other backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { audit } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { buyPhoneFromBalance, depositUsdt, newcomerOnPhone, placeRestingOrder } from './support/flows.ts'
import { freshDatabase, type TestDatabase } from '../support/pg.ts'

let app: RunningApp
let browser: Browser
let db: TestDatabase

beforeAll(async () => {
  db = freshDatabase()
  app = await startApp({ NADI_DATABASE_URL: db.url, NADI_DEV_CHAINS: '1', NADI_DEV_BLOCK_TIME: 'manual' })
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await app?.close()
  db?.drop()
})

describe('the journey on PostgreSQL', () => {
  let context: BrowserContext
  let page: Page
  let errors: string[]
  let userId: number

  it('runs on PostgreSQL', () => {
    expect(app.ctx.sql.dialect).toBe('postgres')
  })

  it('a newcomer signs in, and USDT paid into their deposit address is credited after 3 confirmations', async () => {
    ;({ context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true }))
    await depositUsdt(app, page, userId, 5000n)
  })

  it('buys a phone and pays it from the balance', async () => {
    await buyPhoneFromBalance(app, page, userId)
  })

  it('places a limit order that rests on the book and holds its funds', async () => {
    await placeRestingOrder(app, page, userId, 'e2e:pg:to-trade')
    expect((await audit(app.ctx.sql)).violations).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
