import type { FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import { DestroyRecord, MiningAmountBody, MiningInfo, MiningJointBody, MiningJointQuote, MiningPageQuery, PowerLogItem } from '../../../contract/mining.ts'
import { PayOrder } from '../../../contract/orders.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { MiningService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

export function miningRoutes(app: App, mining: MiningService): void {
  const tags = ['mining']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/mining/info',
    { ...auth, schema: { tags, summary: 'The caller’s power, today’s estimate, yesterday’s earnings, and the destroy/joint terms', response: { 200: Envelope(MiningInfo) } } },
    async (req) => ok(req, await mining.info(uid(req))),
  )
  app.post(
    '/api/v1/mining/destroy',
    { ...auth, schema: { tags, summary: 'Destroy (burn) NADI for power: answers the order to pay; "minimum destroy amount is X" below the minimum', body: MiningAmountBody, response: { 200: Envelope(PayOrder) } } },
    async (req) => ok(req, await mining.destroy(uid(req), req.lang, req.body.amount)),
  )
  app.post(
    '/api/v1/mining/joint',
    {
      ...auth,
      schema: {
        tags,
        summary:
          'Joint mining: contribute USDT for power at a quote’s locked NADI price (quote_id, from mining/jointQuote; 404/409 when unknown, another’s, used or expired) or, for app versions before quotes, at the price previewed (409 when it has moved); the price is held until the order is paid or expires; answers the order to pay',
        body: MiningJointBody,
        response: { 200: Envelope(PayOrder) },
      },
    },
    async (req) => ok(req, await mining.joint(uid(req), req.lang, req.body)),
  )
  app.get(
    '/api/v1/mining/jointQuote',
    {
      ...auth,
      schema: { tags, summary: 'A NADI price locked for the caller’s joint mining until expires_at (NADI_JOINT_QUOTE_TTL_MS); confirm it once with mining/joint quote_id', response: { 200: Envelope(MiningJointQuote) } },
    },
    async (req) => ok(req, await mining.jointQuote(uid(req))),
  )
  app.get(
    '/api/v1/mining/destroyList',
    { ...auth, schema: { tags, summary: 'Destroy, joint and trial records: price, amount, USDT value, date, status (1 trial, 2 paused, 3 permanent, 4 unknown)', querystring: MiningPageQuery, response: { 200: Envelope(Paged(DestroyRecord)) } } },
    async (req) => ok(req, await mining.destroyList(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/mining/powerLog',
    { ...auth, schema: { tags, summary: 'The power log: type, bought power, gift power, released, remaining', querystring: MiningPageQuery, response: { 200: Envelope(Paged(PowerLogItem)) } } },
    async (req) => ok(req, await mining.powerLog(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
