import { Type } from 'typebox'
import { Envelope } from '../../../contract/envelope.ts'
import { GoldBanner, GoldCategory, GoldGroup, GoldPrice } from '../../../contract/goods.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { shopRoutes, type ShopDeps } from '../goods/routes.ts'

/** The gold mall (SPEC §7 gold/…; screens /mall): priced from weight × the gold price + a craft fee. */
export function goldRoutes(app: App, deps: ShopDeps): void {
  const tags = ['gold']
  shopRoutes(app, 'gold', deps, { orders: true })
  app.get(
    '/api/v1/gold/categoryList',
    { schema: { tags, summary: 'The gold categories (bars, coins, jewellery…)', response: { 200: Envelope(Type.Array(GoldCategory)) } } },
    async (req) => ok(req, await deps.goods.goldCategories(req.lang)),
  )
  app.get(
    '/api/v1/gold/price',
    { schema: { tags, summary: 'The gold reference price per gram in USDT, its 24 h change and recent path', response: { 200: Envelope(GoldPrice) } } },
    async (req) => ok(req, await deps.goods.goldPrice()),
  )
  app.get(
    '/api/v1/gold/group',
    { schema: { tags, summary: 'The mall’s shelves: hot, new, then each category, a few products each', response: { 200: Envelope(Type.Array(GoldGroup)) } } },
    async (req) => ok(req, await deps.goods.goldGroups(req.lang)),
  )
  app.get(
    '/api/v1/gold/banner',
    { schema: { tags, summary: 'The mall’s banners; each links to the product it advertises', response: { 200: Envelope(Type.Array(GoldBanner)) } } },
    async (req) => ok(req, await deps.goods.goldBanners(req.lang)),
  )
}
