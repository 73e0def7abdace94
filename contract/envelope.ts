import { Type, type Static, type TSchema } from 'typebox'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

/** Every JSON response body (DESIGN §3). */
export interface ApiEnvelope<T> {
  code: number
  msg: string
  data: T
}

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer(), msg: Type.String(), data })

export const ErrorEnvelope = Type.Object({ code: Type.Integer(), msg: Type.String(), data: Type.Null() })

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
})
export type PageQuery = Static<typeof PageQuery>

export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer({ minimum: 0 }) })
export interface PagedList<T> {
  list: T[]
  total: number
}

/** An EVM address, any case on input; the server answers checksummed. */
export const EvmAddress = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', maxLength: 42 })
/** A decimal amount string with at most 8 decimals, e.g. "12.5". */
export const Money = Type.String({ pattern: '^(0|[1-9][0-9]{0,19})(\\.[0-9]{1,8})?$', maxLength: 29 })
/** A signed amount, for records of money leaving (-) or entering an account. */
export const SignedMoney = Type.String({ pattern: '^-?(0|[1-9][0-9]{0,19})(\\.[0-9]{1,8})?$', maxLength: 30 })
/** Unix milliseconds. */
export const Millis = Type.Integer({ minimum: 0 })
export const IdQuery = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) })
export type IdQuery = Static<typeof IdQuery>
