import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// Releases (DESIGN §10; SPEC §4 "Gold release: releasing, release completed"): a paid order's value
// returned as NADI, an instalment a UTC day, into the fund account.

export const ReleaseStatus = Type.Union([Type.Literal('releasing'), Type.Literal('completed')])
export type ReleaseStatus = Static<typeof ReleaseStatus>

export const ReleasePlan = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  order_no: Type.String(),
  /** The product, in the request's language. */
  title: Type.String(),
  cover: Type.String(),
  asset: Type.String(),
  /** NADI to release in all, and released so far. */
  total: Money,
  released: Money,
  /** The USDT value it stands for and the NADI price it was converted at. */
  value: Money,
  price: Money,
  days: Type.Integer(),
  released_days: Type.Integer(),
  /** The day of the first and last instalment (UTC midnight, ms). */
  start_date: Millis,
  end_date: Millis,
  /** Today's (or the next) instalment. */
  daily: Money,
  status: ReleaseStatus,
  created_at: Millis,
})
export type ReleasePlan = Static<typeof ReleasePlan>

export const ReleaseListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  status: Type.Optional(ReleaseStatus),
})
export type ReleaseListQuery = Static<typeof ReleaseListQuery>
