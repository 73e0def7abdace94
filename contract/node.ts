import { Type, type Static } from 'typebox'
import { Millis, Money, PageQuery } from './envelope.ts'

// Super Miner nodes (SPEC §1 grants, §2 /node and /node/detail/{id}, §3 Node, §7 node/config and
// node/getOrder; issue 11 part 4). A tier is bought with an order to pay (USDT, the stake); once paid
// the stake is frozen in the buyer's fund account for `days` days and the grants take effect.

export const NodeType = Type.Union([Type.Literal('elite'), Type.Literal('core'), Type.Literal('genesis')])
export type NodeType = Static<typeof NodeType>

/** SPEC §3 Node, with rates as percent text ("0.5" = 0.5 %). */
export const NodeTier = Type.Object({
  id: Type.Integer(),
  type: NodeType,
  /** Seats in all, and left to buy (open unpaid orders hold theirs). */
  total: Type.Integer(),
  seats_left: Type.Integer(),
  /** Nodes of this tier one user may hold at once (paid or waiting for payment). */
  limit_num: Type.Integer(),
  /** What the caller holds of it now (paid or waiting for payment). */
  held: Type.Integer(),
  /** The stake, USDT. */
  amount: Money,
  days: Type.Integer(),
  /** Mining power, NADI; machine_rate percent of it is mined a day. */
  power: Money,
  level_id: Type.Integer(),
  /** The node's weight in the withdraw-fee pool, percent. */
  withdraw_rate: Type.String(),
  machine_rate: Type.String(),
  /** MEME airdrop multiplier (2 = doubled). */
  airdrop_multiplier: Type.Integer(),
  advanced_agent: Type.Boolean(),
})
export type NodeTier = Static<typeof NodeTier>

export const NodeConfig = Type.Object({
  tiers: Type.Array(NodeTier),
  /** Percent of each day's withdraw fees split among node holders (by withdraw_rate). */
  fee_pool_share: Type.String(),
  /** Node dividends: percent of each day's spot trading fees split among node holders by their USDT stake. */
  dividend_pool_share: Type.String(),
})
export type NodeConfig = Static<typeof NodeConfig>

export const NodeBuyBody = Type.Object({ node_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) }, { additionalProperties: false })
export type NodeBuyBody = Static<typeof NodeBuyBody>

/** pending: the order is not paid yet; active: staked and earning; returned: the stake is back; cancelled. */
export const NodeStatus = Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('returned'), Type.Literal('cancelled')])
export type NodeStatus = Static<typeof NodeStatus>

/** One node the caller bought: its order and, once paid, its stake, term, earnings and grants. */
export const MyNode = Type.Object({
  id: Type.Integer(),
  tier_id: Type.Integer(),
  type: NodeType,
  order_id: Type.Integer(),
  order_no: Type.String(),
  status: NodeStatus,
  amount: Money,
  days: Type.Integer(),
  days_left: Type.Integer(),
  power: Money,
  level_id: Type.Integer(),
  withdraw_rate: Type.String(),
  machine_rate: Type.String(),
  airdrop_multiplier: Type.Integer(),
  advanced_agent: Type.Boolean(),
  /** NADI mined so far, and withdraw-fee shares received (NADI). */
  mined: Money,
  fee_share: Money,
  /** Node dividends received: trading fees are paid in NADI (by buyers) and USDT (by sellers). */
  dividends: Type.Object({ USDT: Money, NADI: Money }),
  /** What the node's open loans owe, USDT: the stake is returned only once it is 0. */
  loan_debt: Money,
  /** The first day it earns and the day the stake is due back (ms, UTC midnight); null before payment. */
  start_at: Type.Union([Millis, Type.Null()]),
  end_at: Type.Union([Millis, Type.Null()]),
  created_at: Millis,
  paid_at: Type.Union([Millis, Type.Null()]),
  returned_at: Type.Union([Millis, Type.Null()]),
})
export type MyNode = Static<typeof MyNode>

export const NodeOrdersBody = Type.Object(
  {
    ...PageQuery.properties,
    /** Only the nodes of this tier. */
    tier_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })),
  },
  { additionalProperties: false },
)
export type NodeOrdersBody = Static<typeof NodeOrdersBody>
