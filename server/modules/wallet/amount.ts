// SPEC §5 for an amount someone types: not empty, not below 0, not above what is available — each with
// its own message instead of the generic "invalid field". The wire format itself is the contract's
// Money schema (a decimal string, at most 8 decimals); this names what is wrong with a value it refused.

import type { FastifyError, FastifyRequest } from 'fastify'
import { formatMoney } from '../../../contract/money.ts'
import { badRequest, type ApiError } from '../../http/errors.ts'

const MONEY_RE = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,8})?$/

/** The message key for an amount the Money schema refuses (or would refuse); null when it is well formed. */
export function amountProblem(value: unknown): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return 'errors.amountRequired'
  if (typeof value === 'number') return value < 0 ? 'errors.amountBelowZero' : 'errors.amountInvalid'
  if (typeof value !== 'string') return 'errors.amountInvalid'
  if (MONEY_RE.test(value)) return null
  const t = value.trim()
  if (/^-\s*[0-9.]/.test(t)) return 'errors.amountBelowZero'
  if (/^[0-9]+\.[0-9]{9,}$/.test(t)) return 'errors.amountDecimals'
  return 'errors.amountInvalid'
}

/** A zero amount, once the format is right. */
export const amountZero = () => badRequest('errors.amountZero')

/** SPEC §5 "not above available assets", with what is available. */
export const aboveAvailable = (asset: string, available: bigint): ApiError =>
  badRequest('errors.amountAboveAvailable', { asset, available: formatMoney(available) })

/**
 * A route error handler: a refused `amount` (in the body or the query string) answers its SPEC §5
 * message; any other error goes on to the app's handler (a route handler that throws hands over).
 */
export function amountErrors(err: FastifyError, req: FastifyRequest): never {
  const ctx = err.validationContext
  if (err.validation && (ctx === 'body' || ctx === 'querystring')) {
    const source = (ctx === 'body' ? req.body : req.query) as Record<string, unknown> | null | undefined
    const value = source && typeof source === 'object' ? source.amount : undefined
    const key = amountProblem(value)
    if (key) throw badRequest(key)
  }
  throw err
}
