import { describe, expect, it } from 'vitest'
import { AMOUNT_MAX, ASSET_DECIMALS, formatMoney, parseAmount, parseMoney, roundUpToDecimals } from '../../../contract/money.ts'

/** Deterministic 64-bit generator (splitmix64) so a failing case can be reproduced from its seed. */
function splitmix64(seed: bigint): () => bigint {
  const MASK = (1n << 64n) - 1n
  let state = seed & MASK
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK
    let z = state
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK
    return z ^ (z >> 31n)
  }
}

/** The largest value the wire format can carry: 20 integer digits and 8 decimals. */
const MAX_UNITS = 10n ** 28n - 1n

describe('parseMoney', () => {
  it('parses whole numbers and decimals into integer units of 1e-8', () => {
    expect(parseMoney('0')).toBe(0n)
    expect(parseMoney('1')).toBe(100_000_000n)
    expect(parseMoney('12.5')).toBe(1_250_000_000n)
    expect(parseMoney('0.00000001')).toBe(1n)
    expect(parseMoney('0.1')).toBe(10_000_000n)
    expect(parseMoney('123.45678901')).toBe(12_345_678_901n)
  })

  it('accepts trailing zeros in the fraction (they do not change the value)', () => {
    expect(parseMoney('1.10')).toBe(110_000_000n)
    expect(parseMoney('0.0')).toBe(0n)
    expect(parseMoney('2.00000000')).toBe(200_000_000n)
  })

  it('rejects negative amounts', () => {
    expect(parseMoney('-1')).toBeNull()
    expect(parseMoney('-0')).toBeNull()
    expect(parseMoney('-0.5')).toBeNull()
  })

  it('rejects more than 8 decimals instead of rounding or truncating them', () => {
    expect(parseMoney('0.123456789')).toBeNull()
    expect(parseMoney('1.000000000')).toBeNull()
  })

  it('rejects exponent notation', () => {
    for (const s of ['1e5', '1E5', '1e-8', '1.5e3', 'Infinity', 'NaN']) expect(parseMoney(s), s).toBeNull()
  })

  it('rejects leading zeros', () => {
    for (const s of ['01', '00', '00.5', '007']) expect(parseMoney(s), s).toBeNull()
  })

  it('rejects empty and whitespace-padded text', () => {
    for (const s of ['', ' ', ' 1', '1 ', '\t1', '1\n', '1 .5']) expect(parseMoney(s), JSON.stringify(s)).toBeNull()
  })

  it('rejects other malformed text: bare dots, signs, separators, hex, non-ASCII digits', () => {
    for (const s of ['.5', '5.', '.', '+1', '1,000', '1_000', '0x10', '1.2.3', '１', '١', 'abc']) {
      expect(parseMoney(s), s).toBeNull()
    }
  })

  it('accepts up to 20 integer digits and rejects 21', () => {
    expect(parseMoney('99999999999999999999.99999999')).toBe(MAX_UNITS)
    expect(parseMoney('100000000000000000000')).toBeNull()
  })

  it('keeps values beyond 2^53 exact', () => {
    // 2^53 + 1 cannot be represented as a double; as units it must survive untouched.
    expect(parseMoney('9007199254740993')).toBe(9_007_199_254_740_993n * 100_000_000n)
    expect(parseMoney('9007199254740993.00000001')).toBe(900_719_925_474_099_300_000_001n)
    expect(parseMoney('12345678901234567890.12345678')).toBe(1_234_567_890_123_456_789_012_345_678n)
  })
})

describe('formatMoney', () => {
  it('writes units as a decimal string without trailing zeros or exponent', () => {
    expect(formatMoney(0n)).toBe('0')
    expect(formatMoney(1n)).toBe('0.00000001')
    expect(formatMoney(10_000_000n)).toBe('0.1')
    expect(formatMoney(100_000_000n)).toBe('1')
    expect(formatMoney(1_250_000_000n)).toBe('12.5')
    expect(formatMoney(12_345_678_901n)).toBe('123.45678901')
  })

  it('keeps the sign of negative units', () => {
    expect(formatMoney(-1n)).toBe('-0.00000001')
    expect(formatMoney(-150_000_000n)).toBe('-1.5')
    expect(formatMoney(-100_000_000n)).toBe('-1')
  })

  it('keeps values beyond 2^53 exact', () => {
    expect(formatMoney(900_719_925_474_099_300_000_001n)).toBe('9007199254740993.00000001')
    expect(formatMoney(MAX_UNITS)).toBe('99999999999999999999.99999999')
    expect(formatMoney(10n ** 40n)).toBe('1' + '0'.repeat(32))
  })
})

describe('parseMoney / formatMoney round trips', () => {
  it('formatMoney(parseMoney(s)) === s for canonical strings', () => {
    for (const s of ['0', '1', '0.1', '12.5', '0.00000001', '1000000', '9007199254740993.00000001', '99999999999999999999.99999999']) {
      expect(formatMoney(parseMoney(s) as bigint)).toBe(s)
    }
  })

  it('formatMoney normalises non-canonical input (trailing zeros dropped)', () => {
    expect(formatMoney(parseMoney('1.10') as bigint)).toBe('1.1')
    expect(formatMoney(parseMoney('0.0') as bigint)).toBe('0')
  })

  it('a formatted negative amount is never accepted back', () => {
    expect(parseMoney(formatMoney(-1n))).toBeNull()
  })

  it('parseMoney(formatMoney(u)) === u for random units of every magnitude (seeded, 5000 cases)', () => {
    const next = splitmix64(0x5eed_2024n)
    for (let i = 0; i < 5000; i++) {
      // Mix magnitudes: shift a 128-bit random value right by a random amount, then clamp into range.
      const raw = (next() << 64n) | next()
      const units = (raw >> (next() % 128n)) % (MAX_UNITS + 1n)
      const text = formatMoney(units)
      expect(text, `units=${units}`).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]{0,7}[1-9])?$/)
      expect(parseMoney(text), `units=${units} text=${text}`).toBe(units)
    }
  })

  it('formatMoney(parseMoney(s)) === s for random canonical strings (seeded, 5000 cases)', () => {
    const next = splitmix64(0xc0ffeen)
    const digits = (n: number) => Array.from({ length: n }, () => String(next() % 10n)).join('')
    for (let i = 0; i < 5000; i++) {
      const wholeLen = Number(next() % 20n) + 1
      let whole = digits(wholeLen).replace(/^0+(?=.)/, '')
      if (whole === '') whole = '0'
      const fracLen = Number(next() % 9n)
      const frac = digits(fracLen).replace(/0+$/, '')
      const s = frac ? `${whole}.${frac}` : whole
      const units = parseMoney(s)
      expect(units, s).not.toBeNull()
      expect(formatMoney(units as bigint)).toBe(s)
    }
  })
})

describe('parseAmount: what a request may ask for', () => {
  const INT64_MAX = (1n << 63n) - 1n

  it('refuses amounts past the ledger range that the wire format lets through', () => {
    for (const text of ['92233720368.54775808', '92233720369', '999999999999', '92233720368.54775807', '99999999999999999999.99999999']) {
      expect(parseMoney(text), text).not.toBeNull()
      expect(parseAmount(text), text).toBeNull()
    }
  })

  it('accepts a billion whole tokens and refuses one unit more', () => {
    expect(parseAmount('1000000000')).toBe(AMOUNT_MAX)
    expect(parseAmount('1000000000.00000001')).toBeNull()
    expect(parseAmount('0')).toBe(0n)
    expect(parseAmount('12.5')).toBe(1_250_000_000n)
  })

  it('leaves room for sums, fees and multipliers: ninety maximal amounts still fit in int64', () => {
    expect(AMOUNT_MAX * 90n).toBeLessThan(INT64_MAX)
    expect(AMOUNT_MAX * 93n).toBeGreaterThan(INT64_MAX)
  })

  it('refuses what is not an amount, as parseMoney does', () => {
    for (const text of ['', '-1', '1e3', '01', '1.123456789', ' 1']) expect(parseAmount(text), text).toBeNull()
  })
})

describe('roundUpToDecimals: a price the platform sets, in the decimals it is shown and charged in', () => {
  it('rounds up to the step and keeps what is already on it', () => {
    expect(roundUpToDecimals(100_826_259_900n, ASSET_DECIMALS.USDT)).toBe(100_827_000_000n)
    expect(roundUpToDecimals(34_002_278_900n, ASSET_DECIMALS.USDT)).toBe(34_003_000_000n)
    expect(roundUpToDecimals(34_002_000_000n, ASSET_DECIMALS.USDT)).toBe(34_002_000_000n)
    expect(roundUpToDecimals(1n, ASSET_DECIMALS.NADI)).toBe(10_000n)
    expect(roundUpToDecimals(0n, 2)).toBe(0n)
    expect(roundUpToDecimals(123n, 8)).toBe(123n)
  })
  it('refuses negative amounts and decimals the ledger does not have', () => {
    expect(() => roundUpToDecimals(-1n, 2)).toThrow(RangeError)
    expect(() => roundUpToDecimals(1n, 9)).toThrow(RangeError)
    expect(() => roundUpToDecimals(1n, 1.5)).toThrow(RangeError)
  })
})
