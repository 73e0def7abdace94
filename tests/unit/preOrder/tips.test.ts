import { describe, expect, it } from 'vitest'
import type { PayOrder } from '../../../contract/orders.ts'
import { TIPS_POLL_MS, tipsRefetchMs } from '../../../src/features/preOrder/tips.ts'

const order = (expires_at: number): PayOrder => ({ id: 1, order_no: 'N1', type: 'device', title: 'T', asset: 'USDT', total: '1', status: 'pending_payment', created_at: 0, expires_at, payment: null })

describe('the unpaid-order reminder on home', () => {
  it('is read again just after its first order’s time is up, at most every minute', () => {
    expect(tipsRefetchMs({ count: 1, next: order(10_000) }, 0)).toBe(11_000)
    expect(tipsRefetchMs({ count: 1, next: order(30 * 60_000) }, 0)).toBe(TIPS_POLL_MS)
    expect(tipsRefetchMs({ count: 1, next: order(0) }, 60_000)).toBe(2_000)
  })

  it('is not polled with nothing unpaid', () => {
    expect(tipsRefetchMs({ count: 0, next: null }, 0)).toBe(false)
    expect(tipsRefetchMs(undefined, 0)).toBe(false)
  })
})
