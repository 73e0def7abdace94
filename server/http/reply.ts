import type { FastifyRequest } from 'fastify'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { CODE } from '../../contract/constants.ts'
import { translate } from '../i18n.ts'

export function ok<T>(req: FastifyRequest, data: T): ApiEnvelope<T> {
  return { code: CODE.OK, msg: translate(req.lang, 'api.ok'), data }
}
