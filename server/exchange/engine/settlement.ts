// What the engine's events mean in money, bigint units of 1e-8. Pure. The service freezes
// frozenForPlace() before it applies a place, moves settleFill()'s amounts on every fill, and releases
// releaseOnDone() when an order ends; per order, frozen = Σ paid by its fills + released, exactly.
//
// Fees come out of what each side receives: a buyer gets NADI less its fee, a seller USDT less its fee,
// fee = floor(amount × ppm / 1e6) — rounding down, never charging more than the rate.

import { quoteStep, type Fees, type MarketSpec } from './spec.ts'
import type { Order, PlaceCommand, Side } from './types.ts'

export type SettlementAsset = 'USDT' | 'NADI'

export interface AssetAmount {
  asset: SettlementAsset
  amount: bigint
}

export type Role = 'maker' | 'taker'

export function feeOf(amount: bigint, ppm: number): bigint {
  return (amount * BigInt(ppm)) / 1_000_000n
}

/** What an order holds from the moment it is placed: a buy its USDT (limit: price × lots; market: the budget), a sell its NADI. */
export function frozenForPlace(spec: MarketSpec, order: PlaceCommand | Order): AssetAmount {
  if (order.side === 'sell') return { asset: 'NADI', amount: BigInt(order.lots) * spec.sizeStep }
  if (order.type === 'market') return { asset: 'USDT', amount: BigInt(order.quote) * quoteStep(spec) }
  return { asset: 'USDT', amount: BigInt(order.price) * BigInt(order.lots) * quoteStep(spec) }
}

/** What an order's fills have taken out of its frozen amount so far: USDT for a buy, NADI for a sell. */
export function spentBy(spec: MarketSpec, order: Order): AssetAmount {
  return order.side === 'buy'
    ? { asset: 'USDT', amount: BigInt(order.filledQuote) * quoteStep(spec) }
    : { asset: 'NADI', amount: BigInt(order.filledLots) * spec.sizeStep }
}

/**
 * What an order still holds: frozen at place less what its fills paid. For an open order this is what
 * must stay frozen; once the order is done it is what releaseOnDone() gives back.
 */
export function heldBy(spec: MarketSpec, order: Order): AssetAmount {
  const frozen = frozenForPlace(spec, order)
  return { asset: frozen.asset, amount: frozen.amount - spentBy(spec, order).amount }
}

/**
 * To release when an order ends (filled, cancelled, or a market order's unfillable rest): a limit buy
 * filled at better prices than its own, a market buy's unspent budget, a cancelled remainder. 0n when
 * nothing is left. Throws for an order that is still open, whose hold is not yet free.
 */
export function releaseOnDone(spec: MarketSpec, order: Order): AssetAmount {
  if (order.status === 'pending' || order.status === 'partially_filled') throw new Error(`releaseOnDone: order ${order.id} is still open`)
  return heldBy(spec, order)
}

export interface FillInput {
  makerSide: Side
  /** Ticks. */
  price: number
  lots: number
  /** tick·lots; must equal price × lots. */
  quote: number
}

export interface FillSettlement {
  /** NADI traded, units. */
  base: bigint
  /** USDT traded, units. */
  quote: bigint
  buyerRole: Role
  sellerRole: Role
  /** USDT out of the buyer's frozen balance (= quote). */
  buyerPays: bigint
  /** NADI the buyer pays as fee (kept out of base). */
  buyerFee: bigint
  /** NADI into the buyer's available balance (= base − buyerFee). */
  buyerReceives: bigint
  /** NADI out of the seller's frozen balance (= base). */
  sellerPays: bigint
  /** USDT the seller pays as fee (kept out of quote). */
  sellerFee: bigint
  /** USDT into the seller's available balance (= quote − sellerFee). */
  sellerReceives: bigint
}

/** The money of one fill. USDT: buyerPays = sellerReceives + sellerFee; NADI: sellerPays = buyerReceives + buyerFee. */
export function settleFill(spec: MarketSpec, fees: Fees, fill: FillInput): FillSettlement {
  if (fill.quote !== fill.price * fill.lots) throw new Error(`settleFill: quote ${fill.quote} ≠ price ${fill.price} × lots ${fill.lots}`)
  const base = BigInt(fill.lots) * spec.sizeStep
  const quote = BigInt(fill.quote) * quoteStep(spec)
  const buyerRole: Role = fill.makerSide === 'buy' ? 'maker' : 'taker'
  const sellerRole: Role = buyerRole === 'maker' ? 'taker' : 'maker'
  const buyerFee = feeOf(base, buyerRole === 'maker' ? fees.makerFeePpm : fees.takerFeePpm)
  const sellerFee = feeOf(quote, sellerRole === 'maker' ? fees.makerFeePpm : fees.takerFeePpm)
  return {
    base,
    quote,
    buyerRole,
    sellerRole,
    buyerPays: quote,
    buyerFee,
    buyerReceives: base - buyerFee,
    sellerPays: base,
    sellerFee,
    sellerReceives: quote - sellerFee,
  }
}
