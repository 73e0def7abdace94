import { CODE } from '../../contract/constants.ts'
import { constraintOf } from '../db/errors.ts'

type Params = Record<string, string | number>

/**
 * A business or input error with its HTTP status, envelope code and the locale key of its message.
 * The message is rendered in the request's language by the error handler.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly key: string,
    readonly params: Params = {},
    /** A body or query field whose localized name the handler renders as the `field` parameter. */
    readonly field?: string,
  ) {
    super(key)
  }
}

export const badRequest = (key: string, params?: Params) => new ApiError(400, CODE.INVALID, key, params)
/** The field's own "Invalid <field>" message, the same a value the route's schema refuses gets. */
export const invalidField = (field: string) => new ApiError(400, CODE.INVALID, 'errors.invalidField', {}, field)
export const notFound = (key = 'errors.notFound', params?: Params) => new ApiError(404, CODE.NOT_FOUND, key, params)
export const conflict = (key: string, params?: Params) => new ApiError(409, CODE.CONFLICT, key, params)
export const tooMany = (key = 'errors.tooFrequent', params?: Params) => new ApiError(429, CODE.RATE_LIMITED, key, params)
export const unauthorized = (key: 'errors.loginRequired' | 'errors.loginExpired' | 'errors.sealSession') =>
  new ApiError(401, CODE.UNAUTHORIZED, key)
/** SPEC §8: HTTP 401 with body code 200 tells the app to ask for an invite code. */
export const inviteRequired = () => new ApiError(401, CODE.OK, 'errors.inviteRequired')

/**
 * A race the database refused: a unique key or a check that another request's commit won at the same
 * moment (two api processes paying one order, taking the last unit). Answered like any refusal, a 409
 * in the user's language; nothing was applied, since the statement's transaction rolled back. Other
 * constraints (a foreign key, a missing value) are the server's own faults and stay 500s.
 */
export function raceRefusal(e: unknown): ApiError | null {
  const kind = constraintOf(e)
  if (kind === 'unique' || kind === 'check') return conflict('errors.concurrentChange')
  // Two processes' transactions that took rows in opposite orders (a deadlock PostgreSQL broke by
  // aborting one), or a serialization failure: the aborted one kept nothing and may simply run again.
  const code = e instanceof Error && 'code' in e ? e.code : undefined
  return code === '40P01' || code === '40001' ? conflict('errors.concurrentChange') : null
}

/**
 * The database connection was lost under the request (the connection is replaced at the next
 * statement), or the request's market batch was abandoned behind a failed one: a 503 "try again",
 * which a keyed request may repeat safely. Looked for through causes,
 * since a batch that failed with it may wrap it.
 */
export function databaseLost(e: unknown): ApiError | null {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    // A market batch rolled back unwritten because the one before it failed: nothing of it was kept either.
    if (cur.name === 'PgConnectionLost' || cur.name === 'MarketBatchAbandoned') return new ApiError(503, CODE.SERVER, 'errors.databaseUnavailable')
  }
  return null
}
