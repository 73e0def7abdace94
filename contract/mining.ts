import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// Mining (SPEC §1, §2 /ming, /destoryList, /mingLog; §4 destroy status; issue 11): power bought by
// burning NADI (destroy) or contributing USDT (joint), a newcomer's trial power, and devices; power
// is released daily as NADI by the settlement. Power is counted in NADI still to release.

/** SPEC §4: 1 trial (experience), 2 paused, 3 permanent, 4 (or any other) unknown. */
export const DestroyStatus = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4)])
export type DestroyStatus = Static<typeof DestroyStatus>

/**
 * Why mining power is paused (status 2): the daily settlement stopped at a day it cannot fund —
 * `reward_pool` when the mining reward pool is short, `settlement` when another pool stops the day.
 * Paused power keeps what remains; the paused days are paid, in order, once the day is funded.
 */
export const MiningPause = Type.Object({
  reason: Type.Union([Type.Literal('reward_pool'), Type.Literal('settlement')]),
  /** The first day not paid (UTC midnight). */
  since: Millis,
})
export type MiningPause = Static<typeof MiningPause>

export const MiningInfo = Type.Object({
  /** Power still to release, over destroy, joint and trial power, plus devices' power. */
  power: Money,
  /** Of `power`, the newcomer's trial power (given at sign-up, not bought), so the total is not read as bought power. */
  trial_power: Money,
  /** What today's settlement will pay the caller's mining, NADI (final once the day ends). */
  today_estimate: Money,
  /** What yesterday's settlement paid. */
  yesterday: Money,
  nadi_price: Money,
  destroy_min: Money,
  joint_min: Money,
  /** Power per NADI burned, and per NADI's worth of USDT contributed, e.g. "3". */
  destroy_multiplier: Type.String(),
  joint_multiplier: Type.String(),
  /** Gift power on top, percent; daily release, percent of a position's power. */
  gift_percent: Type.String(),
  release_percent: Type.String(),
  /** Set while mining is paused. */
  pause: Type.Union([MiningPause, Type.Null()]),
  /** SPEC §3 account: the destroy pool, NADI burned by destroy mining (the ledger's `burned` account). */
  destroy_pool: Money,
  /** SPEC §3 account: the flow pool, NADI in circulation (held by users, available and frozen). */
  flow_pool: Money,
})
export type MiningInfo = Static<typeof MiningInfo>

export const MiningAmountBody = Type.Object({ amount: Money }, { additionalProperties: false })
export type MiningAmountBody = Static<typeof MiningAmountBody>

/**
 * GET mining/jointQuote: a NADI price locked for the caller until `expires_at` (ms since the epoch,
 * NADI_JOINT_QUOTE_TTL_MS after it was issued). Joint mining confirmed with its `quote_id` before
 * then is placed at exactly this price, however the market moved; each quote places one order.
 */
export const MiningJointQuote = Type.Object({
  quote_id: Type.String(),
  /** USDT per NADI. */
  price: Money,
  expires_at: Type.Integer(),
})
export type MiningJointQuote = Static<typeof MiningJointQuote>

/**
 * POST mining/joint, with exactly one of:
 * - `quote_id` (this app): the order is placed at the quote's locked price while the quote is the
 *   caller's, unused and unexpired; otherwise refused (404 unknown or another's, 409 used or expired)
 *   naming the current price, and the app asks for a new quote.
 * - `price` (app versions before quotes): the NADI price the preview used (mining/info nadi_price),
 *   refused (409, naming both) unless it is still the current price.
 * Either way the order pays at the price it was placed at, however the market moves before it is paid.
 */
export const MiningJointBody = Type.Object(
  { amount: Money, quote_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), price: Type.Optional(Money) },
  { additionalProperties: false },
)
export type MiningJointBody = Static<typeof MiningJointBody>

export const MiningPageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
})
export type MiningPageQuery = Static<typeof MiningPageQuery>

/** SPEC §3 destroy record: price, amount, USDT value, purchase date, status. */
export const DestroyRecord = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('destroy'), Type.Literal('joint'), Type.Literal('trial')]),
  /** The NADI price then. */
  price: Money,
  amount: Money,
  asset: Type.String(),
  usdt_value: Money,
  created_at: Millis,
  status: DestroyStatus,
  /** Why, when status is 2 (paused). */
  pause: Type.Union([MiningPause, Type.Null()]),
})
export type DestroyRecord = Static<typeof DestroyRecord>

/** SPEC §3 power log: type, buy power, gift power, released power, remaining power. */
export const PowerLogItem = Type.Object({
  id: Type.Integer(),
  type: Type.Union([Type.Literal('destroy'), Type.Literal('joint'), Type.Literal('trial'), Type.Literal('device'), Type.Literal('node')]),
  buy_power: Money,
  gift_power: Money,
  released: Money,
  /** Null for power that does not run out (a device, a node). */
  remaining: Type.Union([Money, Type.Null()]),
  /** Released per day now. */
  daily: Money,
  /**
   * Why two powers pay so differently a day (issue 17): trial power releases all of itself over its
   * `days`; bought power (destroy, joint) `release_percent` of itself a day until it runs out; a
   * device or node pays `release_percent` of its power a day and does not run out.
   */
  release_percent: Type.String(),
  /** The days trial power releases over; null for any other power. */
  days: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('ended')]),
  /** Why, when status is paused. */
  pause: Type.Union([MiningPause, Type.Null()]),
  start_date: Millis,
  /** The last day settled, if any. */
  settled_date: Type.Union([Millis, Type.Null()]),
})
export type PowerLogItem = Static<typeof PowerLogItem>
