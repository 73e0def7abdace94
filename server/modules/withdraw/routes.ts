import type { FastifyError, FastifyRequest } from 'fastify'
import { Envelope, PageQuery, Paged } from '../../../contract/envelope.ts'
import { Withdrawal, WithdrawBody, WithdrawConfig } from '../../../contract/withdraw.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest, type ApiError } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { WithdrawService } from './service.ts'

// A body field that is missing or malformed answers what is wrong with it in the form's words.
const FIELD_ERROR: Record<string, () => ApiError> = {
  coin: () => badRequest('errors.withdrawCoinUnsupported', { coin: 'NADI' }),
  chain: () => badRequest('errors.withdrawChainUnsupported'),
  amount: () => badRequest('errors.withdrawAmountInvalid'),
  address: () => badRequest('errors.withdrawAddressInvalid'),
}

function withdrawFormErrors(err: FastifyError, _req: FastifyRequest): never {
  const v = err.validation?.[0]
  if (v && err.validationContext === 'body') {
    const missing = (v.params as { missingProperty?: string }).missingProperty
    const field = v.keyword === 'required' && v.instancePath === '' ? missing : v.instancePath.split('/')[1]
    const mapped = field ? FIELD_ERROR[field] : undefined
    if (mapped) throw mapped()
  }
  throw err
}

const uid = (req: FastifyRequest) => req.user!.id

export function withdrawRoutes(app: App, withdrawals: WithdrawService) {
  const tags = ['withdraw']

  app.get(
    '/api/v1/withdraw/config',
    { schema: { tags, summary: 'What a withdrawal takes: NADI only, the minimum, the fee, the confirmations, the chains open now', response: { 200: Envelope(WithdrawConfig) } } },
    async (req) => ok(req, withdrawals.config()),
  )

  app.post(
    '/api/v1/withdraw/apply',
    {
      preHandler: requireAuth,
      errorHandler: withdrawFormErrors,
      schema: {
        tags,
        summary:
          'Request a NADI withdrawal: amount + fee are frozen at once; approved automatically below the threshold, otherwise by an operator; 3 confirmations',
        body: WithdrawBody,
        response: { 200: Envelope(Withdrawal) },
      },
    },
    async (req) => ok(req, await withdrawals.apply(uid(req), req.body)),
  )

  app.get(
    '/api/v1/withdraw/list',
    { preHandler: requireAuth, schema: { tags, summary: 'The caller’s withdrawals, newest first', querystring: PageQuery, response: { 200: Envelope(Paged(Withdrawal)) } } },
    async (req) => ok(req, await withdrawals.list(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
