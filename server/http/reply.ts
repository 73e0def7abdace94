import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { CODE } from '../../contract/constants.ts'
import { translate } from '../i18n.ts'

export function ok<T>(req: FastifyRequest, data: T): ApiEnvelope<T> {
  return { code: CODE.OK, msg: translate(req.lang, 'api.ok'), data }
}

/**
 * Public content the same for everyone (banners, notices, config) may be kept by the browser for a
 * while, per language, so a warm start needs no round trip for it. Never for anything per user.
 */
export function publicCache(reply: FastifyReply, maxAgeSeconds: number): void {
  reply.header('cache-control', `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${maxAgeSeconds * 10}`)
  reply.header('vary', 'LANG, Accept-Encoding')
}
