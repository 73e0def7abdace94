import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { LangCode } from '../../contract/constants.ts'
import type { ApiError } from './errors.ts'
import type { HandshakeKeys } from './sealCrypto.ts'

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

export interface AuthUser {
  id: number
  address: string
  sessionId: number
  /** The envelope's handshake the session's token works with (issue 20); null for a session made with the envelope off. */
  handshakeId: string | null
  /** The handshake the session was last renewed from: it may only renew again. */
  previousHandshakeId: string | null
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: LangCode
    user: AuthUser | null
    /** Why a presented token was refused; thrown only by routes that need a user. */
    authError: ApiError | null
    idempotency: import('./idempotency.ts').KeyedRequest | null
    /** Set once a sealed request is opened (server/http/seal.ts): its answer is sealed under the same keys. */
    seal: { keys: HandshakeKeys; sign: string; method: string; path: string } | null
  }
  interface FastifyContextConfig {
    /** Set false on a POST that changes nothing, so it needs no Idempotency-Key bookkeeping. */
    idempotent?: boolean
  }
}
