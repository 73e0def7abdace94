import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { LangCode } from '../../contract/constants.ts'
import type { ApiError } from './errors.ts'

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
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: LangCode
    user: AuthUser | null
    /** Why a presented token was refused; thrown only by routes that need a user. */
    authError: ApiError | null
    idempotency: { scope: string; key: string } | null
  }
  interface FastifyContextConfig {
    /** Set false on a POST that changes nothing, so it needs no Idempotency-Key bookkeeping. */
    idempotent?: boolean
  }
}
