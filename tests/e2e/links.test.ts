// Ways in (issue 17 part 3): every screen SPEC §2 lists is reachable by taps from home. A signed-in
// user with an address, a paid gold order and a pledge (so the detail screens behind them exist)
// starts on /index; the walk reads the links (<a href>) of the screen in front, opens each new one in
// the app as a tap would, and so on breadth first. It fails naming each SPEC route no link led to.
import fs from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { launch, startApp, type RunningApp } from './support/app.ts'
import { apiAs, newcomerOnPhone } from './support/flows.ts'

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

/**
 * SPEC §2's routes, as the route table writes them. Not here: `/`, which only redirects to /index,
 * and `/open_screen`, the opening screen a start may show before home — a place one arrives at, not
 * one tapped to.
 */
const SPEC_ROUTES = [
  '/index',
  '/ming',
  '/destoryList',
  '/mingLog',
  '/mall',
  '/shop',
  '/shop/detail/:id',
  '/mall/detail/:id',
  '/shop/orderConfirm',
  '/mall/orderConfirm',
  '/mall/orderList',
  '/mall/orderDetail',
  '/shop/orderList',
  '/shop/orderRelease',
  '/address',
  '/address/add',
  '/address/edit',
  '/wallet',
  '/wallet/moneyLog',
  '/user',
  '/node',
  '/node/detail/:id',
  '/pledge',
  '/pledge/detail/:id',
  '/pledge/releaseLog/:id',
  '/notice',
  '/notice/detail/:id',
  '/withdraw',
  '/withdraw/list',
  '/recharge',
  '/recharge/list',
  '/draw',
  '/draw/list',
  '/trade',
  '/trade/orderList',
  '/trade/close',
  '/activity',
  '/activity/detail/:id',
  '/activity/rank/:id',
  '/orders',
  '/cars',
  '/apply',
  '/car/carRelease',
  '/loan',
]

/** The route table's patterns (src/app/routes.ts), each with what a path must look like to be it. */
const ROUTES = [...fs.readFileSync('src/app/routes.ts', 'utf8').matchAll(/\{ pattern: '([^']+)'/g)].map((m) => ({
  pattern: m[1]!,
  re: new RegExp(`^${m[1]!.replace(/:[a-z]+/g, '[^/]+')}$`),
}))
const routeOf = (href: string): string | undefined => ROUTES.find((r) => r.re.test(href.split('?')[0]!))?.pattern

/** Detail screens of one kind (a notice, a product) are alike: a few of each are enough to follow their links. */
const SAME_KIND_MAX = 2

/** The in-app links of the screen in front (kept-alive screens stay in the DOM, hidden), once they stop changing. */
async function linksOf(page: Page): Promise<string[]> {
  await page.locator('main').filter({ visible: true }).first().waitFor()
  const read = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
        .filter((a) => a.checkVisibility() && a.origin === location.origin)
        .map((a) => a.pathname + a.search),
    )
  let seen = new Set(await read())
  // Lists arrive after the first paint: read again until two readings agree.
  for (let i = 0; i < 12; i++) {
    await page.waitForTimeout(250)
    const now = new Set(await read())
    if (now.size === seen.size && [...now].every((h) => seen.has(h))) break
    seen = now
  }
  return [...seen]
}

it('every SPEC §2 route is reachable by taps from home', { timeout: 300_000 }, async () => {
  const { context, page, errors, userId } = await newcomerOnPhone(browser, app, { seenChainNotice: true })
  const call = apiAs(app, page)
  await transfer(app.ctx.sql, { ref: 'e2e:links:usdt', reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: 100_000n * 100_000_000n })
  await transfer(app.ctx.sql, { ref: 'e2e:links:nadi', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: 1_000n * 100_000_000n })
  // An address (/address/edit), a paid gold order (/mall/orderDetail), a pledge (/pledge/releaseLog/{id}).
  const address = await call<{ id: number }>('address/addAddress', { name: 'Lin Mei', phone: '0912345678', area: 'Taipei City', address: '1 Xinyi Rd', is_default: true })
  const gold = (await call<{ list: { id: number }[] }>('gold/goodsList?page_size=50')).list[0]!
  const spec = (await call<{ specs: { id: number; stock: number }[] }>(`gold/goodsDetail?id=${gold.id}`)).specs.find((s) => s.stock > 0)!
  const { order } = await call<{ order: { id: number } }>('preOrder/preOrder', { area: 'gold', goods_id: gold.id, spec_id: spec.id, quantity: 1, address_id: address.id })
  await call('orders/payByBalance', { id: order.id })
  const product = (await call<{ id: number; min_pledge: string }[]>('pledge/list'))[0]!
  await call('pledge/pledge', { product_id: product.id, amount: product.min_pledge, mode: 'day' })

  const reached = new Set<string>()
  const perKind = new Map<string, number>()
  const visited = new Set<string>()
  const queue = ['/index']
  await page.goto(`${app.url}/index`)
  while (queue.length > 0) {
    const href = queue.shift()!
    if (visited.has(href)) continue
    visited.add(href)
    // Opened in the app as a tap on the link would (wouter follows pushState), not by reloading.
    if (new URL(page.url()).pathname + new URL(page.url()).search !== href) {
      await page.evaluate((to) => {
        history.pushState(null, '', to)
        dispatchEvent(new PopStateEvent('popstate'))
      }, href)
    }
    reached.add(routeOf(href)!)
    for (const next of await linksOf(page)) {
      const kind = routeOf(next)
      if (!kind || visited.has(next) || queue.includes(next)) continue
      if (kind.includes(':')) {
        const n = perKind.get(kind) ?? 0
        if (n >= SAME_KIND_MAX) continue
        perKind.set(kind, n + 1)
      }
      queue.push(next)
    }
  }

  const unreachable = SPEC_ROUTES.filter((r) => !reached.has(r))
  expect(unreachable, `no link leads to: ${unreachable.join(', ')}`).toEqual([])
  expect(errors).toEqual([])
  await context.close()
})
