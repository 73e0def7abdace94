import type { FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import { MyNode, NodeBuyBody, NodeConfig, NodeOrdersBody } from '../../../contract/node.ts'
import { PayOrder } from '../../../contract/orders.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { NodeService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

export function nodeRoutes(app: App, node: NodeService): void {
  const tags = ['node']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/node/config',
    {
      ...auth,
      schema: {
        tags,
        summary: 'The Super Miner node tiers (elite, core, genesis): seats in all and left, the per-user limit and what the caller holds, stake (USDT), days, power, level, withdraw-fee weight, daily mining rate, grants',
        response: { 200: Envelope(NodeConfig) },
      },
    },
    async (req) => ok(req, await node.config(uid(req))),
  )
  app.post(
    '/api/v1/node/buy',
    {
      ...auth,
      schema: {
        tags,
        summary: 'An order to pay for one node (USDT, the stake): a seat is held until it is paid, cancelled or expires (15 min); refused when sold out, beyond the per-user limit, or by the hold rules (README "Holds")',
        body: NodeBuyBody,
        response: { 200: Envelope(PayOrder) },
      },
    },
    async (req) => ok(req, await node.buy(uid(req), req.lang, req.body.node_id)),
  )
  app.post(
    '/api/v1/node/getOrder',
    {
      ...auth,
      // A read (SPEC names it a POST): nothing to replay.
      config: { idempotent: false },
      schema: {
        tags,
        summary: 'The caller’s nodes, newest first (optionally of one tier): status, stake, days left, mined NADI, fee shares, loan debt, grants',
        body: NodeOrdersBody,
        response: { 200: Envelope(Paged(MyNode)) },
      },
    },
    async (req) => ok(req, await node.getOrder(uid(req), req.body?.page ?? 1, req.body?.page_size ?? PAGE_SIZE_DEFAULT, req.body?.tier_id)),
  )
}
