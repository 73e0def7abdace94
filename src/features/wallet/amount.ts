// Amounts as the user types them, checked exactly (SPEC §5): parsed into integer units of 1e-8 with
// the contract's own parser, never through a float. Pure: the screens and the unit tests share it.
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { MONEY_DECIMALS } from '../../../contract/constants.ts'
import { showFigure } from '../../lib/precision.ts'

/** A problem as the locale key of its message and the values it names. */
export interface Problem {
  key: string
  params?: Record<string, string>
}

export type AmountCheck = { ok: true; units: bigint; wire: string } | { ok: false; problem: Problem }

export interface AmountRules {
  asset: string
  /** What the account can spend, in units; absent while balances are still loading. */
  available?: bigint | undefined
  /** The smallest amount allowed, in units (a withdrawal's minimum). */
  min?: bigint | undefined
  /** Taken from the account on top of the amount (a withdrawal's fee), so it counts against available. */
  extra?: bigint | undefined
}

/** Keeps what an amount field may hold: digits and one kind of separator. Pasted "1 234,5 USDT" → "1234,5". */
export function sanitizeAmountInput(text: string): string {
  return text.replace(/[^0-9.,-]/g, '').slice(0, 32)
}

/**
 * What the user typed, in the form the rules read: spaces dropped, and a lone decimal comma (the
 * keypad of pt, id, vn… phones) read as a point. Anything with more than one separator stays as typed
 * and is refused, so "1,000.5" is never silently read as 1.
 */
export function normalizeAmount(text: string): string {
  const s = text.replace(/[\s\u00a0]/g, '')
  return /^-?\d*,\d*$/.test(s) ? s.replace(',', '.') : s
}

/** An amount as the user reads it: its measure's decimals (an asset, power, a price), truncated, thousands grouped. */
export const showAmount = (units: bigint, measure: string): string => showFigure(formatMoney(units), measure)

const fail = (key: string, params?: Record<string, string>): AmountCheck => ({ ok: false, problem: params ? { key, params } : { key } })

/**
 * SPEC §5 in order: not empty, not below 0, a number with at most 8 decimals, more than 0, not below
 * the minimum, not above what is available (the fee included). On success, the units and the
 * canonical decimal string the wire takes.
 */
export function checkAmount(text: string, rules: AmountRules): AmountCheck {
  const s = normalizeAmount(text)
  if (s === '') return fail('money.amountRequired')
  if (s.startsWith('-')) return /^-\d*\.?\d*$/.test(s) && /\d/.test(s) ? fail('money.amountNegative') : fail('money.amountInvalid')
  if (!/^\d*\.?\d*$/.test(s) || !/\d/.test(s)) return fail('money.amountInvalid')
  const [whole = '', frac = ''] = s.split('.')
  if (frac.length > MONEY_DECIMALS) return fail('money.amountDecimals', { max: String(MONEY_DECIMALS) })
  const w = whole.replace(/^0+(?=\d)/, '') || '0'
  const units = parseMoney(frac ? `${w}.${frac}` : w)
  if (units === null) return fail('money.amountInvalid')
  if (units === 0n) return fail('money.amountZero')
  if (rules.min !== undefined && units < rules.min) return fail('money.amountBelowMin', { min: showAmount(rules.min, rules.asset), asset: rules.asset })
  if (rules.available !== undefined && units + (rules.extra ?? 0n) > rules.available) {
    return fail('money.amountAboveAvailable', { available: showAmount(rules.available, rules.asset), asset: rules.asset })
  }
  return { ok: true, units, wire: formatMoney(units) }
}

/** The "all" shortcut: everything available, less what the action takes on top (a fee); never below 0. */
export function maxAmount(available: bigint, extra = 0n): bigint {
  return available > extra ? available - extra : 0n
}

/** The exact amount to put in the field for "all" (full 8 decimals, so nothing is left behind). */
export function amountText(units: bigint): string {
  return formatMoney(units)
}

/** A wire amount ("12.5") in units; 0 for anything malformed, so a bad row never breaks a screen. */
export function units(wire: string | null | undefined): bigint {
  if (!wire) return 0n
  const neg = wire.startsWith('-')
  const u = parseMoney(neg ? wire.slice(1) : wire) ?? 0n
  return neg ? -u : u
}
