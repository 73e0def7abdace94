// What the savings screens show beside the server's figures. Pure: the unit tests share it.
import { parseMoney } from '../../../contract/money.ts'
import type { MyPledge, PledgeProduct } from '../../../contract/pledge.ts'
import { DAY_MS, percentToPpm, termIncome, type PledgeMode as Mode } from '../../../contract/pledgeRules.ts'
import { lastDayOf, termOf } from '../../../contract/term.ts'

/** The modes a product offers, the day first. */
export function offeredModes(p: Pick<PledgeProduct, 'day_periods' | 'month_periods'>): Mode[] {
  const out: Mode[] = []
  if (p.day_periods > 0) out.push('day')
  if (p.month_periods > 0) out.push('month')
  return out
}

/** The interest a pledge of `amount` units would earn over the product's term in `mode` (0 when not offered). */
export function estimateIncome(p: Pick<PledgeProduct, 'day' | 'day_rate' | 'month_rate'>, mode: Mode, amount: bigint): bigint {
  const ppm = percentToPpm(mode === 'day' ? p.day_rate : p.month_rate) ?? 0n
  return termIncome(amount, ppm, p.day, mode)
}

/** How much of the capacity is taken, percent with two decimals, on integer units. */
export function takenPercent(p: Pick<PledgeProduct, 'pledged' | 'total_pledge'>): number {
  const taken = parseMoney(p.pledged) ?? 0n
  const total = parseMoney(p.total_pledge) ?? 0n
  if (total <= 0n || taken <= 0n) return 0
  if (taken >= total) return 100
  return Number((taken * 10_000n) / total) / 100
}

/** How far through its term a pledge is, percent (0 before it starts, 100 once over). */
export function termPercent(g: Pick<MyPledge, 'day' | 'remaining_days'>): number {
  if (g.day <= 0) return 100
  return Math.round(((g.day - g.remaining_days) / g.day) * 10_000) / 100
}

/** What the pledge confirm shows before anything is frozen: the terms of a pledge made at `now`. */
export interface PledgeQuote {
  amount: bigint
  mode: Mode
  /** The rate of the mode, percent, as the product states it. */
  rate: string
  days: number
  /** The first and last day of the term (UTC midnight, ms). */
  startAt: number
  lastAt: number
  /** When the principal is unfrozen: the end of the term's last day. */
  returnAt: number
  income: bigint
}

export function pledgeQuote(p: Pick<PledgeProduct, 'day' | 'day_rate' | 'month_rate'>, mode: Mode, amount: bigint, now: number): PledgeQuote {
  const { startDay, endDay } = termOf(Math.floor(now / DAY_MS), p.day)
  return {
    amount,
    mode,
    rate: mode === 'day' ? p.day_rate : p.month_rate,
    days: p.day,
    startAt: startDay * DAY_MS,
    lastAt: lastDayOf({ endDay }) * DAY_MS,
    returnAt: endDay * DAY_MS,
    income: estimateIncome(p, mode, amount),
  }
}
