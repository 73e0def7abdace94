import { describe, expect, it } from 'vitest'
import type { MarketInfo } from '../../../contract/trade.ts'
import { checkOrder, estimate, floorToStep, marketRules, notional, orderSummary, parseField, percentFill, type FormContext, type OrderDraft } from '../../../src/features/trade/form.ts'

const U = 100_000_000n // one whole unit in 1e-8

// The market the server's default spec publishes: 0.0001 USDT ticks, 0.01 NADI lots, at least 1 USDT.
const MARKET: MarketInfo = {
  inst_id: 'NADI-USDT',
  base: 'NADI',
  quote: 'USDT',
  price_step: '0.0001',
  size_step: '0.01',
  min_size: '0.01',
  min_notional: '1',
  max_price: '1000',
  max_size: '1000000',
  maker_fee: '0.001',
  taker_fee: '0.001',
}
const rules = marketRules(MARKET)
const ctx = (available?: bigint, refPrice?: bigint): FormContext => ({ rules, available, refPrice })
const draft = (d: Partial<OrderDraft>): OrderDraft => ({ side: 'buy', type: 'limit', price: '', size: '', amount: '', ...d })
const keys = (d: Partial<OrderDraft>, c = ctx(1000n * U)) => {
  const r = checkOrder(draft(d), c)
  return Object.fromEntries(Object.entries(r.errors).map(([f, p]) => [f, p?.key]))
}

describe('reading what the user typed', () => {
  it('empty, not a number, zero or less, and more than 8 decimals are each told apart', () => {
    expect(parseField('')).toEqual({ ok: false, kind: 'required' })
    expect(parseField('  ')).toEqual({ ok: false, kind: 'required' })
    for (const bad of ['abc', '.', '1.2.3', '1e5', '0x10']) expect(parseField(bad), bad).toEqual({ ok: false, kind: 'invalid' })
    expect(parseField('0')).toEqual({ ok: false, kind: 'zero' })
    expect(parseField('0.00000000')).toEqual({ ok: false, kind: 'zero' })
    expect(parseField('-1')).toEqual({ ok: false, kind: 'zero' })
    expect(parseField('1.123456789')).toEqual({ ok: false, kind: 'decimals' })
  })

  it('a decimal comma from a pt/id/vn keypad reads as a point, exactly', () => {
    expect(parseField('0,5')).toEqual({ ok: true, units: U / 2n })
    expect(parseField('12.00000001')).toEqual({ ok: true, units: 12n * U + 1n })
  })
})

describe('the market rules in units', () => {
  it('a market buy amount steps by price_step × size_step, and may not exceed max_price × max_size', () => {
    expect(rules.quoteStep).toBe(100n) // 0.000001 USDT
    expect(rules.maxQuote).toBe(1_000_000_000n * U)
  })
})

describe('a limit order', () => {
  it('an empty price and size each ask for a value', () => {
    expect(keys({})).toEqual({ price: 'trade.check.price.required', size: 'trade.check.size.required' })
  })

  it('zero is refused for price and size', () => {
    expect(keys({ price: '0', size: '0' })).toEqual({ price: 'trade.check.price.zero', size: 'trade.check.size.zero' })
  })

  it('more than 8 decimals is refused, naming the limit', () => {
    const r = checkOrder(draft({ price: '0.123456789', size: '10' }), ctx())
    expect(r.errors.price).toEqual({ key: 'trade.check.price.decimals', params: { max: '8' } })
    expect(r.request).toBeNull()
  })

  it('a price off the price step is refused, naming the step', () => {
    const r = checkOrder(draft({ price: '0.12345', size: '10' }), ctx())
    expect(r.errors.price).toEqual({ key: 'trade.check.price.step', params: { step: '0.0001' } })
  })

  it('a size off the size step, below the minimum or above the maximum is refused', () => {
    expect(keys({ price: '1', size: '10.005' })).toEqual({ size: 'trade.check.size.step' })
    expect(keys({ price: '1', size: '0.001' })).toEqual({ size: 'trade.check.size.min' })
    expect(keys({ price: '0.0001', size: '1000000.01' }, ctx(U * U))).toEqual({ size: 'trade.check.size.max' })
  })

  it('a price above max_price is refused', () => {
    expect(keys({ price: '1000.0001', size: '1' })).toEqual({ price: 'trade.check.price.max' })
  })

  it('price × size below min_notional is refused, on the exact product', () => {
    const r = checkOrder(draft({ price: '0.0999', size: '10' }), ctx())
    expect(r.errors.size).toEqual({ key: 'trade.check.notionalMin', params: { min: '1' } })
    expect(checkOrder(draft({ price: '0.1', size: '10' }), ctx()).request).not.toBeNull()
  })

  it('a buy costing more USDT than the trade account holds is refused, naming what it holds', () => {
    const r = checkOrder(draft({ price: '2', size: '5.01' }), ctx(10n * U))
    expect(r.errors.size).toEqual({ key: 'trade.check.aboveAvailable', params: { available: '10', asset: 'USDT' } })
    expect(checkOrder(draft({ price: '2', size: '5' }), ctx(10n * U)).request).not.toBeNull()
  })

  it('a sell of more NADI than the trade account holds is refused, whatever the price', () => {
    expect(keys({ side: 'sell', price: '0.5', size: '3.01' }, ctx(3n * U))).toEqual({ size: 'trade.check.aboveAvailable' })
    expect(keys({ side: 'sell', price: '0.5', size: '3' }, ctx(3n * U))).toEqual({})
  })

  it('an order that passes is sent with canonical amounts and no client id (the mutation adds it)', () => {
    const r = checkOrder(draft({ price: '0.50', size: '010' }), ctx())
    expect(r.errors).toEqual({})
    expect(r.request).toEqual({ inst_id: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.5', size: '10' })
  })

  it('while the balances are unknown, only the market rules apply', () => {
    expect(checkOrder(draft({ price: '1', size: '999999' }), ctx(undefined)).request).not.toBeNull()
  })
})

describe('a market order', () => {
  it('a market buy names its USDT amount and is checked against min_notional and the quote step', () => {
    expect(keys({ type: 'market', amount: '' })).toEqual({ amount: 'trade.check.amount.required' })
    expect(keys({ type: 'market', amount: '0.99' })).toEqual({ amount: 'trade.check.amount.min' })
    expect(keys({ type: 'market', amount: '1.0000001' })).toEqual({ amount: 'trade.check.amount.step' })
    expect(checkOrder(draft({ type: 'market', amount: '5', price: 'junk', size: 'junk' }), ctx()).request).toEqual({
      inst_id: 'NADI-USDT',
      side: 'buy',
      type: 'market',
      quote_amount: '5',
    })
  })

  it('a market buy never spends more than the USDT available', () => {
    expect(keys({ type: 'market', amount: '10.000001' }, ctx(10n * U))).toEqual({ amount: 'trade.check.aboveAvailable' })
  })

  it('a market sell names its NADI size and ignores the price field', () => {
    const r = checkOrder(draft({ side: 'sell', type: 'market', size: '2', price: '' }), ctx(2n * U))
    expect(r.request).toEqual({ inst_id: 'NADI-USDT', side: 'sell', type: 'market', size: '2' })
    expect(keys({ side: 'sell', type: 'market', size: '2.01' }, ctx(2n * U))).toEqual({ size: 'trade.check.aboveAvailable' })
  })
})

describe('the 25/50/75/100 % shortcuts', () => {
  it('a sell takes the share of NADI rounded down to the size step', () => {
    expect(percentFill(25, draft({ side: 'sell' }), ctx(10_0700000n))).toEqual({ ok: true, field: 'size', text: '0.25' }) // 1.007 × 25 % = 0.25175
    expect(percentFill(100, draft({ side: 'sell', type: 'market' }), ctx(1_00999999n))).toEqual({ ok: true, field: 'size', text: '1' })
  })

  it('a limit buy takes the USDT share at the typed price, rounded down so it can always be paid', () => {
    const fill = percentFill(100, draft({ price: '0.3' }), ctx(10n * U))
    expect(fill).toEqual({ ok: true, field: 'size', text: '33.33' })
    // and the order it makes passes the balance check
    expect(checkOrder(draft({ price: '0.3', size: '33.33' }), ctx(10n * U)).request).not.toBeNull()
  })

  it('a limit buy needs a price first', () => {
    expect(percentFill(50, draft({ price: '' }), ctx(10n * U))).toEqual({ ok: false, problem: { key: 'trade.check.priceFirst' } })
  })

  it('a market buy takes the USDT share rounded down to the quote step', () => {
    expect(percentFill(75, draft({ type: 'market' }), ctx(10_00000333n))).toEqual({ ok: true, field: 'amount', text: '7.500002' })
  })

  it('no shortcut while the balance is unknown', () => {
    expect(percentFill(50, draft({ side: 'sell' }), ctx(undefined)).ok).toBe(false)
  })

  it('every shortcut of every kind yields an order within the balance (or one the balance cannot reach)', () => {
    const prices = ['0.0001', '0.3', '0.7777', '3.1415', '999.9999']
    const balances = [0n, 1n, 99_999_999n, 12_345_678_901n, 10_000n * U + 7n]
    for (const side of ['buy', 'sell'] as const) {
      for (const type of ['limit', 'market'] as const) {
        for (const price of prices) {
          for (const bal of balances) {
            for (const pct of [25, 50, 75, 100]) {
              const d = draft({ side, type, price })
              const fill = percentFill(pct, d, ctx(bal))
              if (!fill.ok) continue
              const r = checkOrder({ ...d, [fill.field]: fill.text }, ctx(bal))
              expect(r.errors[fill.field]?.key, `${side} ${type} ${price} ${bal} ${pct}%`).not.toBe('trade.check.aboveAvailable')
            }
          }
        }
      }
    }
  })
})

describe('the estimate under the fields', () => {
  it('a limit total is price × size', () => {
    expect(estimate(draft({ price: '0.5', size: '3' }), ctx())).toEqual({ total: 3n * U / 2n, size: null, approx: false })
  })

  it('a market order is estimated at the reference price, marked approximate, or not at all without one', () => {
    expect(estimate(draft({ type: 'market', amount: '10' }), ctx(undefined, 2n * U))).toEqual({ total: 10n * U, size: 5n * U, approx: true })
    expect(estimate(draft({ side: 'sell', type: 'market', size: '4' }), ctx(undefined, U / 2n))).toEqual({ total: 2n * U, size: null, approx: true })
    expect(estimate(draft({ side: 'sell', type: 'market', size: '4' }), ctx()).total).toBeNull()
  })
})

describe('helpers', () => {
  it('notional rounds up and floorToStep rounds down', () => {
    expect(notional(1n, 1n)).toBe(1n)
    expect(notional(2n * U, 3n * U)).toBe(6n * U)
    expect(floorToStep(1_234n, 100n)).toBe(1_200n)
    expect(floorToStep(-5n, 100n)).toBe(0n)
  })

  it('the confirm names side, size, price and total of a limit order', () => {
    expect(orderSummary({ inst_id: 'NADI-USDT', side: 'sell', type: 'limit', price: '0.25', size: '1000' })).toEqual({
      key: 'trade.confirm.limitSell',
      params: { size: '1,000', price: '0.25', total: '250' },
    })
    expect(orderSummary({ inst_id: 'NADI-USDT', side: 'buy', type: 'market', quote_amount: '12.5' })).toEqual({ key: 'trade.confirm.marketBuy', params: { amount: '12.5' } })
  })
})
