// The arithmetic of holds (README "Holds"): how much of an item unpaid orders may take, and when a
// user whose holds keep expiring unpaid may hold again. Pure: tested in tests/unit/orders/holdRules.test.ts.

const PPM = 1_000_000n

/**
 * The units of an item (a specification's stock, a tier's seats) unpaid holds may take together:
 * `sharePpm` of what is left plus what they hold now, floored, but at least one, so an item of a
 * few units can still be ordered by someone who pays from a wallet.
 */
export function holdCap(left: bigint, held: bigint, sharePpm: number): bigint {
  if (left < 0n || held < 0n) throw new RangeError('stock and holds are not negative')
  const cap = ((left + held) * BigInt(sharePpm)) / PPM
  return cap > 1n ? cap : 1n
}

/**
 * When a user may hold again after holds expired unpaid: with `after` or more expiries (ms) inside
 * the window ending now, at the moment the `after`-th most recent leaves it; null when they may now.
 * `after` 0 turns the cool-down off.
 */
export function cooldownUntil(expiries: readonly number[], now: number, after: number, windowMs: number): number | null {
  if (after <= 0) return null
  const recent = expiries.filter((e) => e <= now && e > now - windowMs).sort((a, b) => b - a)
  return recent.length >= after ? recent[after - 1]! + windowMs : null
}

/** Whole minutes until `at`, at least 1: what a refusal tells the user to wait. */
export const minutesUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 60_000))
