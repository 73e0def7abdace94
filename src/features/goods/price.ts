// The catalog's numbers as the screens show them: prices, totals, the gold breakdown, how many may be
// bought. Pure and exact (integer units of 1e-8 through the contract's money parser, never a float):
// the components call these and draw the strings.
import type { GoodsItem, GoodsSpec, ReleaseTerms } from '../../../contract/goods.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { showFigure } from '../../lib/precision.ts'

/**
 * contract/preOrder.ts's QUANTITY_MAX, repeated here because that file builds schemas (importing it by
 * value would pull the schema library into the app); a unit test keeps the two equal.
 */
export const QUANTITY_MAX = 99

/** A wire amount ("12.5") in units; 0 for anything malformed, so a bad row never breaks a screen. */
export function moneyUnits(wire: string | null | undefined): bigint {
  return (wire ? parseMoney(wire) : null) ?? 0n
}

/**
 * A wire amount as the user reads it, in its measure's decimals (a price: USDT's 2, which the server
 * prices in, so what is shown is what is charged), thousands grouped.
 */
export function showMoney(wire: string | null | undefined, measure = 'USDT'): string {
  return showFigure(wire ?? '0', measure)
}

/** The price of `quantity` units, as a wire amount. */
export function lineTotal(unitPrice: string, quantity: number): string {
  return formatMoney(moneyUnits(unitPrice) * BigInt(Math.max(0, Math.trunc(quantity))))
}

/** Mining power of `quantity` units (devices), as a wire amount. */
export function linePower(power: string, quantity: number): string {
  return lineTotal(power, quantity)
}

/** The most units one order may take of a specification: its stock, at most QUANTITY_MAX; 0 when sold out. */
export function maxQuantity(stock: number): number {
  return Math.max(0, Math.min(QUANTITY_MAX, Math.trunc(stock)))
}

/** A quantity kept inside 1…max (1 when nothing can be bought, so the field never reads 0). */
export function clampQuantity(quantity: number, stock: number): number {
  const max = maxQuantity(stock)
  const q = Number.isFinite(quantity) ? Math.trunc(quantity) : 1
  return Math.max(1, Math.min(max || 1, q))
}

/** Whether a device grants mining power (a "0" means it does not). */
export const hasPower = (power: string | null | undefined): boolean => moneyUnits(power) > 0n

/**
 * A gold specification's price in its parts: the metal (weight × the price per gram, as the server
 * rounded it) and the craft fee, which add up to the price exactly. Null for anything that is not gold.
 */
export interface GoldBreakdown {
  weight: string
  perGram: string
  metal: string
  craftFee: string
  price: string
}

export function goldBreakdown(spec: Pick<GoodsSpec, 'price' | 'weight' | 'craft_fee'>, perGram: string | null): GoldBreakdown | null {
  if (spec.weight === null || spec.craft_fee === null || perGram === null) return null
  const price = moneyUnits(spec.price)
  const fee = moneyUnits(spec.craft_fee)
  const metal = price > fee ? price - fee : 0n
  return { weight: spec.weight, perGram, metal: formatMoney(metal), craftFee: formatMoney(fee), price: spec.price }
}

/** The first specification that can be bought, else the first one. */
export function defaultSpec(specs: readonly GoodsSpec[]): GoodsSpec | undefined {
  return specs.find((s) => s.stock > 0) ?? specs[0]
}

/** A release plan's words: "{{percent}}% back as NADI over {{days}} days", or null without a plan. */
export function releaseParams(release: ReleaseTerms | null): { percent: string; days: number } | null {
  return release ? { percent: release.percent, days: release.days } : null
}

/** A product's lowest price and whether anything is left. */
export function soldOut(item: Pick<GoodsItem, 'stock'>): boolean {
  return item.stock <= 0
}
