// NADI ↔ USDT exchange: its arithmetic (settings: config.walletExchange). Pure, no I/O.
//
// Rounding (all amounts are integer units of 1e-8, the price is USDT per NADI in the same units):
//
//   gross   = ⌊amount × rate⌋                     what `amount` is worth in the other asset
//   receive = ⌊amount × rate × (1 − feeRate)⌋     what the user gets, floored once from the exact value
//   fee     = gross − receive                     to FEES, in the received asset
//
// where rate is price/1e8 for NADI → USDT and 1e8/price for USDT → NADI. Each result is one floor of
// an exact rational, so the user receives at most the exact value and less by under 1e-8; the treasury
// pays out gross ≤ the exact worth, and the fee (≥ the exact fee, by under 1e-8) absorbs the rounding.
// Every rounding is in the platform's favour and by less than one unit.

import type { Asset } from '../../../contract/wallet.ts'

export const UNIT = 100_000_000n
const BPS = 10_000n

export interface QuoteAmounts {
  /** Units of `to`: what the treasury pays out (receive + fee). */
  gross: bigint
  receive: bigint
  fee: bigint
}

/** The amounts of exchanging `amount` units of `from` into `to` at `price` (USDT per NADI, units of 1e-8). */
export function quoteAmounts(from: Asset, to: Asset, amount: bigint, price: bigint, feeBps: number): QuoteAmounts {
  if (from === to) throw new RangeError('an exchange needs two different assets')
  if (amount <= 0n) throw new RangeError(`amount must be positive, got ${amount}`)
  if (price <= 0n) throw new RangeError(`price must be positive, got ${price}`)
  if (!Number.isSafeInteger(feeBps) || feeBps < 0 || feeBps >= 10_000) throw new RangeError(`feeBps must be 0–9999, got ${feeBps}`)
  const keep = BPS - BigInt(feeBps)
  // amount × rate = num / den, exactly.
  const [num, den] = from === 'NADI' ? [amount * price, UNIT] : [amount * UNIT, price]
  const gross = num / den
  const receive = (num * keep) / (den * BPS)
  return { gross, receive, fee: gross - receive }
}

/** What a stored quote's confirm needs to know about it. */
export interface QuoteUse {
  user_id: bigint
  expires_at: bigint
  used_at: bigint | null
}

/**
 * Why a quote cannot be confirmed by `userId` at `now`, or null when it can: a missing quote and
 * another user's are the same answer (`missing`, so ids cannot be probed); one confirm per quote
 * (`used`); valid up to but not at `expires_at` (`expired`).
 */
export function quoteRefusal(q: QuoteUse | undefined, userId: number, now: number): 'missing' | 'used' | 'expired' | null {
  if (!q || q.user_id !== BigInt(userId)) return 'missing'
  if (q.used_at !== null) return 'used'
  if (BigInt(now) >= q.expires_at) return 'expired'
  return null
}
