// Node and loan arithmetic (issue 11 parts 4 and 6). Pure: no I/O, tested in tests/unit/node/rules.test.ts.
// Amounts are bigint units of 1e-8; rates are parts per million (ppm).
const M = 1_000_000n

export interface FeeSplit {
  /** Per holder, in the order given: floor(pool × weight / Σ weights). */
  shares: bigint[]
  /** What the floors left: pool − Σ shares, for the dust account, so every unit is accounted for. */
  dust: bigint
}

/** The part of a day's withdraw fees that goes to node holders: floor(fees × poolPpm / 1e6). */
export const feePool = (fees: bigint, poolPpm: bigint): bigint => (fees * poolPpm) / M

/**
 * Splits the pool among the node holders by their withdraw_rate (a weight): each gets its share of
 * the pool in proportion, floored; the remainder goes to dust. Never pays more than the pool, and
 * pays it whole (but dust) whatever the rates add up to. No holder (or all weights 0): all dust.
 */
export function splitFees(pool: bigint, weights: readonly bigint[]): FeeSplit {
  if (pool < 0n) throw new RangeError('a pool is not negative')
  const total = weights.reduce((a, w) => {
    if (w < 0n) throw new RangeError('a weight is not negative')
    return a + w
  }, 0n)
  if (total === 0n) return { shares: weights.map(() => 0n), dust: pool }
  const shares = weights.map((w) => (pool * w) / total)
  return { shares, dust: pool - shares.reduce((a, s) => a + s, 0n) }
}

/** The most one may owe against a stake: floor(stake × loan-to-value). */
export const loanLimit = (stake: bigint, ltvPpm: bigint): bigint => (stake * ltvPpm) / M

/** What is left to borrow against a stake whose open loans owe `debt` (never negative). */
export function borrowable(stake: bigint, ltvPpm: bigint, debt: bigint): bigint {
  const left = loanLimit(stake, ltvPpm) - debt
  return left > 0n ? left : 0n
}

/** One day's interest on a debt: floor(debt × daily rate), in the borrower's favour by under a unit. */
export const dayInterest = (debt: bigint, dailyRatePpm: bigint): bigint => (debt * dailyRatePpm) / M

/** ppm → percent text: 5000 → "0.5". */
export function ppmPercent(ppm: bigint): string {
  const scale = 10_000n
  const frac = (ppm % scale).toString().padStart(4, '0').replace(/0+$/, '')
  return `${ppm / scale}${frac ? `.${frac}` : ''}`
}
