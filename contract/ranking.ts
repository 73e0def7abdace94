import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// The ranking (SPEC §1 "ranking (daily and total prize pools)", issue 12 part 3). Two pools fed by a
// share of each day's platform income (withdraw fees, trading fees, destroy); the daily ranking by
// what each user added that day (team performance by default) pays its top N from the daily pool when
// the UTC day ends; the total ranking (team performance since launch) pays from the total pool when
// the operator pays it. Days are UTC days since 1970-01-01 (day × 86,400,000 = its start, ms).

/** The newest day any request may name: far beyond any real date, so a typo is refused, not searched. */
export const RANKING_DAY_MAX = 1_000_000

/** An amount per asset the pools hold (the fees arrive in both). */
export const PoolAmounts = Type.Object({ USDT: Money, NADI: Money })
export type PoolAmounts = Static<typeof PoolAmounts>

export const RankingPool = Type.Object({
  /** What the pool holds now. */
  balance: PoolAmounts,
  /** Its share of today's income so far: what the settlement adds when today ends. */
  today: PoolAmounts,
  /** Its share of each day's income, percent. */
  share: Type.String(),
  /** How many ranks it pays, and each rank's share of the pool, percent, rank 1 first. */
  top: Type.Integer({ minimum: 1 }),
  prizes: Type.Array(Type.String()),
})
export type RankingPool = Static<typeof RankingPool>

export const RankingPools = Type.Object({
  /** Today (UTC days since 1970-01-01), its start and its end (when the daily pool pays), ms. */
  day: Type.Integer({ minimum: 0 }),
  day_start: Millis,
  day_end: Millis,
  daily: RankingPool,
  total: RankingPool,
  /** The last day the total pool paid, or null. */
  total_paid_day: Type.Union([Type.Integer(), Type.Null()]),
})
export type RankingPools = Static<typeof RankingPools>

export const RankRow = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  user_id: Type.Integer(),
  name: Type.String(),
  /** What the user added (USDT): that day for the daily ranking, since launch for the total. */
  amount: Money,
  /** When the amount was reached: of equal amounts the earlier ranks higher. */
  reached_at: Millis,
  /** What the rank was paid (null: not paid, or not yet). */
  prize_usdt: Type.Union([Money, Type.Null()]),
  prize_nadi: Type.Union([Money, Type.Null()]),
})
export type RankRow = Static<typeof RankRow>

export const DailyRanking = Type.Object({
  day: Type.Integer({ minimum: 0 }),
  /** Today's ranking, still moving. */
  live: Type.Boolean(),
  /** The day is over and its pool paid (rows show their prizes). */
  paid: Type.Boolean(),
  list: Type.Array(RankRow),
  total: Type.Integer({ minimum: 0 }),
})
export type DailyRanking = Static<typeof DailyRanking>

export const TotalRanking = Type.Object({
  list: Type.Array(RankRow),
  total: Type.Integer({ minimum: 0 }),
  /** The last day the total pool paid (its winners' prizes show on their rows), or null. */
  paid_day: Type.Union([Type.Integer(), Type.Null()]),
})
export type TotalRanking = Static<typeof TotalRanking>

export const MyRank = Type.Object({
  /** null: not in the ranking (nothing added). */
  rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  amount: Money,
  prize_usdt: Type.Union([Money, Type.Null()]),
  prize_nadi: Type.Union([Money, Type.Null()]),
})
export type MyRank = Static<typeof MyRank>

export const MyRanking = Type.Object({
  day: Type.Integer({ minimum: 0 }),
  daily: MyRank,
  total: MyRank,
})
export type MyRanking = Static<typeof MyRanking>

/**
 * The rankings show their top 10,000: a page starting beyond it is refused (ranking.errors.pageTooDeep)
 * and the app stops loading pages there. Anyone's own rank, at any depth, is /ranking/mine's answer.
 */
export const RANKING_SHOWN = 10_000

const Page = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
}
const Day = Type.Integer({ minimum: 0, maximum: RANKING_DAY_MAX })

/** day: a past day (or today); left out, today (live). */
export const DailyQuery = Type.Object({ day: Type.Optional(Day), ...Page }, { additionalProperties: false })
export type DailyQuery = Static<typeof DailyQuery>
export const TotalQuery = Type.Object(Page, { additionalProperties: false })
export type TotalQuery = Static<typeof TotalQuery>
export const MineQuery = Type.Object({ day: Type.Optional(Day) }, { additionalProperties: false })
export type MineQuery = Static<typeof MineQuery>

/** The public socket stream of the pools and today's ranking (DESIGN §5): a snapshot on subscribe, an update on each change. */
export const RANKING_STREAM = 'ranking'
export interface RankingPush {
  pools: RankingPools
  /** Changes whenever today's ranking does: the app refetches the lists it shows. */
  version: string
}
