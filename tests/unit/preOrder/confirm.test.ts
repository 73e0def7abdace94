import { describe, expect, it } from 'vitest'
import { REMARK_MAX as WIRE_REMARK_MAX } from '../../../contract/preOrder.ts'
import type { Address } from '../../../contract/address.ts'
import { addAddressHref, confirmHref, ORDER_LIST_PATH, orderBody, parseConfirm, pickAddress, REMARK_MAX, remarkLength, remarkProblem } from '../../../src/features/preOrder/confirm.ts'

const split = (href: string) => {
  const [path, search = ''] = href.split('?') as [string, string?]
  return [path, search] as const
}

const addr = (id: number, is_default = false): Address => ({ id, name: 'A', phone: '+886912345678', area: 'Taipei', address: 'Road 1', is_default, created_at: 0, updated_at: 0 })

describe('the order confirm screen reads its order from its address', () => {
  it('devices and gold confirm on their own route; a car on the shop’s with area=car', () => {
    expect(confirmHref({ area: 'machine', goodsId: 1, specId: 2, quantity: 3 })).toBe('/shop/orderConfirm?goods=1&spec=2&qty=3')
    expect(confirmHref({ area: 'gold', goodsId: 4, specId: 9, quantity: 1 })).toBe('/mall/orderConfirm?goods=4&spec=9&qty=1')
    expect(confirmHref({ area: 'car', goodsId: 11, specId: 30, quantity: 1 })).toBe('/shop/orderConfirm?area=car&goods=11&spec=30&qty=1')
  })

  it('what it writes it reads back, for every area', () => {
    for (const t of [
      { area: 'machine', goodsId: 1, specId: 2, quantity: 99 },
      { area: 'gold', goodsId: 4, specId: 9, quantity: 1 },
      { area: 'car', goodsId: 11, specId: 30, quantity: 2 },
    ] as const) {
      expect(parseConfirm(...split(confirmHref(t)))).toEqual(t)
    }
  })

  it('a hand-edited link names no order: missing or malformed ids, a quantity of 0 or above 99', () => {
    expect(parseConfirm('/shop/orderConfirm', '')).toBeNull()
    expect(parseConfirm('/shop/orderConfirm', 'goods=1')).toBeNull()
    expect(parseConfirm('/shop/orderConfirm', 'goods=1&spec=x')).toBeNull()
    expect(parseConfirm('/shop/orderConfirm', 'goods=-1&spec=2')).toBeNull()
    expect(parseConfirm('/shop/orderConfirm', 'goods=1&spec=2&qty=0')).toBeNull()
    expect(parseConfirm('/shop/orderConfirm', 'goods=1&spec=2&qty=100')).toBeNull()
    expect(parseConfirm('/mall/orderList', 'goods=1&spec=2')).toBeNull()
    // A quantity left out is one.
    expect(parseConfirm('/mall/orderConfirm', 'goods=1&spec=2')).toEqual({ area: 'gold', goodsId: 1, specId: 2, quantity: 1 })
  })

  it('a paid order lands on its area’s order list; a car on its release record', () => {
    expect(ORDER_LIST_PATH).toEqual({ machine: '/shop/orderList', gold: '/mall/orderList', car: '/car/carRelease' })
  })

  it('adding an address comes back to the same order', () => {
    const back = confirmHref({ area: 'machine', goodsId: 1, specId: 2, quantity: 3 })
    const href = addAddressHref(back)
    expect(href.startsWith('/address/add?back=')).toBe(true)
    expect(new URLSearchParams(href.split('?')[1]).get('back')).toBe(back)
  })
})

describe('what the order is sent with', () => {
  it('the remark is optional, one line, at most 200 characters as people count them', () => {
    expect(REMARK_MAX).toBe(WIRE_REMARK_MAX)
    expect(remarkProblem('')).toBeNull()
    expect(remarkProblem('   ')).toBeNull()
    expect(remarkProblem('Leave it at the door')).toBeNull()
    expect(remarkProblem('字'.repeat(200))).toBeNull()
    expect(remarkProblem('字'.repeat(201))).toEqual({ key: 'preOrder.remarkTooLong', params: { max: '200' } })
    expect(remarkProblem('a\u202Eb')).toEqual({ key: 'preOrder.remarkInvalid' })
    expect(remarkLength('  😀😀  ')).toBe(2)
  })

  it('the default address is preselected; one chosen wins while it exists; none without addresses', () => {
    expect(pickAddress([addr(1), addr(2, true)], undefined)?.id).toBe(2)
    expect(pickAddress([addr(1), addr(2, true)], 1)?.id).toBe(1)
    expect(pickAddress([addr(1), addr(2, true)], 9)?.id).toBe(2)
    expect(pickAddress([addr(3), addr(4)], undefined)?.id).toBe(3)
    expect(pickAddress([], undefined)).toBeUndefined()
    expect(pickAddress(undefined, 1)).toBeUndefined()
  })

  it('the server’s default address (getDefaultAddress) shows before the list loads; once loaded, a choice still wins and the list’s copy is shown', () => {
    const def = { ...addr(2, true), name: 'B' }
    expect(pickAddress(undefined, undefined, def)).toBe(def)
    expect(pickAddress(undefined, undefined, null)).toBeUndefined()
    const list = [addr(1), addr(2, true)]
    expect(pickAddress(list, undefined, def)).toBe(list[1])
    expect(pickAddress(list, 1, def)?.id).toBe(1)
    // A default deleted since: the list's own default, else the first.
    expect(pickAddress([addr(5)], undefined, def)?.id).toBe(5)
  })

  it('the address goes only with what ships, the remark only when there is one, trimmed', () => {
    const target = { area: 'machine', goodsId: 1, specId: 2, quantity: 3 } as const
    expect(orderBody(target, { ships: true, addressId: 7, remark: '  ring twice ', shownTotal: '30.06' })).toEqual({ area: 'machine', goods_id: 1, spec_id: 2, quantity: 3, address_id: 7, remark: 'ring twice', expected_total: '30.06' })
    expect(orderBody({ ...target, area: 'car' }, { ships: false, addressId: 7, remark: ' ', shownTotal: '9' })).toEqual({ area: 'car', goods_id: 1, spec_id: 2, quantity: 3, expected_total: '9' })
  })
})
