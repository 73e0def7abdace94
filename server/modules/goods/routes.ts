import type { FastifyReply, FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, IdQuery, Paged } from '../../../contract/envelope.ts'
import { GoodsDetail, GoodsDetailQuery, GoodsItem, GoodsListQuery, type Area } from '../../../contract/goods.ts'
import { ReceiptBody, ShopOrder, ShopOrderListQuery } from '../../../contract/preOrder.ts'
import { ReleaseListQuery, ReleasePlan } from '../../../contract/release.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { Ctx } from '../../context.ts'
import type { PreOrderService } from '../preOrder/service.ts'
import { listPlans } from '../release/service.ts'
import { catalogCache, type GoodsService } from './service.ts'

// What the three shops share (SPEC §7 keeps one path family per shop: machine/…, gold/…, car/…):
// the catalog list and detail, and for the shops whose orders are listed, the order list, detail,
// receipt and release record. Each shop's routes.ts says which of these it has.

export interface ShopDeps {
  ctx: Ctx
  goods: GoodsService
  preOrder: PreOrderService
}

export interface ShopParts {
  /** orderList, orderDetail and receipt: the shops whose products ship. */
  orders: boolean
}

const uid = (req: FastifyRequest) => req.user!.id
const NAMES: Record<Area, string> = { machine: 'devices', gold: 'gold', car: 'cars' }

export function shopRoutes(app: App, area: Area, deps: ShopDeps, parts: ShopParts): void {
  const tags = [area]
  const auth = { preHandler: requireAuth }
  const base = `/api/v1/${area}`
  // Catalog reads are the same for everyone: answered from a cache of serialized envelopes
  // (goods/service.ts catalogCache), so a busy shop costs a map lookup, not queries and a serializer.
  const cached = catalogCache(deps.ctx.sql)
  const json = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body)
  app.get(
    `${base}/goodsList`,
    { schema: { tags, summary: `The ${NAMES[area]} on sale, paged; each with its lowest price, stock and release terms`, querystring: GoodsListQuery, response: { 200: Envelope(Paged(GoodsItem)) } } },
    async (req, reply) => {
      const q = { page: req.query.page ?? 1, pageSize: req.query.page_size ?? PAGE_SIZE_DEFAULT, kind: req.query.kind, categoryId: req.query.category_id }
      const key = `list|${area}|${req.lang}|${q.page}|${q.pageSize}|${q.kind ?? ''}|${q.categoryId ?? ''}`
      return json(reply, await cached(key, deps.ctx.now(), async () => JSON.stringify(ok(req, await deps.goods.list(area, req.lang, q)))))
    },
  )
  app.get(
    `${base}/goodsDetail`,
    { schema: { tags, summary: 'One product with its specifications (price, stock, power) to choose from', querystring: GoodsDetailQuery, response: { 200: Envelope(GoodsDetail) } } },
    async (req, reply) =>
      json(reply, await cached(`detail|${area}|${req.lang}|${req.query.id}`, deps.ctx.now(), async () => JSON.stringify(ok(req, await deps.goods.detail(area, req.lang, req.query.id))))),
  )
  app.get(
    `${base}/releaseOrderList`,
    { ...auth, schema: { tags, summary: 'The caller’s release plans of this shop: NADI returned day by day', querystring: ReleaseListQuery, response: { 200: Envelope(Paged(ReleasePlan)) } } },
    async (req) => ok(req, await listPlans(deps.ctx, uid(req), area, req.lang, req.query.status, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  if (!parts.orders) return
  app.get(
    `${base}/orderList`,
    {
      ...auth,
      schema: { tags, summary: 'The caller’s paid orders by tab: all, pending_shipment, pending_receipt, completed', querystring: ShopOrderListQuery, response: { 200: Envelope(Paged(ShopOrder)) } },
    },
    async (req) => ok(req, await deps.preOrder.list(uid(req), area, req.lang, req.query.status ?? 'all', req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    `${base}/orderDetail`,
    { ...auth, schema: { tags, summary: 'One order: lines, address, express company and number, ship and confirm times', querystring: IdQuery, response: { 200: Envelope(ShopOrder) } } },
    async (req) => ok(req, await deps.preOrder.detail(uid(req), area, req.lang, req.query.id)),
  )
  app.post(
    `${base}/receipt`,
    { ...auth, schema: { tags, summary: 'Confirm receipt of an order pending receipt (completed)', body: ReceiptBody, response: { 200: Envelope(ShopOrder) } } },
    async (req) => ok(req, await deps.preOrder.receipt(uid(req), area, req.lang, req.body.id)),
  )
}

