import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'

export const UserInfo = Type.Object({
  id: Type.Integer(),
  /** The user's own invite code. */
  code: Type.String(),
  name: Type.String(),
  wallet_address: Type.String(),
  /** Direct referrals. */
  zhi_num: Type.Integer(),
  /** Everyone below in the referral tree. */
  team_num: Type.Integer(),
  me_performance: Money,
  zhi_performance: Money,
  team_performance: Money,
  /** Node tier T{level}; 0 without a node. */
  level: Type.Integer(),
  /** Advanced-agent rights, granted by a paid node whose tier carries them (kept like the level). */
  advanced_agent: Type.Boolean(),
  created_at: Millis,
})
export type UserInfo = Static<typeof UserInfo>

export const ZhiItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  wallet_address: Type.String(),
  team_num: Type.Integer(),
  me_performance: Money,
  /** Node tier T{level}, shown beside the name; 0 without a node. */
  level: Type.Integer(),
  advanced_agent: Type.Boolean(),
  created_at: Millis,
})
export type ZhiItem = Static<typeof ZhiItem>
