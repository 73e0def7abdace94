import { afterEach, describe, expect, it } from 'vitest'
import { betterSample, MAX_ROUND_TRIP_MS, offsetOf, recordClockSample, resetServerClock, serverNow, syncServerClock } from '../../../src/api/serverClock.ts'

afterEach(() => resetServerClock())

describe('the server clock offset (GET_TIME, DESIGN §5)', () => {
  it('a phone 7 minutes behind, with a 200 ms round trip, is corrected by the server time plus half the trip', () => {
    // Sent at phone 1_000_000, back at 1_000_200; the server read its clock (1_420_100) about halfway.
    expect(offsetOf({ sentAt: 1_000_000, serverTime: 1_420_100, receivedAt: 1_000_200 })).toBe(420_000)
  })

  it('a phone ahead of the server gets a negative offset', () => {
    expect(offsetOf({ sentAt: 5_000_000, serverTime: 4_700_050, receivedAt: 5_000_100 })).toBe(-300_000)
  })

  it('of two samples the one with the shorter round trip is kept, whichever came first', () => {
    const slow = { sentAt: 0, serverTime: 60_900, receivedAt: 2_000 }
    const fast = { sentAt: 10_000, serverTime: 70_050, receivedAt: 10_100 }
    expect(betterSample(slow, fast)).toBe(fast)
    expect(betterSample(fast, slow)).toBe(fast)
    expect(betterSample(null, slow)).toBe(slow)
  })

  it('serverNow adds the learnt offset to the phone’s clock; a round trip beyond the limit or a time running backwards is ignored', () => {
    expect(serverNow(1_000)).toBe(1_000)
    expect(recordClockSample({ sentAt: 0, serverTime: 600_000, receivedAt: MAX_ROUND_TRIP_MS + 1 })).toBe(false)
    expect(recordClockSample({ sentAt: 500, serverTime: 600_000, receivedAt: 100 })).toBe(false)
    expect(serverNow(1_000)).toBe(1_000)
    expect(recordClockSample({ sentAt: 0, serverTime: 600_050, receivedAt: 100 })).toBe(true)
    expect(serverNow(1_000)).toBe(601_000)
  })

  it('syncServerClock times one GET_TIME on the phone’s clock; a failed one leaves the offset as it was', async () => {
    const phone = [1_000, 1_040]
    await syncServerClock({ serverTime: async () => 91_020 }, () => phone.shift()!)
    expect(serverNow(2_000)).toBe(92_000)
    await syncServerClock({ serverTime: async () => Promise.reject(new Error('timed out')) }, () => 5_000)
    expect(serverNow(2_000)).toBe(92_000)
  })
})
