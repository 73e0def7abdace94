// The rules of the NADI/USDT market and the bridge between the engine's small integers and money units.
// Pure. The engine counts in ticks (price), lots (size) and tick·lots (quote = price × size) as plain
// numbers, which is what makes it fast; everything outside it counts in bigint units of 1e-8.

import { formatMoney } from '../../../contract/money.ts'
import { INST_ID, type MarketInfo } from '../../../contract/trade.ts'

const UNITS = 100_000_000n

export interface MarketSpec {
  instId: string
  /** USDT units (1e-8) per tick. */
  priceStep: bigint
  /** NADI units (1e-8) per lot. */
  sizeStep: bigint
  /** Smallest and largest size of an order, in lots. */
  minLots: number
  maxLots: number
  /** Largest price, in ticks (the smallest is one tick). */
  maxPriceTicks: number
  /** Smallest price × size of a limit order and smallest budget of a market buy, in tick·lots. */
  minNotional: number
}

/** Fee rates in parts per million of what the payer receives (1000 = 0.1 %). */
export interface Fees {
  makerFeePpm: number
  takerFeePpm: number
}

/**
 * 0.0001 USDT ticks and 0.01 NADI lots, so one tick·lot is 100 USDT units. Limits: 0.01 to 1,000,000
 * NADI, prices up to 1,000 USDT, at least 1 USDT per order. maxPriceTicks × maxLots = 1e15 stays under
 * 2^53, so no quote the engine computes can lose precision.
 */
export const defaultSpec: MarketSpec = Object.freeze({
  instId: INST_ID,
  priceStep: 10_000n,
  sizeStep: 1_000_000n,
  minLots: 1,
  maxLots: 100_000_000,
  maxPriceTicks: 10_000_000,
  minNotional: 1_000_000,
})

export const defaultFees: Fees = Object.freeze({ makerFeePpm: 1000, takerFeePpm: 1000 })

/** USDT units per tick·lot: priceStep × sizeStep / 1e8. */
export function quoteStep(spec: MarketSpec): bigint {
  return (spec.priceStep * spec.sizeStep) / UNITS
}

/** The largest quote any single order can reach (a market buy budget included), in tick·lots. */
export function maxQuote(spec: MarketSpec): number {
  return spec.maxPriceTicks * spec.maxLots
}

const isPositiveSafe = (n: number) => Number.isSafeInteger(n) && n > 0

/** Throws when a spec cannot work: steps whose product is not a whole number of units, unsafe limits. */
export function checkSpec(spec: MarketSpec): void {
  const problems: string[] = []
  if (spec.priceStep <= 0n) problems.push('priceStep must be positive')
  if (spec.sizeStep <= 0n) problems.push('sizeStep must be positive')
  if (spec.priceStep > 0n && spec.sizeStep > 0n && (spec.priceStep * spec.sizeStep) % UNITS !== 0n) {
    problems.push('priceStep × sizeStep must be a multiple of 1e8 units (one tick·lot must be a whole number of USDT units)')
  }
  if (!isPositiveSafe(spec.minLots)) problems.push('minLots must be a positive integer')
  if (!isPositiveSafe(spec.maxLots) || spec.maxLots < spec.minLots) problems.push('maxLots must be an integer ≥ minLots')
  if (!isPositiveSafe(spec.maxPriceTicks)) problems.push('maxPriceTicks must be a positive integer')
  if (!isPositiveSafe(spec.minNotional)) problems.push('minNotional must be a positive integer')
  // Every quote the engine forms (a fill, an order's running total, a budget) is ≤ this product.
  if (!Number.isSafeInteger(spec.maxPriceTicks * spec.maxLots)) problems.push('maxPriceTicks × maxLots must stay ≤ Number.MAX_SAFE_INTEGER')
  if (problems.length) throw new Error(`invalid market spec: ${problems.join('; ')}`)
}

export function checkFees(fees: Fees): void {
  for (const [name, ppm] of Object.entries(fees)) {
    if (!Number.isSafeInteger(ppm) || ppm < 0 || ppm > 1_000_000) throw new Error(`invalid fee ${name}: ${ppm} (parts per million, 0…1000000)`)
  }
}

/** units / step as a safe integer, or null when units is negative, not a multiple of step, or too large. */
function steps(units: bigint, step: bigint): number | null {
  if (units < 0n || units % step !== 0n) return null
  const n = units / step
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(n)
}

/** A price in USDT units → ticks; null if it is not a whole number of ticks. Range checks are the engine's. */
export const ticksOf = (spec: MarketSpec, priceUnits: bigint): number | null => steps(priceUnits, spec.priceStep)
/** A size in NADI units → lots; null if it is not a whole number of lots. */
export const lotsOf = (spec: MarketSpec, sizeUnits: bigint): number | null => steps(sizeUnits, spec.sizeStep)
/** A quote amount in USDT units → tick·lots; null if it is not a whole number of tick·lots. */
export const tickLotsOf = (spec: MarketSpec, quoteUnits: bigint): number | null => steps(quoteUnits, quoteStep(spec))

export const priceUnits = (spec: MarketSpec, ticks: number): bigint => BigInt(ticks) * spec.priceStep
export const sizeUnits = (spec: MarketSpec, lots: number): bigint => BigInt(lots) * spec.sizeStep
export const quoteUnits = (spec: MarketSpec, tickLots: number): bigint => BigInt(tickLots) * quoteStep(spec)

/** ppm → the wire's decimal rate ("0.001"): ppm / 1e6 is ppm × 100 units of 1e-8. */
const rate = (ppm: number) => formatMoney(BigInt(ppm) * 100n)

/** GET /api/v1/trade/market. */
export function marketInfo(spec: MarketSpec, fees: Fees): MarketInfo {
  return {
    inst_id: INST_ID,
    base: 'NADI',
    quote: 'USDT',
    price_step: formatMoney(spec.priceStep),
    size_step: formatMoney(spec.sizeStep),
    min_size: formatMoney(sizeUnits(spec, spec.minLots)),
    min_notional: formatMoney(quoteUnits(spec, spec.minNotional)),
    max_price: formatMoney(priceUnits(spec, spec.maxPriceTicks)),
    max_size: formatMoney(sizeUnits(spec, spec.maxLots)),
    maker_fee: rate(fees.makerFeePpm),
    taker_fee: rate(fees.takerFeePpm),
  }
}
