import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import { Envelope } from '../../../contract/envelope.ts'
import { BorrowBody, LendingInfo, Loan, LoanPlan, RepayBody } from '../../../contract/lending.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { LendingService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

export function lendingRoutes(app: App, lending: LendingService): void {
  const tags = ['lending']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/lending/list',
    { ...auth, schema: { tags, summary: 'Loan plans: loan-to-value of a node stake, daily interest, longest term', response: { 200: Envelope(Type.Array(LoanPlan)) } } },
    async (req) => ok(req, await lending.list()),
  )
  app.get(
    '/api/v1/lending/info',
    {
      ...auth,
      schema: { tags, summary: 'The caller’s borrowing: each active node’s stake, debt and what is left to borrow per plan; loans; total debt; fund USDT', response: { 200: Envelope(LendingInfo) } },
    },
    async (req) => ok(req, await lending.info(uid(req))),
  )
  app.post(
    '/api/v1/lending/borrow',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Borrow USDT into the fund account against one of the caller’s active nodes, up to the plan’s loan-to-value of its stake less what its open loans owe',
        body: BorrowBody,
        response: { 200: Envelope(Loan) },
      },
    },
    async (req) => ok(req, await lending.borrow(uid(req), req.body)),
  )
  app.post(
    '/api/v1/lending/repay',
    { ...auth, schema: { tags, summary: 'Repay a loan in part or whole from the fund account; never above the debt', body: RepayBody, response: { 200: Envelope(Loan) } } },
    async (req) => ok(req, await lending.repay(uid(req), req.body)),
  )
}
