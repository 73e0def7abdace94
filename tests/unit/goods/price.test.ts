import { describe, expect, it } from 'vitest'
import { QUANTITY_MAX as WIRE_QUANTITY_MAX } from '../../../contract/preOrder.ts'
import { clampQuantity, defaultSpec, goldBreakdown, hasPower, lineTotal, maxQuantity, QUANTITY_MAX, showMoney } from '../../../src/features/goods/price.ts'
import type { GoodsSpec } from '../../../contract/goods.ts'

const spec = (over: Partial<GoodsSpec>): GoodsSpec => ({ id: 1, name: 'S', price: '10', stock: 5, power: '0', weight: null, craft_fee: null, ...over })

describe('catalog numbers as the screens show them', () => {
  it('a price shows in USDT\'s 2 decimals (the server prices in them), with thousands grouped; nothing shows 0', () => {
    expect(showMoney('1099')).toBe('1,099')
    expect(showMoney('1008.27')).toBe('1,008.27')
    expect(showMoney('340.02')).toBe('340.02')
    // Power keeps its own measure's decimals.
    expect(showMoney('1082.234042', 'power')).toBe('1,082.23')
    expect(showMoney('')).toBe('0')
    expect(showMoney(null)).toBe('0')
  })

  it('a line total is exact: unit price × quantity in integer units, never a float', () => {
    expect(lineTotal('0.1', 3)).toBe('0.3')
    expect(lineTotal('987.65922199', 99)).toBe('97778.26297701')
    expect(lineTotal('1099', 2)).toBe('2198')
    expect(lineTotal('garbage', 2)).toBe('0')
  })

  it('a buyer may take 1 to min(stock, 99) units; the stepper never leaves that range', () => {
    expect(QUANTITY_MAX).toBe(WIRE_QUANTITY_MAX)
    expect(maxQuantity(5)).toBe(5)
    expect(maxQuantity(1500)).toBe(99)
    expect(maxQuantity(0)).toBe(0)
    expect(clampQuantity(0, 5)).toBe(1)
    expect(clampQuantity(7, 5)).toBe(5)
    expect(clampQuantity(150, 1500)).toBe(99)
    expect(clampQuantity(3.7, 10)).toBe(3)
    expect(clampQuantity(Number.NaN, 10)).toBe(1)
    expect(clampQuantity(4, 0)).toBe(1) // sold out: the field reads 1, the buy button is off
  })

  it('a gold price splits into the metal (weight × price per gram) and the craft fee, which add up to the price exactly', () => {
    const b = goldBreakdown(spec({ price: '987.659221', weight: '10', craft_fee: '8' }), '97.965922')
    expect(b).toEqual({ weight: '10', perGram: '97.965922', metal: '979.659221', craftFee: '8', price: '987.659221' })
    expect(goldBreakdown(spec({ price: '399' }), null)).toBeNull()
    expect(goldBreakdown(spec({ price: '5', weight: '1', craft_fee: '8' }), '1')!.metal).toBe('0')
  })

  it('the first specification that can be bought is picked first', () => {
    expect(defaultSpec([spec({ id: 1, stock: 0 }), spec({ id: 2, stock: 3 })])?.id).toBe(2)
    expect(defaultSpec([spec({ id: 1, stock: 0 })])?.id).toBe(1)
    expect(defaultSpec([])).toBeUndefined()
  })

  it('only a device that grants power says so', () => {
    expect(hasPower('380')).toBe(true)
    expect(hasPower('0')).toBe(false)
    expect(hasPower(undefined)).toBe(false)
  })
})
