import type { FastifyError, FastifyRequest } from 'fastify'
import { Envelope } from '../../../contract/envelope.ts'
import { PreOrderBody, PreOrderResult, PreOrderTips, REMARK_MAX } from '../../../contract/preOrder.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { PreOrderService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

/** A remark past the schema's outer bound (4× the limit) is too long, in the words the service uses below it. */
function remarkErrors(err: FastifyError): never {
  const v = err.validation?.[0]
  if (v && err.validationContext === 'body' && v.instancePath === '/remark' && v.keyword === 'maxLength') throw badRequest('errors.remarkTooLong', { max: REMARK_MAX })
  throw err
}

export function preOrderRoutes(app: App, preOrder: PreOrderService): void {
  const tags = ['preOrder']
  const auth = { preHandler: requireAuth }
  app.post(
    '/api/v1/preOrder/preOrder',
    {
      ...auth,
      errorHandler: remarkErrors,
      schema: {
        tags,
        summary: 'Order a product (device, gold, car): specification, quantity, delivery address when it ships, remark; answers the order to pay, which holds the stock for 15 min; refused by the hold rules (README "Holds")',
        body: PreOrderBody,
        response: { 200: Envelope(PreOrderResult) },
      },
    },
    async (req) => ok(req, await preOrder.create(uid(req), req.lang, req.body)),
  )
  app.get(
    '/api/v1/preOrder/tips',
    { ...auth, schema: { tags, summary: 'The unpaid-order reminder: how many orders wait for payment, and the one that expires first', response: { 200: Envelope(PreOrderTips) } } },
    async (req) => ok(req, await preOrder.tips(uid(req), req.lang)),
  )
}
