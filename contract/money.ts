// Money on the wire is a decimal string; inside, integer units of 1e-8 (DESIGN §3). Pure, no imports,
// so app and server share it.

const SCALE = 100_000_000n
const MONEY_RE = /^(0|[1-9][0-9]{0,19})(?:\.([0-9]{1,8}))?$/

/** "12.5" → 1250000000n. Returns null for anything that is not a non-negative amount with ≤ 8 decimals. */
export function parseMoney(text: string): bigint | null {
  const m = MONEY_RE.exec(text)
  if (!m) return null
  const whole = BigInt(m[1] as string)
  const frac = BigInt(((m[2] ?? '') + '00000000').slice(0, 8))
  return whole * SCALE + frac
}

/**
 * The most any amount sent to the server may be: a billion whole tokens (1e17 units), 1/92 of the
 * ledger's int64 range. Below it a sum of ninety amounts, a fee on one, or one times a multiplier
 * under 90 still fits, so a request can never ask for an order, a posting or a power the ledger
 * cannot hold — the wire format alone lets through 20 digits (up to 1e28 units).
 */
export const AMOUNT_MAX = 1_000_000_000n * SCALE

/** parseMoney for an amount someone sends: null also when it is above AMOUNT_MAX. */
export function parseAmount(text: string): bigint | null {
  const units = parseMoney(text)
  return units !== null && units <= AMOUNT_MAX ? units : null
}

/**
 * The decimals each asset is priced, shown and charged in (USDT is cents-minded; NADI trades in
 * 0.0001). A price the platform sets (a gold bar from the reference) is rounded to these before it is
 * shown or charged, so the amount a user reads is the amount taken (issue 33: "1,008.262599 USDT").
 */
export const ASSET_DECIMALS = { USDT: 2, NADI: 4 } as const

/** `units` rounded up to `decimals` (the platform never sells below its reference). Non-negative amounts. */
export function roundUpToDecimals(units: bigint, decimals: number): bigint {
  if (units < 0n || !Number.isInteger(decimals) || decimals < 0 || decimals > 8) throw new RangeError('rounding a non-negative amount to 0–8 decimals')
  const step = 10n ** BigInt(8 - decimals)
  return ((units + step - 1n) / step) * step
}

/** 1250000000n → "12.5": no trailing zeros, no exponent, sign kept. */
export function formatMoney(units: bigint): string {
  const neg = units < 0n
  const abs = neg ? -units : units
  const whole = abs / SCALE
  const frac = (abs % SCALE).toString().padStart(8, '0').replace(/0+$/, '')
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`
}
