// The order form's rules (SPEC §5, contract/trade.ts MarketInfo), computed exactly on integer units of
// 1e-8 with the contract's own parser, never through a float. Pure: the form and the unit tests share it.
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { MONEY_DECIMALS } from '../../../contract/constants.ts'
import type { MarketInfo, OrderType, PlaceOrderBody, Side } from '../../../contract/trade.ts'
import { normalizeAmount, showAmount, units, type Problem } from '../wallet/amount.ts'

const SCALE = 100_000_000n

/** The market's rules in units. */
export interface MarketRules {
  priceStep: bigint
  sizeStep: bigint
  minSize: bigint
  minNotional: bigint
  maxPrice: bigint
  maxSize: bigint
  /** A market buy's USDT amount is a whole number of price_step × size_step (the engine's tick·lot). */
  quoteStep: bigint
  /** The largest amount a market buy may spend: max_price × max_size. */
  maxQuote: bigint
}

export function marketRules(m: MarketInfo): MarketRules {
  const priceStep = units(m.price_step)
  const sizeStep = units(m.size_step)
  const maxPrice = units(m.max_price)
  const maxSize = units(m.max_size)
  // A malformed step would divide by zero below; one unit is the finest a step can be.
  const step = (priceStep * sizeStep) / SCALE
  return {
    priceStep: priceStep > 0n ? priceStep : 1n,
    sizeStep: sizeStep > 0n ? sizeStep : 1n,
    minSize: units(m.min_size),
    minNotional: units(m.min_notional),
    maxPrice,
    maxSize,
    quoteStep: step > 0n ? step : 1n,
    maxQuote: (maxPrice * maxSize) / SCALE,
  }
}

/** What the form holds, as typed. `amount` is the USDT a market buy spends; the other orders use `size`. */
export interface OrderDraft {
  side: Side
  type: OrderType
  price: string
  size: string
  amount: string
}

export type FieldName = 'price' | 'size' | 'amount'

/** The fields an order of this side and type shows. */
export function fieldsOf(side: Side, type: OrderType): FieldName[] {
  if (type === 'limit') return ['price', 'size']
  return side === 'buy' ? ['amount'] : ['size']
}

/** The asset an order spends from the trade account: USDT to buy, NADI to sell. */
export const spendAsset = (side: Side): 'USDT' | 'NADI' => (side === 'buy' ? 'USDT' : 'NADI')

export interface FormContext {
  rules: MarketRules
  /** What the trade account can spend of spendAsset(side), in units; undefined while unknown. */
  available: bigint | undefined
  /** A price to estimate a market order with (best ask to buy, best bid to sell); undefined when none. */
  refPrice?: bigint | undefined
}

export type OrderRequest = Omit<PlaceOrderBody, 'client_order_id'>

export interface OrderCheck {
  /** One problem per field at most, the first rule it breaks. */
  errors: Partial<Record<FieldName, Problem>>
  /** The request to send, when nothing is wrong. */
  request: OrderRequest | null
}

type Parsed = { ok: true; units: bigint } | { ok: false; kind: 'required' | 'invalid' | 'zero' | 'decimals' }

/** A typed number: empty, not a number, more than 8 decimals, or 0 (or less) are each their own problem. */
export function parseField(text: string): Parsed {
  const s = normalizeAmount(text)
  if (s === '') return { ok: false, kind: 'required' }
  if (/^-\d*\.?\d*$/.test(s) && /\d/.test(s)) return { ok: false, kind: 'zero' }
  if (!/^\d*\.?\d*$/.test(s) || !/\d/.test(s)) return { ok: false, kind: 'invalid' }
  const [whole = '', frac = ''] = s.split('.')
  if (frac.length > MONEY_DECIMALS) return { ok: false, kind: 'decimals' }
  const w = whole.replace(/^0+(?=\d)/, '') || '0'
  const u = parseMoney(frac ? `${w}.${frac}` : w)
  if (u === null) return { ok: false, kind: 'invalid' }
  if (u === 0n) return { ok: false, kind: 'zero' }
  return { ok: true, units: u }
}

const problem = (field: FieldName, kind: string, params?: Record<string, string>): Problem =>
  params ? { key: `trade.check.${field}.${kind}`, params } : { key: `trade.check.${field}.${kind}` }

function parsedProblem(field: FieldName, p: Parsed & { ok: false }): Problem {
  return p.kind === 'decimals' ? problem(field, 'decimals', { max: String(MONEY_DECIMALS) }) : problem(field, p.kind)
}

/** price × size in USDT units, rounded up: what a limit buy freezes can never be less than this. */
export function notional(price: bigint, size: bigint): bigint {
  return (price * size + SCALE - 1n) / SCALE
}

/** Rounds down to a whole number of steps. */
export function floorToStep(value: bigint, step: bigint): bigint {
  if (value <= 0n || step <= 0n) return 0n
  return value - (value % step)
}

function aboveAvailable(available: bigint, asset: string): Problem {
  return { key: 'trade.check.aboveAvailable', params: { available: showAmount(available, asset), asset } }
}

function checkPrice(text: string, r: MarketRules): { units: bigint } | { problem: Problem } {
  const p = parseField(text)
  if (!p.ok) return { problem: parsedProblem('price', p) }
  if (p.units % r.priceStep !== 0n) return { problem: problem('price', 'step', { step: formatMoney(r.priceStep) }) }
  if (r.maxPrice > 0n && p.units > r.maxPrice) return { problem: problem('price', 'max', { max: showAmount(r.maxPrice, 'price') }) }
  return { units: p.units }
}

function checkSize(text: string, r: MarketRules): { units: bigint } | { problem: Problem } {
  const p = parseField(text)
  if (!p.ok) return { problem: parsedProblem('size', p) }
  if (p.units < r.minSize) return { problem: problem('size', 'min', { min: formatMoney(r.minSize) }) }
  if (p.units % r.sizeStep !== 0n) return { problem: problem('size', 'step', { step: formatMoney(r.sizeStep) }) }
  if (r.maxSize > 0n && p.units > r.maxSize) return { problem: problem('size', 'max', { max: showAmount(r.maxSize, 'NADI') }) }
  return { units: p.units }
}

function checkQuote(text: string, r: MarketRules): { units: bigint } | { problem: Problem } {
  const p = parseField(text)
  if (!p.ok) return { problem: parsedProblem('amount', p) }
  if (p.units < r.minNotional) return { problem: problem('amount', 'min', { min: formatMoney(r.minNotional) }) }
  if (p.units % r.quoteStep !== 0n) return { problem: problem('amount', 'step', { step: formatMoney(r.quoteStep) }) }
  if (r.maxQuote > 0n && p.units > r.maxQuote) return { problem: problem('amount', 'max', { max: showAmount(r.maxQuote, 'USDT') }) }
  return { units: p.units }
}

/**
 * Every rule an order must meet before it is sent, in the order a user fixes them: each field on its
 * own (empty, not a number, more than 8 decimals, zero, below the minimum, off the step, above the
 * maximum), then price × size against the minimum notional, then what the trade account holds.
 */
export function checkOrder(d: OrderDraft, ctx: FormContext): OrderCheck {
  const r = ctx.rules
  const errors: OrderCheck['errors'] = {}
  const asset = spendAsset(d.side)
  const base = { inst_id: 'NADI-USDT' as const, side: d.side, type: d.type }

  if (d.type === 'market' && d.side === 'buy') {
    const q = checkQuote(d.amount, r)
    if ('problem' in q) errors.amount = q.problem
    else if (ctx.available !== undefined && q.units > ctx.available) errors.amount = aboveAvailable(ctx.available, asset)
    return errors.amount || 'problem' in q ? { errors, request: null } : { errors, request: { ...base, quote_amount: formatMoney(q.units) } }
  }

  const s = checkSize(d.size, r)
  if ('problem' in s) errors.size = s.problem
  else if (d.side === 'sell' && ctx.available !== undefined && s.units > ctx.available) errors.size = aboveAvailable(ctx.available, asset)

  if (d.type === 'market') {
    return errors.size || 'problem' in s ? { errors, request: null } : { errors, request: { ...base, size: formatMoney(s.units) } }
  }

  const p = checkPrice(d.price, r)
  if ('problem' in p) errors.price = p.problem
  if ('problem' in p || 'problem' in s || errors.size) return { errors, request: null }
  if (p.units * s.units < r.minNotional * SCALE) {
    errors.size = { key: 'trade.check.notionalMin', params: { min: formatMoney(r.minNotional) } }
    return { errors, request: null }
  }
  if (d.side === 'buy' && ctx.available !== undefined && notional(p.units, s.units) > ctx.available) {
    errors.size = aboveAvailable(ctx.available, asset)
    return { errors, request: null }
  }
  return { errors, request: { ...base, price: formatMoney(p.units), size: formatMoney(s.units) } }
}

/** The shortcuts under the amount field. */
export const PERCENTS = [25, 50, 75, 100] as const

export type PercentFill = { ok: true; field: 'size' | 'amount'; text: string } | { ok: false; problem: Problem }

/**
 * pct % of what the trade account holds, as the field's text, rounded down to the market's steps so
 * the order it makes can always be paid: a market buy's USDT to the quote step, a sell's NADI to the
 * size step, a limit buy's NADI to the size step at the price typed (which must be there first).
 */
export function percentFill(pct: number, d: Pick<OrderDraft, 'side' | 'type' | 'price'>, ctx: FormContext): PercentFill {
  const r = ctx.rules
  if (ctx.available === undefined) return { ok: false, problem: { key: 'trade.check.balanceUnknown' } }
  const share = (ctx.available * BigInt(Math.max(0, Math.min(100, Math.floor(pct))))) / 100n
  const capped = (v: bigint, max: bigint, step: bigint) => (max > 0n && v > max ? floorToStep(max, step) : v)

  if (d.type === 'market' && d.side === 'buy') {
    return { ok: true, field: 'amount', text: formatMoney(capped(floorToStep(share, r.quoteStep), r.maxQuote, r.quoteStep)) }
  }
  if (d.side === 'sell') {
    return { ok: true, field: 'size', text: formatMoney(capped(floorToStep(share, r.sizeStep), r.maxSize, r.sizeStep)) }
  }
  const p = checkPrice(d.price, r)
  if ('problem' in p) return { ok: false, problem: { key: 'trade.check.priceFirst' } }
  // floor(share × 1e8 / price) NADI costs at most `share` USDT, even rounded up (see notional).
  const size = floorToStep((share * SCALE) / p.units, r.sizeStep)
  return { ok: true, field: 'size', text: formatMoney(capped(size, r.maxSize, r.sizeStep)) }
}

export interface Estimate {
  /** USDT the order spends (buy) or receives before fees (sell); null when it cannot be told yet. */
  total: bigint | null
  /** NADI a market buy is expected to get; null otherwise. */
  size: bigint | null
  /** True when it rests on a reference price (a market order): the fills decide. */
  approx: boolean
}

/** What the user reads under the fields: the limit total, or a market order's estimate at refPrice. */
export function estimate(d: OrderDraft, ctx: FormContext): Estimate {
  const ref = ctx.refPrice && ctx.refPrice > 0n ? ctx.refPrice : undefined
  if (d.type === 'limit') {
    const p = parseField(d.price)
    const s = parseField(d.size)
    return { total: p.ok && s.ok ? (p.units * s.units) / SCALE : null, size: null, approx: false }
  }
  if (d.side === 'buy') {
    const q = parseField(d.amount)
    return { total: q.ok ? q.units : null, size: q.ok && ref ? (q.units * SCALE) / ref : null, approx: true }
  }
  const s = parseField(d.size)
  return { total: s.ok && ref ? (s.units * ref) / SCALE : null, size: null, approx: true }
}

/** The sentence the confirm shows for a request (what is bought or sold, at what price), as a locale key and its values. */
export function orderSummary(r: OrderRequest): Problem & { params: Record<string, string> } {
  const show = (v: string | undefined, measure: string) => showAmount(units(v), measure)
  if (r.type === 'market') {
    return r.side === 'buy'
      ? { key: 'trade.confirm.marketBuy', params: { amount: show(r.quote_amount, 'USDT') } }
      : { key: 'trade.confirm.marketSell', params: { size: show(r.size, 'NADI') } }
  }
  return {
    key: r.side === 'buy' ? 'trade.confirm.limitBuy' : 'trade.confirm.limitSell',
    params: { size: show(r.size, 'NADI'), price: show(r.price, 'price'), total: showAmount((units(r.price) * units(r.size)) / SCALE, 'USDT') },
  }
}
