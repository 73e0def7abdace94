import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { CODE } from '../../contract/constants.ts'
import { translate } from '../i18n.ts'
import type { ApiError } from './errors.ts'

export function ok<T>(req: FastifyRequest, data: T): ApiEnvelope<T> {
  return { code: CODE.OK, msg: translate(req.lang, 'api.ok'), data }
}

/** A business error's envelope in the request's language, its field named as the user reads it. */
export function refusal(req: FastifyRequest, err: ApiError): ApiEnvelope<null> {
  const t = (key: string, params?: Record<string, string | number>) => translate(req.lang, key, params)
  const label = err.field === undefined ? null : t(`fields.${err.field}`)
  const field = label === null ? null : label.startsWith('fields.') ? err.field! : label
  return { code: err.code, msg: t(err.key, field === null ? err.params : { ...err.params, field }), data: null }
}

/**
 * Public content the same for everyone (banners, notices, config) may be kept by the browser for a
 * while, per language, so a warm start needs no round trip for it. Never for anything per user.
 */
export function publicCache(reply: FastifyReply, maxAgeSeconds: number): void {
  reply.header('cache-control', `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds * 10}`)
  reply.header('vary', 'LANG, Accept-Encoding')
}
