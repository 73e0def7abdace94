import { describe, expect, it } from 'vitest'
import { timeLeft } from '../../../src/features/orders/time.ts'

describe('time left to pay an order', () => {
  it('shows minutes and seconds under an hour, rounding a started second up', () => {
    expect(timeLeft(125_000, 0)).toBe('02:05')
    expect(timeLeft(1_001, 0)).toBe('00:02')
  })

  it('shows hours once there is an hour or more', () => {
    expect(timeLeft(3_600_000 + 62_000, 0)).toBe('1:01:02')
    expect(timeLeft(26 * 3_600_000, 0)).toBe('26:00:00')
  })

  it('is null once the time is up, so the list says it expired', () => {
    expect(timeLeft(1_000, 1_000)).toBeNull()
    expect(timeLeft(0, 5_000)).toBeNull()
  })
})
