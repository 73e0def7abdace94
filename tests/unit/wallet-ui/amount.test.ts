import { describe, expect, it } from 'vitest'
import { checkAmount, maxAmount, normalizeAmount, sanitizeAmountInput, units } from '../../../src/features/wallet/amount.ts'

const U = 100_000_000n // one whole unit in 1e-8
const rules = { asset: 'USDT', available: 10n * U }
const problem = (text: string, r: Parameters<typeof checkAmount>[1] = rules) => {
  const c = checkAmount(text, r)
  return c.ok ? null : c.problem.key
}

describe('transfer and withdraw amounts (SPEC §5)', () => {
  it('an empty amount, or only spaces, asks for an amount', () => {
    expect(problem('')).toBe('money.amountRequired')
    expect(problem('   ')).toBe('money.amountRequired')
  })

  it('an amount below 0 is refused with its own message', () => {
    expect(problem('-1')).toBe('money.amountNegative')
    expect(problem('-0.5')).toBe('money.amountNegative')
  })

  it('zero is refused: a movement must move something', () => {
    expect(problem('0')).toBe('money.amountZero')
    expect(problem('0.00000000')).toBe('money.amountZero')
  })

  it('text that is not a number is refused', () => {
    for (const bad of ['abc', '.', '1.2.3', '1e5', '0x10', '--1', '1,000.5', '1.000,5']) expect(problem(bad), bad).toBe('money.amountInvalid')
  })

  it('more than 8 decimals is refused, naming the limit', () => {
    const c = checkAmount('1.123456789', rules)
    expect(c).toEqual({ ok: false, problem: { key: 'money.amountDecimals', params: { max: '8' } } })
  })

  it('an amount above what is available is refused, naming what is available', () => {
    const c = checkAmount('10.00000001', rules)
    expect(c).toEqual({ ok: false, problem: { key: 'money.amountAboveAvailable', params: { available: '10', asset: 'USDT' } } })
  })

  it('exactly what is available passes: the comparison is on integer units, not floats', () => {
    expect(checkAmount('10', rules)).toEqual({ ok: true, units: 10n * U, wire: '10' })
    // 0.1 + 0.2 style traps: these are exact in units.
    expect(checkAmount('0.3', { asset: 'USDT', available: 30_000_000n }).ok).toBe(true)
    const big = { asset: 'NADI', available: 12_345_678_901_234_567_890n }
    expect(checkAmount('123456789012.3456789', big).ok).toBe(true)
    expect(problem('123456789012.34567891', big)).toBe('money.amountAboveAvailable')
  })

  it('a fee taken on top counts against what is available', () => {
    const r = { asset: 'NADI', available: 10n * U, extra: U / 2n }
    expect(checkAmount('9.5', r).ok).toBe(true)
    expect(problem('9.50000001', r)).toBe('money.amountAboveAvailable')
  })

  it('below the minimum is refused, naming the minimum, before the available check', () => {
    const r = { asset: 'NADI', available: 0n, min: U }
    expect(checkAmount('0.99999999', r)).toEqual({ ok: false, problem: { key: 'money.amountBelowMin', params: { min: '1', asset: 'NADI' } } })
    expect(problem('1', { ...r, available: U })).toBeNull()
  })

  it('while the balance is unknown only the form of the amount is checked', () => {
    expect(checkAmount('5', { asset: 'USDT' }).ok).toBe(true)
  })

  it('what goes on the wire is the canonical decimal string', () => {
    const wire = (s: string) => {
      const c = checkAmount(s, rules)
      return c.ok ? c.wire : c.problem.key
    }
    expect(wire('007.50')).toBe('7.5')
    expect(wire('.5')).toBe('0.5')
    expect(wire('5.')).toBe('5')
    expect(wire(' 1 ')).toBe('1')
  })

  it('a lone decimal comma (a pt, id or vn keypad) is read as a point; anything ambiguous is refused', () => {
    expect(normalizeAmount('0,5')).toBe('0.5')
    expect(checkAmount('2,25', rules)).toEqual({ ok: true, units: 225_000_000n, wire: '2.25' })
    expect(problem('1,000,5')).toBe('money.amountInvalid')
  })

  it('the field keeps only digits, separators and a minus sign', () => {
    expect(sanitizeAmountInput('1 234,5 USDT')).toBe('1234,5')
    expect(sanitizeAmountInput('-12.5abc')).toBe('-12.5')
  })

  it('"all" is what is available less what is taken on top, never below 0', () => {
    expect(maxAmount(10n * U, U / 2n)).toBe(9n * U + U / 2n)
    expect(maxAmount(U / 4n, U / 2n)).toBe(0n)
    expect(maxAmount(7n)).toBe(7n)
  })

  it('wire amounts read back as units, signed, and a malformed one as 0', () => {
    expect(units('12.5')).toBe(1_250_000_000n)
    expect(units('-3')).toBe(-3n * U)
    expect(units('')).toBe(0n)
    expect(units(undefined)).toBe(0n)
    expect(units('1e3')).toBe(0n)
  })
})
