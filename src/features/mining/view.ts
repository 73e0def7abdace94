// What the mining screens compute beside the server's figures: the amount check of the destroy and
// joint forms, the power an amount buys, and the SPEC §4 wording of a record's status. Pure: the
// screens and the unit tests share it. The arithmetic is the server's (server/modules/mining/rules.ts),
// repeated on the terms mining/info answers, so the preview is what the order will really give.
import type { DestroyStatus, MiningAmountBody, MiningInfo, MiningJointBody, MiningJointQuote, PowerLogItem } from '../../../contract/mining.ts'
import { checkAmount, units, type AmountCheck } from '../wallet/amount.ts'

/** Burn NADI (destroy) or contribute USDT (joint). */
export type MiningKind = 'destroy' | 'joint'

export const ASSET_OF: Record<MiningKind, 'NADI' | 'USDT'> = { destroy: 'NADI', joint: 'USDT' }

const M = 1_000_000n
const UNIT = 100_000_000n

/** A multiplier as mining/info words it ("3", "2.5") → millionths; null when not such a number. */
export function timesToPpm(text: string): bigint | null {
  const m = /^(0|[1-9][0-9]{0,5})(?:\.([0-9]{1,6}))?$/.exec(text)
  if (!m) return null
  return BigInt(m[1] as string) * M + BigInt(((m[2] ?? '') + '000000').slice(0, 6))
}

export interface PowerPreview {
  /** Bought: the amount × the multiplier (joint: of its NADI worth). */
  power: bigint
  /** On top, the configured percent of what is bought. */
  gift: bigint
  total: bigint
}

/**
 * The gift percent → ppm. Unlike a savings rate it may pass 100 % (the server allows a gift up to
 * 1000 %, NADI_POWER_GIFT_PPM), so it is not read with percentToPpm.
 */
export function giftToPpm(text: string): bigint | null {
  const m = /^(0|[1-9][0-9]{0,3})(?:\.([0-9]{1,4}))?$/.exec(text)
  return m ? BigInt(m[1]!) * 10_000n + BigInt(((m[2] ?? '') + '0000').slice(0, 4)) : null
}

type Terms = Pick<MiningInfo, 'nadi_price' | 'destroy_multiplier' | 'joint_multiplier' | 'gift_percent'>

/**
 * The power `amount` units would buy, floored as the server floors it; null when the terms cannot be
 * read or joint mining has no NADI price to convert at.
 */
export function previewPower(kind: MiningKind, amount: bigint, terms: Terms): PowerPreview | null {
  const mult = timesToPpm(kind === 'destroy' ? terms.destroy_multiplier : terms.joint_multiplier)
  const giftPpm = giftToPpm(terms.gift_percent)
  if (mult === null || giftPpm === null || amount < 0n) return null
  let power: bigint
  if (kind === 'destroy') power = (amount * mult) / M
  else {
    const price = units(terms.nadi_price)
    if (price <= 0n) return null
    power = (amount * UNIT * mult) / (price * M)
  }
  const gift = (power * giftPpm) / M
  return { power, gift, total: power + gift }
}

/** What an order sends: a joint order names the quote whose locked price it previewed, which the server honours or refuses. */
export function orderBody(kind: MiningKind, amount: string, quote: Pick<MiningJointQuote, 'quote_id'> | undefined): MiningAmountBody | MiningJointBody {
  return kind === 'joint' && quote ? { amount, quote_id: quote.quote_id } : { amount }
}

/**
 * The form's check (SPEC §5): the shared amount rules (empty, negative, more than 8 decimals, zero,
 * above the available balance), with the minimum worded as the server words its refusal —
 * "minimum destroy amount is {amount}" — so the user reads the same sentence either way.
 */
export function checkMiningAmount(kind: MiningKind, text: string, rules: { min: bigint | undefined; available: bigint | undefined }): AmountCheck {
  const asset = ASSET_OF[kind]
  const c = checkAmount(text, { asset, min: rules.min, available: rules.available })
  if (!c.ok && c.problem.key === 'money.amountBelowMin' && rules.min !== undefined) {
    return { ok: false, problem: { key: kind === 'destroy' ? 'errors.destroyMin' : 'errors.jointMin', params: { amount: c.problem.params?.min ?? '' } } }
  }
  return c
}

/** SPEC §4: 1 trial (experience) mining, 2 paused, 3 permanent, 4 or anything else unknown. */
export type DestroyStatusWord = 'trial' | 'paused' | 'permanent' | 'unknown'
export function destroyStatusWord(status: DestroyStatus | number): DestroyStatusWord {
  return status === 1 ? 'trial' : status === 2 ? 'paused' : status === 3 ? 'permanent' : 'unknown'
}

/** How much of a position's power is released, percent with two decimals; null for power that does not run out (a device, a node). */
export function releasedPercent(p: Pick<PowerLogItem, 'released' | 'remaining'>): number | null {
  if (p.remaining === null) return null
  const released = units(p.released)
  const total = released + units(p.remaining)
  if (total <= 0n) return 0
  return Number((released * 10_000n) / total) / 100
}

/**
 * The sentence that says how a power row pays a day (issue 17: 100 trial power paying 14.29 NADI a
 * day beside 495 bought power paying 2.48 read as a mistake): trial power releases whole over its
 * days, bought power a percent of itself a day, a device's or node's a percent that does not run down.
 */
export function releaseRule(p: Pick<PowerLogItem, 'type' | 'days' | 'release_percent'>): [key: string, params: Record<string, string | number>] {
  if (p.type === 'trial' && p.days !== null) return ['mining.rule.trial', { days: p.days }]
  if (p.type === 'destroy' || p.type === 'joint') return ['mining.rule.bought', { percent: p.release_percent }]
  return ['mining.rule.held', { percent: p.release_percent }]
}
