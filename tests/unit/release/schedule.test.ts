import { describe, expect, it } from 'vitest'
import { DAY_MS, dayOf, dayStart, instalment, releaseTotal } from '../../../server/modules/release/schedule.ts'

describe('instalments', () => {
  it('sum to the total exactly, whatever the total and the days', () => {
    let seed = 7
    const rand = () => (seed = (seed * 48271) % 2147483647)
    for (let i = 0; i < 500; i++) {
      const total = BigInt(rand()) * BigInt(rand() % 1000) + BigInt(rand() % 97)
      const days = (rand() % 400) + 1
      let sum = 0n
      let min = total
      let max = 0n
      for (let k = 0; k < days; k++) {
        const a = instalment(total, days, k)
        sum += a
        if (a < min) min = a
        if (a > max) max = a
      }
      expect(sum).toBe(total)
      expect(max - min <= 1n).toBe(true)
    }
  })
  it('are zero outside the plan', () => {
    expect(instalment(100n, 10, -1)).toBe(0n)
    expect(instalment(100n, 10, 10)).toBe(0n)
    expect(instalment(100n, 0, 0)).toBe(0n)
  })
  it('give the first days the remainder: 10 over 3 days is 4, 3, 3', () => {
    expect([0, 1, 2].map((k) => instalment(10n, 3, k))).toEqual([4n, 3n, 3n])
  })
})

describe('release totals', () => {
  it('convert the released share of the value at the NADI price, floored', () => {
    // 1000 USDT × 100 % at 0.25 USDT/NADI = 4000 NADI.
    expect(releaseTotal(100_000_000_000n, 1_000_000n, 25_000_000n)).toBe(400_000_000_000n)
    // 30 % of 999 USDT at 0.3 = 999 NADI.
    expect(releaseTotal(99_900_000_000n, 300_000n, 30_000_000n)).toBe(99_900_000_000n)
    expect(releaseTotal(1n, 1n, 100_000_000n)).toBe(0n)
    expect(() => releaseTotal(1n, 1n, 0n)).toThrow(RangeError)
  })
})

describe('UTC days', () => {
  it('a day starts at UTC midnight', () => {
    const t = Date.UTC(2026, 10, 25, 23, 59, 59, 999)
    expect(dayStart(dayOf(t))).toBe(Date.UTC(2026, 10, 25))
    expect(dayOf(t + 1)).toBe(dayOf(t) + 1)
    expect(DAY_MS).toBe(86_400_000)
  })
})
