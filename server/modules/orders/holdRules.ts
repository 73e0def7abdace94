// The arithmetic of holds (README "Holds"): how much of an item unpaid orders may take, and when a
// user whose holds keep expiring unpaid may hold again, and what a chain payment confirming after its
// order's hold ended does to the order. Pure: tested in tests/unit/orders/holdRules.test.ts.

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
 * When a hold that ended unpaid ended, for the cool-down: a cancel by its user at that moment, an
 * expiry at the end of its time (the job may cancel it a little later). A user's cancel counts like an
 * expiry: else cancelling and ordering again at once renews a hold forever at no cost.
 */
export function holdEndedAt(expiresAt: number, endedAt: number): number {
  return Math.min(expiresAt, endedAt)
}

/**
 * When a user may hold again after holds ended unpaid (cancelled or expired, holdEndedAt): with `after` or more ends (ms) inside
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

/**
 * What the hold of an order cancelled before its payment arrived would find if taken again now:
 * `free` (on sale, enough left), `off_sale` (enough left, but no longer sold), `gone` (not enough
 * left, or past the buyer's per-tier limit), `none` (the order held nothing: mining).
 */
export type Retake = 'free' | 'off_sale' | 'gone' | 'none'

export interface ChainPaymentArrival {
  state: 'open' | 'cancelled'
  expiresAt: number
  /** When a cancelled order ended: before expiresAt by its user, at or after it by the clock. */
  endedAt: number | null
  /** The transfer's block time, ms. */
  paidAt: number
  retake: Retake
}

export type ArrivalOutcome = { act: 'pay' } | { act: 'reinstate' } | { act: 'credit'; because: 'expired' | 'cancelled' }

/**
 * What a verified, confirmed on-chain payment does to its order when it confirms. An open order still
 * holds its stock or seat, however late: it is paid. One its user cancelled stays cancelled (SPEC §4:
 * irreversible) and one that expired is reinstated only where that takes nothing from anyone: its
 * units can be taken again, or they can and it was paid in time (a transfer mined within the hold,
 * only reported late) though since taken off sale. An order that held nothing is reinstated only if
 * paid in time, else its held price would be an option to take up whenever the market moved.
 * Otherwise the money is credited to the payer, never lost.
 */
export function chainPaymentArrival(a: ChainPaymentArrival): ArrivalOutcome {
  if (a.state === 'open') return { act: 'pay' }
  if (a.endedAt !== null && a.endedAt < a.expiresAt) return { act: 'credit', because: 'cancelled' }
  const inTime = a.paidAt < a.expiresAt
  if (a.retake === 'free' || (inTime && (a.retake === 'off_sale' || a.retake === 'none'))) return { act: 'reinstate' }
  return { act: 'credit', because: 'expired' }
}
