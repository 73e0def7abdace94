import { describe, expect, it } from 'vitest'
import { chainPaymentArrival, cooldownUntil, holdCap, holdEndedAt, minutesUntil, type ChainPaymentArrival } from '../../../server/modules/orders/holdRules.ts'

const MIN = 60_000
const H = 60 * MIN

describe('how much of an item unpaid holds may take', () => {
  it('is the share of what is left plus what is held, floored', () => {
    expect(holdCap(50n, 0n, 200_000)).toBe(10n)
    expect(holdCap(40n, 10n, 200_000)).toBe(10n)
    expect(holdCap(39n, 0n, 200_000)).toBe(7n)
  })
  it('is at least one unit, so a scarce item can still be ordered by who pays from a wallet', () => {
    expect(holdCap(3n, 0n, 200_000)).toBe(1n)
    expect(holdCap(0n, 0n, 0)).toBe(1n)
  })
  it('is everything at a share of 100 %', () => {
    expect(holdCap(40n, 0n, 1_000_000)).toBe(40n)
  })
  it('refuses negative stock or holds', () => {
    expect(() => holdCap(-1n, 0n, 200_000)).toThrow(RangeError)
    expect(() => holdCap(1n, -1n, 200_000)).toThrow(RangeError)
  })
})

describe('the cool-down after holds expire unpaid', () => {
  const now = 100 * H
  it('starts at the n-th expiry inside the window and ends when that one leaves it', () => {
    expect(cooldownUntil([now - 3 * H, now - 2 * H, now - 10 * MIN], now, 3, 6 * H)).toBe(now - 3 * H + 6 * H)
    // Only the most recent n count: an older fourth does not lengthen the wait.
    expect(cooldownUntil([now - 5 * H, now - 3 * H, now - 2 * H, now - 10 * MIN], now, 3, 6 * H)).toBe(now + 3 * H)
  })
  it('does not start below n expiries, nor with expiries older than the window', () => {
    expect(cooldownUntil([now - 2 * H, now - MIN], now, 3, 6 * H)).toBeNull()
    expect(cooldownUntil([now - 7 * H, now - 2 * H, now - MIN], now, 3, 6 * H)).toBeNull()
  })
  it('counts a hold its user cancelled from the cancel, and one that expired from its expiry', () => {
    expect(holdEndedAt(now + 15 * MIN, now)).toBe(now)
    expect(holdEndedAt(now, now + 40_000)).toBe(now)
    const ends = [holdEndedAt(now, now - 3 * H), holdEndedAt(now - 2 * H, now - 2 * H + 5_000), holdEndedAt(now, now - MIN)]
    expect(cooldownUntil(ends, now, 3, 6 * H)).toBe(now + 3 * H)
  })
  it('is off when n is 0', () => {
    expect(cooldownUntil([now - 1, now - 2, now - 3], now, 0, 6 * H)).toBeNull()
  })
  it('says the wait in whole minutes, at least one', () => {
    expect(minutesUntil(now + 61_000, now)).toBe(2)
    expect(minutesUntil(now + 1, now)).toBe(1)
    expect(minutesUntil(now - 5, now)).toBe(1)
  })
})

describe('what an on-chain payment that confirms does to its order', () => {
  const EXP = 1_000 * MIN
  const arrival = (o: Partial<ChainPaymentArrival>): ChainPaymentArrival => ({ state: 'cancelled', expiresAt: EXP, endedAt: EXP + MIN, paidAt: EXP + 5 * MIN, retake: 'free', ...o })
  it('pays an order still open, however late, since it still holds its stock or seat', () => {
    expect(chainPaymentArrival(arrival({ state: 'open', endedAt: null, paidAt: EXP + H, retake: 'gone' }))).toEqual({ act: 'pay' })
  })
  it('reinstates an expired order whose stock or seat can be taken again, paid in time or late', () => {
    expect(chainPaymentArrival(arrival({ paidAt: EXP - MIN }))).toEqual({ act: 'reinstate' })
    expect(chainPaymentArrival(arrival({ paidAt: EXP + H }))).toEqual({ act: 'reinstate' })
  })
  it('reinstates an expired order paid in time although taken off sale since, but not one paid late', () => {
    expect(chainPaymentArrival(arrival({ paidAt: EXP - 1, retake: 'off_sale' }))).toEqual({ act: 'reinstate' })
    expect(chainPaymentArrival(arrival({ paidAt: EXP, retake: 'off_sale' }))).toEqual({ act: 'credit', because: 'expired' })
  })
  it('credits an expired order whose stock or seat is gone, even paid in time', () => {
    expect(chainPaymentArrival(arrival({ paidAt: EXP - MIN, retake: 'gone' }))).toEqual({ act: 'credit', because: 'expired' })
  })
  it('reinstates an order that held nothing only if paid in time', () => {
    expect(chainPaymentArrival(arrival({ paidAt: EXP - MIN, retake: 'none' }))).toEqual({ act: 'reinstate' })
    expect(chainPaymentArrival(arrival({ paidAt: EXP + MIN, retake: 'none' }))).toEqual({ act: 'credit', because: 'expired' })
  })
  it('never reinstates an order its user cancelled: the payment is credited', () => {
    expect(chainPaymentArrival(arrival({ endedAt: EXP - 2 * MIN, paidAt: EXP - 3 * MIN }))).toEqual({ act: 'credit', because: 'cancelled' })
  })
})
