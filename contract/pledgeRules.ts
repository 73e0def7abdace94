// Savings (pledge) arithmetic and rules (SPEC §3 Pledge, §4, §5; issue 11 part 5). Pure, shared by the
// server (which decides) and the screens (which show the estimate and refuse early). Amounts are
// integer units of 1e-8; rates are parts per million of the principal per period.

/** Interest is paid daily at the day rate, or every 30 days at the month rate. */
export type PledgeMode = 'day' | 'month'

/** The days a month-rate period lasts (the settlement pays it on each 30th day of the term). */
export const MONTH_DAYS = 30

export const DAY_MS = 86_400_000

/** The period of a mode, in days (the position's period_days). */
export const periodDays = (mode: PledgeMode): number => (mode === 'day' ? 1 : MONTH_DAYS)

/** How many times a term of `days` pays: every day, or every full 30 days (a partial month pays nothing). */
export const periodsOf = (days: number, mode: PledgeMode): number => Math.floor(days / periodDays(mode))

/** One period's interest, floored to the ledger unit exactly as the settlement computes it. */
export const periodIncome = (principal: bigint, ratePpm: bigint): bigint => (principal * ratePpm) / 1_000_000n

/** The interest a pledge earns over its whole term. */
export const termIncome = (principal: bigint, ratePpm: bigint, days: number, mode: PledgeMode): bigint =>
  periodIncome(principal, ratePpm) * BigInt(periodsOf(days, mode))

/** A rate as a percent with up to 4 decimals ("0.15") → ppm (1500). null when not such a number. */
export function percentToPpm(text: string): bigint | null {
  const m = /^(0|[1-9][0-9]{0,2})(?:\.([0-9]{1,4}))?$/.exec(text)
  if (!m) return null
  const ppm = BigInt(m[1] as string) * 10_000n + BigInt(((m[2] ?? '') + '0000').slice(0, 4))
  return ppm <= 1_000_000n ? ppm : null
}

/** 1500n ppm → "0.15" (percent, no trailing zeros). */
export function ppmToPercent(ppm: bigint): string {
  const whole = ppm / 10_000n
  const frac = (ppm % 10_000n).toString().padStart(4, '0').replace(/0+$/, '')
  return `${whole}${frac ? `.${frac}` : ''}`
}

export interface PledgeTerms {
  day: number
  minPledge: bigint
  dayRatePpm: bigint
  monthRatePpm: bigint
  totalPledge: bigint
  /** What is pledged and not yet released. */
  pledged: bigint
}

/** What is left of a product's capacity. */
export const capacityLeft = (p: Pick<PledgeTerms, 'totalPledge' | 'pledged'>): bigint => (p.totalPledge > p.pledged ? p.totalPledge - p.pledged : 0n)

/** The rate a mode pays on a product; 0 means the mode is not offered (no rate, or a term shorter than a month). */
export function modeRate(p: Pick<PledgeTerms, 'day' | 'dayRatePpm' | 'monthRatePpm'>, mode: PledgeMode): bigint {
  if (periodsOf(p.day, mode) === 0) return 0n
  return mode === 'day' ? p.dayRatePpm : p.monthRatePpm
}

export type PledgeRefusal =
  | { reason: 'amountZero' }
  | { reason: 'modeUnavailable' }
  | { reason: 'belowMin'; min: bigint }
  | { reason: 'capacity'; left: bigint }
  | { reason: 'insufficient'; current: bigint; required: bigint }

/**
 * Why a pledge of `amount` in `mode` is refused, or null. Checked in this order so the user is told
 * the first thing to change: the mode, the product's minimum, what is left of its capacity, then
 * their balance.
 */
export function checkPledge(p: PledgeTerms, mode: PledgeMode, amount: bigint, available: bigint): PledgeRefusal | null {
  if (amount <= 0n) return { reason: 'amountZero' }
  if (modeRate(p, mode) === 0n) return { reason: 'modeUnavailable' }
  if (amount < p.minPledge) return { reason: 'belowMin', min: p.minPledge }
  const left = capacityLeft(p)
  if (amount > left) return { reason: 'capacity', left }
  if (amount > available) return { reason: 'insufficient', current: available, required: amount }
  return null
}
