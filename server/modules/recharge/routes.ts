import type { FastifyError, FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, PageQuery, Paged } from '../../../contract/envelope.ts'
import { Deposit, RechargeAddress, RechargeAddressQuery } from '../../../contract/recharge.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { RechargeService } from './service.ts'

const COINS: readonly unknown[] = ['USDT', 'NADI']
const CHAINS: readonly unknown[] = ['bsc', 'nadi']

/**
 * SPEC §5: a coin, then a chain, must be chosen before an address is shown. A missing or unknown one
 * answers "select currency" (first) or "select chain", whichever the schema noticed first.
 */
function selectionErrors(err: FastifyError, req: FastifyRequest): never {
  if (err.validation && err.validationContext === 'querystring') {
    const q = (req.query ?? {}) as Record<string, unknown>
    if (!COINS.includes(q.coin)) throw badRequest('errors.selectCurrency')
    if (!CHAINS.includes(q.chain)) throw badRequest('errors.selectChain')
  }
  throw err
}

/** requireAuth guarantees a user. */
const uid = (req: FastifyRequest) => req.user!.id

export function rechargeRoutes(app: App, recharge: RechargeService) {
  const tags = ['recharge']

  app.get(
    '/api/v1/recharge/address',
    {
      preHandler: requireAuth,
      errorHandler: selectionErrors,
      schema: {
        tags,
        summary: 'The caller’s deposit address for a coin on a chain, with the token contract and the confirmations a credit waits for',
        querystring: RechargeAddressQuery,
        response: { 200: Envelope(RechargeAddress) },
      },
    },
    async (req) => ok(req, await recharge.address(uid(req), req.query.coin, req.query.chain)),
  )

  app.get(
    '/api/v1/recharge/list',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'The caller’s deposits, newest first, with their confirmations (/recharge/list)', querystring: PageQuery, response: { 200: Envelope(Paged(Deposit)) } },
    },
    async (req) => ok(req, await recharge.list(uid(req), req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
