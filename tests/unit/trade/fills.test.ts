import { describe, expect, it } from 'vitest'
import { fillToTell, pushedOrders } from '../../../src/features/trade/fills.ts'

describe('telling a fill', () => {
  it('a filled order is told once, however many pushes (or the placing answer) report it', () => {
    const seen = new Set<number>()
    expect(fillToTell({ id: 7, status: 'filled' }, seen)).toBe(true)
    expect(fillToTell({ id: 7, status: 'filled' }, seen)).toBe(false)
    expect(fillToTell({ id: 8, status: 'filled' }, seen)).toBe(true)
  })

  it('an order not yet filled is not news', () => {
    const seen = new Set<number>()
    for (const status of ['pending', 'partially_filled', 'cancelled']) expect(fillToTell({ id: 1, status }, seen)).toBe(false)
    expect(fillToTell({ id: 1, status: 'filled' }, seen)).toBe(true)
  })

  it('a push’s orders are read only where they have an id and a status', () => {
    expect(pushedOrders([{ id: 3, status: 'filled' }, { id: '4', status: 'filled' }, null, 5])).toEqual([{ id: 3, status: 'filled' }])
    expect(pushedOrders({ id: 3 })).toEqual([])
  })
})
