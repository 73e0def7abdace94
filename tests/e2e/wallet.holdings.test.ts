// The wallet says what its frozen balances are for and counts a loan's debt (issue 33 item 7): a
// newcomer with a node, a pledge and a resting order, who borrowed against the node, sees each frozen
// amount with its reason, the debt, and the net figure it leaves, whole at 360 and 390 px.

import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { apiAs, newcomerOnPhone, shows, text, visible } from './support/flows.ts'
import { layoutFaults } from './support/layoutFaults.ts'

const UNIT = 100_000_000n
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

it('the wallet names each frozen amount, shows the loan debt and the net of it, at 360 and 390 px', { timeout: 120_000 }, async () => {
  const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  await transfer(app.ctx.sql, { ref: 'e2e:holdings:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 6_000n * UNIT })
  await transfer(app.ctx.sql, { ref: 'e2e:holdings:nadi', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 500n * UNIT })
  const call = apiAs(app, page)
  const core = (await call<{ tiers: { id: number; type: string }[] }>('node/config')).tiers.find((t) => t.type === 'core')!
  const order = await call<{ id: number }>('node/buy', { node_id: core.id })
  await call('orders/payByBalance', { id: order.id })
  const node = (await call<{ list: { id: number }[] }>('node/getOrder', {})).list[0]!
  const product = (await call<{ id: number }[]>('pledge/list'))[0]!
  await call('pledge/pledge', { product_id: product.id, amount: '300', mode: 'day' })
  const plan = (await call<{ id: number }[]>('lending/list'))[0]!
  await call('lending/borrow', { plan_id: plan.id, node_order_id: node.id, amount: '1000' })

  for (const width of [360, 390]) {
    await page.setViewportSize({ width, height: 760 })
    await page.goto(`${app.url}/wallet`)
    const usdt = visible(page, 'frozen-parts-USDT')
    await shows(usdt.locator('li[data-reason="nodes"] span').first()).toContain(text('tw', 'assets.frozenReason.nodes'))
    expect(await usdt.locator('li[data-reason="nodes"] .mono').innerText()).toBe('5,000')
    await shows(visible(page, 'frozen-parts-NADI').locator('li[data-reason="pledges"] .mono')).toBe('300')
    await shows(visible(page, 'wallet-debt')).toBe('−1,000 USDT')
    const total = (await visible(page, 'wallet-total').innerText()).replace(/[^\d.]/g, '')
    const net = (await visible(page, 'wallet-net').innerText()).replace(/[^\d.]/g, '')
    expect(Number(net)).toBeCloseTo(Number(total) - 1000, 2)
    expect(await page.locator('.debt-lines').filter({ visible: true }).innerText()).toContain(text('tw', 'assets.netOfDebt'))
    expect(await page.evaluate(layoutFaults, { roots: ['main.page .wallet-total', 'main.page .asset-card'] }), `${width} px`).toEqual([])
  }
  expect(errors).toEqual([])
  await context.close()
})
