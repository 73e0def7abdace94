import { describe, expect, it } from 'vitest'
import { formatReleaseDay, releasedPercent } from '../../../src/features/release/progress.ts'

describe('release progress', () => {
  it('is the released share of the total in percent, two decimals, never rounded up', () => {
    expect(releasedPercent('0', '100')).toBe(0)
    expect(releasedPercent('1', '3')).toBe(33.33)
    expect(releasedPercent('2', '3')).toBe(66.66)
    expect(releasedPercent('0.00000001', '1000000')).toBe(0)
    expect(releasedPercent('99.99999999', '100')).toBe(99.99)
    expect(releasedPercent('100', '100')).toBe(100)
  })

  it('is 0 for an empty or unreadable total, and 100 at most', () => {
    expect(releasedPercent('5', '0')).toBe(0)
    expect(releasedPercent('5', 'abc')).toBe(0)
    expect(releasedPercent('abc', '5')).toBe(0)
    expect(releasedPercent('7', '5')).toBe(100)
  })

  it('a release day (UTC midnight) reads as that UTC date in any time zone', () => {
    const day = Date.UTC(2025, 0, 31)
    expect(formatReleaseDay(day, 'en-CA')).toBe('2025-01-31')
    expect(formatReleaseDay(day + 86_400_000 - 1, 'en-CA')).toBe('2025-01-31')
  })
})
