// What the demo's shipper ships at a given time (issue 33): paid orders pending shipment once they have
// been paid for the delay, oldest first, and a tracking number the CLI's `ship` would accept.
import { describe, expect, it } from 'vitest'
import { demoTrackingNo, dueToShip } from '../../../server/modules/preOrder/demoShipping.ts'

const paid = [
  { id: 7, paidAt: 10_000 },
  { id: 3, paidAt: 5_000 },
  { id: 9, paidAt: 20_000 },
]

describe('what is due to ship', () => {
  it('nothing before the delay has passed since payment', () => {
    expect(dueToShip(paid, 5_000 + 29_999, 30_000)).toEqual([])
  })

  it('an order is due the moment it has been paid for the delay, oldest payment first', () => {
    expect(dueToShip(paid, 35_000, 30_000)).toEqual([3])
    expect(dueToShip(paid, 40_000, 30_000)).toEqual([3, 7])
    expect(dueToShip(paid, 60_000, 30_000)).toEqual([3, 7, 9])
  })

  it('a delay of 0 ships everything paid at once', () => {
    expect(dueToShip(paid, 20_000, 0)).toEqual([3, 7, 9])
  })
})

describe('the demo tracking number', () => {
  it('is the order number behind a prefix, letters, digits and dashes only, as `ship` requires', () => {
    expect(demoTrackingNo('D2026120112345678')).toBe('ND-D2026120112345678')
    expect(demoTrackingNo('a b/c_1234')).toMatch(/^[A-Za-z0-9-]{4,40}$/)
    expect(demoTrackingNo('x'.repeat(80))).toMatch(/^[A-Za-z0-9-]{4,40}$/)
  })
})
