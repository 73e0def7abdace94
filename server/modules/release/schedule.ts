// Release arithmetic (DESIGN §10). Pure: no I/O, tested in tests/unit/release/schedule.test.ts.

export const DAY_MS = 86_400_000

/** The UTC day a moment falls in, as days since 1970-01-01. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS)

/** The start of a UTC day, ms. */
export const dayStart = (day: number): number => day * DAY_MS

/**
 * The instalment of day `k` (0-based) of a plan of `total` over `days`: total / days, plus one unit
 * for the first total % days days. Exact: the instalments sum to the total, nothing is left over, and
 * no product can overflow (SQL computes the same with the same two operations).
 */
export function instalment(total: bigint, days: number, k: number): bigint {
  if (days <= 0 || k < 0 || k >= days) return 0n
  const d = BigInt(days)
  return total / d + (BigInt(k) < total % d ? 1n : 0n)
}

/**
 * NADI to release for a paid USDT value: `ppm` millionths of it, converted at `price` (USDT per
 * NADI), floored to the ledger unit. All in units of 1e-8.
 */
export function releaseTotal(valueUsdt: bigint, ppm: bigint, price: bigint): bigint {
  if (price <= 0n) throw new RangeError('a release needs a positive NADI price')
  const share = (valueUsdt * ppm) / 1_000_000n
  return (share * 100_000_000n) / price
}
