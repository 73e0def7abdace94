import { describe, expect, it } from 'vitest'
import type { ShopOrder } from '../../../contract/preOrder.ts'
import { RECEIPT_ACTION } from '../../../src/features/shopOrders/receipt.ts'
import { canConfirm, hasOrderData, nextPage, orderIdOf, orderTimes, queuedReceipts, statusTone, unitCount, type QueuedItem } from '../../../src/features/shopOrders/view.ts'

const item = (id: number, payload: unknown, state: QueuedItem['state'] = 'pending', action = RECEIPT_ACTION, error?: string): QueuedItem => ({ id, action, payload, state, error })

describe('order cards', () => {
  it('each fulfilment status has its own badge colour', () => {
    expect(statusTone('pending_shipment')).toBe('gold')
    expect(statusTone('pending_receipt')).toBe('teal')
    expect(statusTone('completed')).toBe('muted-badge')
  })

  it('the times an order went through are listed in order, and the ones still to come are left out', () => {
    expect(orderTimes({ create_time: 1, pay_time: 2, ship_time: null, confirm_time: null })).toEqual([
      { key: 'create', at: 1 },
      { key: 'pay', at: 2 },
    ])
    expect(orderTimes({ create_time: 1, pay_time: 2, ship_time: 3, confirm_time: 4 }).map((e) => e.key)).toEqual(['create', 'pay', 'ship', 'confirm'])
  })

  it('the unit count adds the quantities of every line', () => {
    expect(unitCount({ lines: [{ quantity: 2 }, { quantity: 3 }] as never })).toBe(5)
    expect(unitCount({ lines: [] })).toBe(0)
  })

  it('lists page by 10 until the total is loaded', () => {
    expect(nextPage({ total: 25 }, 1)).toBe(2)
    expect(nextPage({ total: 25 }, 2)).toBe(3)
    expect(nextPage({ total: 25 }, 3)).toBeUndefined()
    expect(nextPage({ total: 20 }, 2)).toBeUndefined()
    expect(nextPage({ total: 0 }, 1)).toBeUndefined()
  })

  it('the detail screen reads a positive integer id from ?id=, anything else is a missing id', () => {
    expect(orderIdOf('?id=42')).toBe(42)
    expect(orderIdOf('id=7&x=1')).toBe(7)
    for (const bad of ['', '?id=', '?id=0', '?id=-1', '?id=1.5', '?id=abc', '?id=01', '?id=99999999999999999']) expect(orderIdOf(bad), bad).toBeNull()
  })

  it('an order detail answer without the asked order, or with no lines, is missing its data', () => {
    const order = { id: 42, lines: [{ goods_id: 1 }] } as unknown as ShopOrder
    expect(hasOrderData(order, 42)).toBe(true)
    expect(hasOrderData(null, 42)).toBe(false)
    expect(hasOrderData(undefined, 42)).toBe(false)
    expect(hasOrderData(order, 43)).toBe(false)
    expect(hasOrderData({ ...order, lines: [] }, 42)).toBe(false)
    expect(hasOrderData({ id: 42 } as unknown as ShopOrder, 42)).toBe(false)
  })
})

describe('confirmations of receipt waiting in the outbox', () => {
  it('are found by shop and order id, with their state and the server’s words', () => {
    const queue = [
      item(1, { area: 'machine', id: 10 }),
      item(2, { area: 'gold', id: 10 }, 'failed', RECEIPT_ACTION, 'refused'),
      item(3, { id: 11 }, 'pending', 'address.add'),
      item(4, null),
      item(5, { area: 'machine', id: 'x' }),
    ]
    expect([...queuedReceipts(queue, 'machine')]).toEqual([[10, { outboxId: 1, state: 'pending', error: undefined }]])
    expect([...queuedReceipts(queue, 'gold')]).toEqual([[10, { outboxId: 2, state: 'failed', error: 'refused' }]])
  })

  it('"Confirm receipt" is offered only while pending receipt and with nothing already queued for it', () => {
    expect(canConfirm({ status: 'pending_receipt' }, undefined)).toBe(true)
    expect(canConfirm({ status: 'pending_receipt' }, { outboxId: 1, state: 'pending' })).toBe(false)
    expect(canConfirm({ status: 'pending_shipment' }, undefined)).toBe(false)
    expect(canConfirm({ status: 'completed' }, undefined)).toBe(false)
  })
})
