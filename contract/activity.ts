import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// Activities (SPEC §2 /activity, /activity/detail/{id}, /activity/rank/{id}; issue 12 part 4): a
// campaign with a time window, a measure and prizes per rank. Participation is automatic: anyone who
// scores in the window is on the leaderboard; there is nothing to join. Prizes are paid through the
// ledger from the activity prize account when the window closes.

export const ACTIVITY_STATUSES = ['upcoming', 'running', 'ended'] as const
export const ActivityStatus = Type.Union([Type.Literal('upcoming'), Type.Literal('running'), Type.Literal('ended')])
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number]

/**
 * What is counted over the window: purchases (USDT of paid product orders: devices, gold, cars),
 * destroy (NADI destroyed for mining power), trading (spot quote volume in USDT, both sides),
 * team_growth (new members anywhere below the user in the referral tree).
 */
export const MEASURES = ['purchases', 'destroy', 'trading', 'team_growth'] as const
export const Measure = Type.Union([Type.Literal('purchases'), Type.Literal('destroy'), Type.Literal('trading'), Type.Literal('team_growth')])
export type Measure = (typeof MEASURES)[number]

/** The unit a measure's score is shown in: an asset, or a count of members. */
export const MEASURE_UNIT: Record<Measure, 'USDT' | 'NADI' | 'members'> = {
  purchases: 'USDT',
  destroy: 'NADI',
  trading: 'USDT',
  team_growth: 'members',
}

/** Each rank from `from` to `to` (inclusive) wins `amount` of `asset`. */
export const ActivityPrize = Type.Object({
  from: Type.Integer({ minimum: 1 }),
  to: Type.Integer({ minimum: 1 }),
  asset: Type.String(),
  amount: Money,
})
export type ActivityPrize = Static<typeof ActivityPrize>

export const ActivityItem = Type.Object({
  id: Type.Integer(),
  /** In the request's language. */
  title: Type.String(),
  cover: Type.String(),
  measure: Measure,
  status: ActivityStatus,
  starts_at: Millis,
  ends_at: Millis,
  prizes: Type.Array(ActivityPrize),
})
export type ActivityItem = Static<typeof ActivityItem>

export const ActivityDetail = Type.Object({
  ...ActivityItem.properties,
  body: Type.String(),
  /** The prizes have been paid (the window closed and the payout ran). */
  settled: Type.Boolean(),
  /** The server's clock when answering, so a countdown does not trust a phone's wrong clock. */
  server_time: Millis,
})
export type ActivityDetail = Static<typeof ActivityDetail>

export const RankEntry = Type.Object({
  rank: Type.Integer({ minimum: 1 }),
  user_id: Type.Integer(),
  name: Type.String(),
  /** A decimal amount (USDT or NADI) or a count of members, as MEASURE_UNIT says. */
  score: Type.String(),
  /** When the score was reached: the tie-break, earlier first. */
  reached_at: Millis,
  /** What this rank wins (or won), when it is inside the prize ranges. */
  prize: Type.Union([Type.Object({ asset: Type.String(), amount: Money }), Type.Null()]),
})
export type RankEntry = Static<typeof RankEntry>

export const ActivityRank = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  measure: Measure,
  status: ActivityStatus,
  ends_at: Millis,
  /** How many users have a score. */
  participants: Type.Integer({ minimum: 0 }),
  top: Type.Array(RankEntry),
  /** The caller's own place (or the asked user's), pinned even outside the top; null when the caller has no score yet. */
  me: Type.Union([RankEntry, Type.Null()]),
  /** When this leaderboard was read (scores are kept at event time, so it is current then). */
  computed_at: Millis,
  settled: Type.Boolean(),
})
export type ActivityRank = Static<typeof ActivityRank>

// Every activity query refuses a parameter it does not know (as the ranking's and the team's do): a
// mistyped `stauts` would otherwise be dropped silently and answer a different question.
export const ActivityListQuery = Type.Object(
  {
    status: Type.Optional(ActivityStatus),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  },
  { additionalProperties: false },
)
export type ActivityListQuery = Static<typeof ActivityListQuery>

export const RANK_LIMIT_DEFAULT = 20
export const RANK_LIMIT_MAX = 100
/** How many places the leaderboard screen shows (the caller's own is pinned besides). */
export const RANK_SCREEN_TOP = 50

/** /activity/detail: the shared IdQuery, closed to other parameters (the shared one is left open for the routes that use it). */
export const ActivityIdQuery = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) }, { additionalProperties: false })
export type ActivityIdQuery = Static<typeof ActivityIdQuery>

export const ActivityRankQuery = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: RANK_LIMIT_MAX, default: RANK_LIMIT_DEFAULT })),
    /**
     * The place of the caller or of a member of their team (strictly below them in the referral tree);
     * anyone else is refused alike whether or not they took part. Refused when an allowed user has no score.
     */
    user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })),
  },
  { additionalProperties: false },
)
export type ActivityRankQuery = Static<typeof ActivityRankQuery>
