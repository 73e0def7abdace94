import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// Savings (pledge) (SPEC §1, §2 /pledge, /pledge/detail/{id}, /pledge/releaseLog/{id}; §3 Pledge; §4
// "Pledge release: waiting for release, redeemed"; issue 11 part 5). A product is a term in days with a
// day rate and a month rate; pledging freezes NADI in the fund account, the settlement pays the
// interest from the savings account, and releases the principal at the end of the term.

export const PledgeMode = Type.Union([Type.Literal('day'), Type.Literal('month')])

/** SPEC §4: waiting for release (the term runs or has just ended), redeemed (principal unfrozen). */
export const PledgeStatus = Type.Union([Type.Literal('waiting'), Type.Literal('redeemed')])
export type PledgeStatus = Static<typeof PledgeStatus>

export const PledgeProduct = Type.Object({
  id: Type.Integer(),
  /** In the request's language. */
  name: Type.String(),
  /** The term, days. */
  day: Type.Integer(),
  min_pledge: Money,
  /** Percent of the principal paid per day, and per 30 days ("0" when the mode is not offered). */
  day_rate: Type.String(),
  month_rate: Type.String(),
  /** The product's capacity, what is pledged and not yet released, and what is left. */
  total_pledge: Money,
  pledged: Money,
  left: Money,
  /** The power pool the product stands for (shown as the operator sets it). */
  power_pool: Money,
  /** How many times each mode pays over the term (0: not offered). */
  day_periods: Type.Integer(),
  month_periods: Type.Integer(),
})
export type PledgeProduct = Static<typeof PledgeProduct>

export const PledgeIdQuery = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) }, { additionalProperties: false })
export type PledgeIdQuery = Static<typeof PledgeIdQuery>

export const PledgeBody = Type.Object(
  {
    product_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
    amount: Money,
    mode: PledgeMode,
  },
  { additionalProperties: false },
)
export type PledgeBody = Static<typeof PledgeBody>

/** SPEC §3: start/end date, remaining days, release_amount, release time, release rate, status. */
export const MyPledge = Type.Object({
  id: Type.Integer(),
  product_id: Type.Integer(),
  name: Type.String(),
  mode: PledgeMode,
  amount: Money,
  /** The rate of the chosen mode, percent per period. */
  rate: Type.String(),
  day: Type.Integer(),
  /** The first and the last day of the term (UTC midnight, ms). */
  start_date: Millis,
  end_date: Millis,
  remaining_days: Type.Integer(),
  /** Interest paid so far, and over the whole term. */
  income: Money,
  expected_income: Money,
  /** The principal returned at the end, when (planned, or done), and the share of it released, percent. */
  release_amount: Money,
  release_time: Millis,
  release_rate: Type.String(),
  status: PledgeStatus,
  created_at: Millis,
})
export type MyPledge = Static<typeof MyPledge>

export const PledgePageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  },
  { additionalProperties: false },
)
export type PledgePageQuery = Static<typeof PledgePageQuery>

export const PledgeRelease = Type.Object({ amount: Money, at: Millis, day: Millis })
export type PledgeRelease = Static<typeof PledgeRelease>

/** One settled day of a pledge's interest. */
export const PledgeIncome = Type.Object({
  pledge_id: Type.Integer(),
  name: Type.String(),
  /** The day the interest is for (UTC midnight, ms). */
  day: Millis,
  amount: Money,
})
export type PledgeIncome = Static<typeof PledgeIncome>

export const PledgeReleaseLog = Type.Object({
  pledge: MyPledge,
  releases: Type.Array(PledgeRelease),
  income: Type.Array(PledgeIncome),
})
export type PledgeReleaseLog = Static<typeof PledgeReleaseLog>
