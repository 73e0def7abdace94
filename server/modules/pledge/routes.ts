import type { FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import { MyPledge, PledgeBody, PledgeIdQuery, PledgeIncome, PledgePageQuery, PledgeProduct, PledgeReleaseLog } from '../../../contract/pledge.ts'
import { Type } from 'typebox'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { PledgeService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

export function pledgeRoutes(app: App, pledge: PledgeService): void {
  const tags = ['pledge']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/pledge/list',
    { ...auth, schema: { tags, summary: 'Savings products: term, minimum, day and month rates, capacity and what is left of it, power pool', response: { 200: Envelope(Type.Array(PledgeProduct)) } } },
    async (req) => ok(req, await pledge.list(req.lang)),
  )
  app.get(
    '/api/v1/pledge/detail',
    { ...auth, schema: { tags, summary: 'One savings product', querystring: PledgeIdQuery, response: { 200: Envelope(PledgeProduct) } } },
    async (req) => ok(req, await pledge.detail(req.lang, req.query.id)),
  )
  app.post(
    '/api/v1/pledge/pledge',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Pledge NADI: frozen in the fund account for the term, interest daily (day rate) or every 30 days (month rate) from tomorrow; refused below the minimum, beyond the capacity left or the balance',
        body: PledgeBody,
        response: { 200: Envelope(MyPledge) },
      },
    },
    async (req) => ok(req, await pledge.pledge(uid(req), req.lang, req.body)),
  )
  app.get(
    '/api/v1/pledge/myList',
    { ...auth, schema: { tags, summary: 'The caller’s pledges: term dates, remaining days, income, release amount, time and rate, status', querystring: PledgePageQuery, response: { 200: Envelope(Paged(MyPledge)) } } },
    async (req) => ok(req, await pledge.myList(uid(req), req.lang, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/pledge/releaseLog',
    { ...auth, schema: { tags, summary: 'One pledge of the caller: its release log and its income by day', querystring: PledgeIdQuery, response: { 200: Envelope(PledgeReleaseLog) } } },
    async (req) => ok(req, await pledge.releaseLog(uid(req), req.lang, req.query.id)),
  )
  app.get(
    '/api/v1/pledge/incomeLog',
    { ...auth, schema: { tags, summary: 'The income record: interest each settled day paid the caller’s pledges, newest first', querystring: PledgePageQuery, response: { 200: Envelope(Paged(PledgeIncome)) } } },
    async (req) => ok(req, await pledge.incomeLog(uid(req), req.lang, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
