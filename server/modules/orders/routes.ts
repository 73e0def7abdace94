import type { FastifyRequest } from 'fastify'
import { Envelope, IdQuery, Paged } from '../../../contract/envelope.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { OrderIdBody, OrdersQuery, PayOnChainBody, PayOrder, PayTargets } from '../../../contract/orders.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { OrdersService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

export function ordersRoutes(app: App, orders: OrdersService) {
  const tags = ['orders']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/orders/list',
    { ...auth, schema: { tags, summary: 'The caller’s orders to pay, newest first; status filters (pending_payment, processing, paid…)', querystring: OrdersQuery, response: { 200: Envelope(Paged(PayOrder)) } } },
    async (req) => ok(req, await orders.list(uid(req), req.lang, req.query.status, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/orders/detail',
    { ...auth, schema: { tags, summary: 'One order with its latest payment (confirmations of a chain payment)', querystring: IdQuery, response: { 200: Envelope(PayOrder) } } },
    async (req) => ok(req, await orders.detail(uid(req), req.lang, req.query.id)),
  )
  app.get(
    '/api/v1/orders/payTargets',
    { ...auth, schema: { tags, summary: 'Where the order can be paid on chain: chain, token contract, receiving address', querystring: IdQuery, response: { 200: Envelope(PayTargets) } } },
    async (req) => ok(req, await orders.payTargets(uid(req), req.query.id)),
  )
  app.post(
    '/api/v1/orders/payByBalance',
    { ...auth, schema: { tags, summary: 'Pay the order from the fund account; "insufficient NADI: current X, required Y" when short', body: OrderIdBody, response: { 200: Envelope(PayOrder) } } },
    async (req) => ok(req, await orders.payByBalance(uid(req), req.lang, req.body.id)),
  )
  app.post(
    '/api/v1/orders/payOnChain',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Submit the hash of the ERC-20 transfer that pays the order; verified on chain (sender, token, recipient, amount) and confirmed',
        body: PayOnChainBody,
        response: { 200: Envelope(PayOrder) },
      },
    },
    async (req) => ok(req, await orders.payOnChain(uid(req), req.lang, req.body)),
  )
  app.post(
    '/api/v1/orders/cancel',
    { ...auth, schema: { tags, summary: 'Cancel an unpaid order (irreversible)', body: OrderIdBody, response: { 200: Envelope(PayOrder) } } },
    async (req) => ok(req, await orders.cancel(uid(req), req.lang, req.body.id)),
  )
}
