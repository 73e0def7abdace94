import { describe, expect, it } from 'vitest'
import { validateWithdraw, withdrawTotals } from '../../../src/features/withdraw/validation.ts'
import { isFinal, statusKey, statusTone } from '../../../src/features/withdraw/status.ts'
import { maxAmount } from '../../../src/features/wallet/amount.ts'

const U = 100_000_000n
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const rules = { available: 10n * U, min: U, fee: U / 2n }

describe('the withdrawal form (SPEC §5, DESIGN §7)', () => {
  it('a good address and an amount within the rules can be sent, as the wire wants it', () => {
    expect(validateWithdraw({ address: ` ${ADDRESS} `, amount: '2.50' }, rules)).toEqual({ errors: {}, ok: { address: ADDRESS, amount: '2.5', units: 250_000_000n } })
  })

  it('withdrawing below 1 NADI is refused with the minimum named', () => {
    expect(validateWithdraw({ address: ADDRESS, amount: '0.99999999' }, rules).errors).toEqual({ amount: { key: 'money.amountBelowMin', params: { min: '1', asset: 'NADI' } } })
  })

  it('the fee is taken on top: "all" (available less the fee) passes, one unit more does not', () => {
    const all = maxAmount(rules.available, rules.fee)
    expect(validateWithdraw({ address: ADDRESS, amount: '9.5' }, rules).ok?.units).toBe(all)
    expect(validateWithdraw({ address: ADDRESS, amount: '9.50000001' }, rules).errors.amount?.key).toBe('money.amountAboveAvailable')
  })

  it('every problem of the form is reported at once, and nothing is sendable', () => {
    const r = validateWithdraw({ address: '0x12', amount: '' }, rules)
    expect(r.errors).toEqual({ address: { key: 'withdraw.addressInvalid' }, amount: { key: 'money.amountRequired' } })
    expect(r.ok).toBeUndefined()
  })

  it('the summary shows the amount arriving in full and the total leaving the account', () => {
    expect(withdrawTotals(3n * U, U / 2n)).toEqual({ receive: 3n * U, fee: U / 2n, total: 3n * U + U / 2n })
  })
})

describe('withdrawal states (SPEC §4)', () => {
  it('confirmed and failed are final; the rest are still under way', () => {
    expect((['requested', 'approved', 'broadcast', 'confirmed', 'failed'] as const).map(isFinal)).toEqual([false, false, false, true, true])
  })

  it('each state has its words and its colour', () => {
    expect(statusKey('broadcast')).toBe('withdraw.status.broadcast')
    expect(statusTone('requested')).toBe('pending')
    expect(statusTone('confirmed')).toBe('done')
    expect(statusTone('failed')).toBe('failed')
  })
})
