// Amounts at the chain boundary. The ledger counts in units of 1e-8 (DESIGN §3); the tokens have
// 18 decimals, so one ledger unit is 1e10 token wei.
//
// The rule:
// - Deposits (and on-chain payments received) are credited FLOORED to 1e-8: `toLedgerUnits(v, 'floor')`.
//   The remainder below 1e-8 (under 1e10 wei) stays in the deposit address, uncredited; nobody gains
//   what was not received.
// - Withdrawals and every amount we send are EXACT: `toTokenUnits` multiplies, it never rounds.
// - Anywhere else a token amount must map to the ledger with nothing lost: `toLedgerUnits(v)` ('exact',
//   the default) throws on a remainder instead of silently dropping value.

/** Token wei in one ledger unit (1e-8 of a token with 18 decimals). */
export const WEI_PER_UNIT = 10n ** 10n
export const TOKEN_DECIMALS = 18

export class AmountError extends Error {
  override name = 'AmountError'
}

/** 18-decimal token amount → ledger units (1e-8). 'exact' throws when that would drop a remainder. */
export function toLedgerUnits(amount18: bigint, rounding: 'exact' | 'floor' = 'exact'): bigint {
  if (amount18 < 0n) throw new AmountError(`negative token amount ${amount18}`)
  const remainder = amount18 % WEI_PER_UNIT
  if (remainder !== 0n && rounding === 'exact') {
    throw new AmountError(`token amount ${amount18} is not a whole multiple of 1e10 wei (1e-8 of a token): ${remainder} wei would be lost`)
  }
  return amount18 / WEI_PER_UNIT
}

/** The part of an 18-decimal amount below 1e-8 that a floored credit leaves out. */
export function dust(amount18: bigint): bigint {
  if (amount18 < 0n) throw new AmountError(`negative token amount ${amount18}`)
  return amount18 % WEI_PER_UNIT
}

/** Ledger units (1e-8) → 18-decimal token amount; always exact. */
export function toTokenUnits(units: bigint): bigint {
  if (units < 0n) throw new AmountError(`negative ledger amount ${units}`)
  return units * WEI_PER_UNIT
}
