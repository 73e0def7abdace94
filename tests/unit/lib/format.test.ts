import { describe, expect, it } from 'vitest'
import { formatAmount, formatDate, formatDateTime, groupThousands, shortAddress } from '../../../src/lib/format.ts'

describe('formatAmount', () => {
  it('formatAmount truncates to 6 decimals and never rounds up', () => {
    expect(formatAmount('1.23456789')).toBe('1.234567')
    expect(formatAmount('0.9999999')).toBe('0.999999')
    expect(formatAmount('9.9999999999')).toBe('9.999999')
    expect(formatAmount('0.0000009')).toBe('0')
  })

  it('formatAmount keeps up to 6 decimals as they are and drops trailing zeros', () => {
    expect(formatAmount('1.5')).toBe('1.5')
    expect(formatAmount('1.123456')).toBe('1.123456')
    expect(formatAmount('1.500000')).toBe('1.5')
    expect(formatAmount('2.000000001')).toBe('2')
    expect(formatAmount('0.000001')).toBe('0.000001')
  })

  it('formatAmount shows empty, null and undefined as "0"', () => {
    expect(formatAmount('')).toBe('0')
    expect(formatAmount(null)).toBe('0')
    expect(formatAmount(undefined)).toBe('0')
    expect(formatAmount('   ')).toBe('0')
  })

  it('formatAmount keeps the sign of a negative amount but never shows "-0"', () => {
    expect(formatAmount('-1.5')).toBe('-1.5')
    expect(formatAmount('-1.23456789')).toBe('-1.234567')
    expect(formatAmount('-0')).toBe('0')
    expect(formatAmount('-0.0000001')).toBe('0')
    expect(formatAmount(-2.25)).toBe('-2.25')
  })

  it('formatAmount strips leading zeros and accepts bare-dot forms', () => {
    expect(formatAmount('007.50')).toBe('7.5')
    expect(formatAmount('.5')).toBe('0.5')
    expect(formatAmount('5.')).toBe('5')
    expect(formatAmount('000')).toBe('0')
  })

  it('formatAmount trims surrounding whitespace', () => {
    expect(formatAmount('  12.5 ')).toBe('12.5')
  })

  it('formatAmount keeps huge decimal strings exact (no float)', () => {
    expect(formatAmount('123456789012345678901234567890.123456789')).toBe('123456789012345678901234567890.123456')
  })

  it('formatAmount honours a custom number of decimals', () => {
    expect(formatAmount('1.23456', 2)).toBe('1.23')
    expect(formatAmount('1.99', 0)).toBe('1')
    expect(formatAmount('1.10', 8)).toBe('1.1')
  })

  it('formatAmount shows junk as "0"', () => {
    for (const v of ['abc', '1.2.3', '1e5', '+1', '1,000', '0x10', '12abc', '-', '.', 'NaN']) {
      expect(formatAmount(v), v).toBe('0')
    }
  })

  it('formatAmount shows non-finite numbers as "0"', () => {
    expect(formatAmount(Number.NaN)).toBe('0')
    expect(formatAmount(Number.POSITIVE_INFINITY)).toBe('0')
    expect(formatAmount(Number.NEGATIVE_INFINITY)).toBe('0')
  })

  it('formatAmount writes numbers without exponent notation', () => {
    expect(formatAmount(0)).toBe('0')
    expect(formatAmount(1.5)).toBe('1.5')
    expect(formatAmount(1e-7)).toBe('0')
    expect(formatAmount(0.000001)).toBe('0.000001')
    expect(formatAmount(1.1)).toBe('1.1')
    expect(formatAmount(1234567.125)).toBe('1234567.125')
    expect(formatAmount(1e20)).toBe('100000000000000000000')
  })

  // Regression, fixed (src/lib/format.ts, numberToPlain): n.toFixed(20) prints the exact binary value of the double,
  // so decimals that are not exactly representable come out just below the intended value and are
  // then truncated: formatAmount(0.3) === '0.299999' (expected '0.3'), formatAmount(2.675) ===
  // '2.674999' (expected '2.675'). The shortest round-trip form (String(n)) is what the number means.
  it('formatAmount shows a number as its shortest decimal form (0.3 → "0.3", not "0.299999")', () => {
    expect(formatAmount(0.3)).toBe('0.3')
    expect(formatAmount(2.675)).toBe('2.675')
    expect(formatAmount(123456789.123)).toBe('123456789.123')
  })

  // Regression, fixed (src/lib/format.ts, numberToPlain): for |n| >= 1e21 it returns String(n), which is exponent
  // notation ('1e+21'); the decimal regex then rejects it and a finite amount shows as '0'.
  it('formatAmount shows numbers >= 1e21 in full instead of "0"', () => {
    expect(formatAmount(1e21)).toBe('1000000000000000000000')
  })
})

describe('groupThousands', () => {
  it('groupThousands puts a comma every three integer digits', () => {
    expect(groupThousands('0')).toBe('0')
    expect(groupThousands('123')).toBe('123')
    expect(groupThousands('1000')).toBe('1,000')
    expect(groupThousands('1234567')).toBe('1,234,567')
    expect(groupThousands('123456789012')).toBe('123,456,789,012')
  })

  it('groupThousands leaves the fraction untouched', () => {
    expect(groupThousands('1234567.891234')).toBe('1,234,567.891234')
    expect(groupThousands('0.123456')).toBe('0.123456')
  })

  it('groupThousands keeps a leading minus sign outside the groups', () => {
    expect(groupThousands('-1234')).toBe('-1,234')
    expect(groupThousands('-123')).toBe('-123')
    expect(groupThousands('-123456.5')).toBe('-123,456.5')
  })

  it('groupThousands composes with formatAmount', () => {
    expect(groupThousands(formatAmount('1234567.123456789'))).toBe('1,234,567.123456')
  })
})

describe('shortAddress', () => {
  const addr = '0x1234567890abcdef1234567890abcdef12345678'

  it('shortAddress keeps the first 6 and last 4 characters around an ellipsis', () => {
    expect(shortAddress(addr)).toBe('0x1234…5678')
  })

  it('shortAddress leaves strings of at most head + tail + 1 characters unchanged', () => {
    expect(shortAddress('')).toBe('')
    expect(shortAddress('0x12345678')).toBe('0x12345678')
    expect(shortAddress('0x123456789')).toBe('0x123456789') // 11 = 6 + 4 + 1
    expect(shortAddress('0x1234567890')).toBe('0x1234…7890') // 12 characters are shortened
  })

  it('shortAddress honours custom head and tail lengths', () => {
    expect(shortAddress(addr, 4, 6)).toBe('0x12…345678')
    expect(shortAddress(addr, 10, 2)).toBe('0x12345678…78')
  })
})

describe('formatDate / formatDateTime', () => {
  // The output depends on the ICU data and the process time zone, so only the year is asserted;
  // mid-June noon UTC is the same year in every time zone.
  const ms = Date.UTC(2024, 5, 15, 12, 0, 0)

  it('formatDate contains the year for every app locale', () => {
    for (const locale of ['en', 'zh-TW', 'zh-CN', 'ja', 'ko', 'th', 'pt', 'id', 'vi', 'ms']) {
      const text = formatDate(ms, locale)
      // th uses the Buddhist calendar by default (2567); every other locale shows 2024.
      expect(text, locale).toMatch(locale === 'th' ? /2024|2567/ : /2024/)
    }
  })

  it('formatDateTime contains the year', () => {
    expect(formatDateTime(ms, 'en')).toContain('2024')
  })
})
