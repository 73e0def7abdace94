import { Type, type Static } from 'typebox'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'
import { Millis, Money } from './envelope.ts'

// The team view (SPEC §3 Team; issue 12 parts 1 and 2). "Team" is everyone below the signed-in user
// in the referral tree, at any depth, never the user: team_num, team_performance and the node counts
// all cover exactly those members. Only the caller's own team is reachable: no parameter names another user.

export const TeamListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
    /** An exact user ID (contract/teamRules.ts): the list is then that member, or empty when not in the team. */
    search: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
)
export type TeamListQuery = Static<typeof TeamListQuery>

/** One member of the caller's team. */
export const TeamMember = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  wallet_address: Type.String(),
  /** 1 for a direct referral, 2 for theirs, … */
  generation: Type.Integer({ minimum: 1 }),
  /** Node tier T{level}; 0 without a node. */
  level: Type.Integer(),
  advanced_agent: Type.Boolean(),
  zhi_num: Type.Integer(),
  team_num: Type.Integer(),
  /** Their own purchases (USDT). */
  me_performance: Money,
  /** Their team's purchases (USDT), themselves not included. */
  team_performance: Money,
  created_at: Millis,
})
export type TeamMember = Static<typeof TeamMember>

/** Nodes held (paid, stake not returned yet) by members of the team, by tier. */
export const TeamNodes = Type.Object({ elite: Type.Integer(), core: Type.Integer(), genesis: Type.Integer() })
export type TeamNodes = Static<typeof TeamNodes>

export const TeamInfo = Type.Object({
  zhi_num: Type.Integer(),
  team_num: Type.Integer(),
  zhi_performance: Money,
  team_performance: Money,
  nodes: TeamNodes,
})
export type TeamInfo = Static<typeof TeamInfo>
