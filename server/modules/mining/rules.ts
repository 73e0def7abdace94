// Mining arithmetic. Pure: no I/O, tested in tests/unit/mining/rules.test.ts.
import { AMOUNT_MAX } from '../../../contract/money.ts'
import type { MiningPause } from '../../../contract/mining.ts'

const M = 1_000_000n
const UNIT = 100_000_000n

/** Power for NADI burned: amount × multiplier (ppm), floored to the unit. */
export const destroyPower = (amount: bigint, multiplierPpm: bigint): bigint => (amount * multiplierPpm) / M

/** Power for USDT contributed: its NADI worth at `price` (USDT per NADI) × multiplier, floored. */
export function jointPower(usdt: bigint, price: bigint, multiplierPpm: bigint): bigint {
  if (price <= 0n) throw new RangeError('joint mining needs a positive NADI price')
  return (usdt * UNIT * multiplierPpm) / (price * M)
}

/** Gift power on top of what is bought. */
export const giftPower = (power: bigint, giftPpm: bigint): bigint => (power * giftPpm) / M

export interface PowerTerms {
  destroyMultiplierPpm: bigint
  jointMultiplierPpm: bigint
  giftPpm: bigint
}

/** What a paid destroy (NADI) or joint (USDT) order of `amount` gives at `price`: bought power and gift. */
export function boughtPower(type: 'destroy' | 'joint', amount: bigint, price: bigint, terms: PowerTerms): { power: bigint; gift: bigint } {
  const power = type === 'destroy' ? destroyPower(amount, terms.destroyMultiplierPpm) : jointPower(amount, price, terms.jointMultiplierPpm)
  return { power, gift: giftPower(power, terms.giftPpm) }
}

/**
 * Whether an order of `amount` may be placed: its power with gift, at today's price, is an amount the
 * ledger holds too (at most AMOUNT_MAX, as it is released as NADI) — multipliers up to 100× and a
 * low price would otherwise take a valid amount past the int64 range.
 */
export function powerFits(type: 'destroy' | 'joint', amount: bigint, price: bigint, terms: PowerTerms): boolean {
  const { power, gift } = boughtPower(type, amount, price, terms)
  return power + gift <= AMOUNT_MAX
}

/** What a position pays for one period: floor(base × rate / 1e6), capped by what remains (the settlement's formula). */
export function periodAmount(base: bigint, ratePpm: bigint, remaining: bigint | null): bigint {
  const f = (base / M) * ratePpm + ((base % M) * ratePpm) / M
  return remaining !== null && remaining < f ? remaining : f
}

/** USDT worth of NADI at `price`, floored. */
export const usdtValue = (nadi: bigint, price: bigint): bigint => (nadi * price) / UNIT

/**
 * The rule for pausing (SPEC §4 status 2): mining power is paid by the daily settlement, so it is
 * paused exactly while the settlement is stopped at a day it cannot fund — a crypto miner's "the pool
 * is not paying out". The reason says whether the mining reward pool is the one short. Null: it runs.
 */
export function miningPause(halt: { day: number; account: string } | null, dayStartOf: (day: number) => number): MiningPause | null {
  if (!halt) return null
  return { reason: halt.account === 'mining' ? 'reward_pool' : 'settlement', since: dayStartOf(halt.day) }
}

/** A position as the user sees it: active power is paused while mining is; ended stays ended. */
export function positionStatus(stored: 'active' | 'paused' | 'ended', pause: MiningPause | null): 'active' | 'paused' | 'ended' {
  return stored === 'active' && pause ? 'paused' : stored
}

/** SPEC §4 destroy status from the position's status as the user sees it: 1 trial, 2 paused, 3 permanent, 4 unknown. */
export function destroyStatus(kind: string, status: string): 1 | 2 | 3 | 4 {
  if (kind === 'trial') return 1
  if (status === 'paused') return 2
  if (kind === 'destroy' || kind === 'joint') return 3
  return 4
}

/** ppm → "3" (multiplier) or percent "0.5". */
export const ppmTimes = (ppm: bigint): string => trim(ppm, M)
export const ppmPercent = (ppm: bigint): string => trim(ppm, 10_000n)

function trim(v: bigint, scale: bigint): string {
  const whole = v / scale
  const digits = scale.toString().length - 1
  const frac = (v % scale).toString().padStart(digits, '0').replace(/0+$/, '')
  return `${whole}${frac ? `.${frac}` : ''}`
}
