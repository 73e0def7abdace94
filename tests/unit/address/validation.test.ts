import { describe, expect, it } from 'vitest'
import { validateAddress, type AddressForm } from '../../../src/features/address/validation.ts'

const good: AddressForm = { name: '王小明', phone: '0912345678', area: '台北市 信義區', address: '松仁路 100 號 5 樓', is_default: false }

describe('address form rules (SPEC §5)', () => {
  it('a complete address has no problems', () => {
    expect(validateAddress(good)).toEqual({})
  })

  it('each required field left blank, or only spaces, is named with its own message', () => {
    expect(validateAddress({ ...good, name: '  ' })).toEqual({ name: 'address.nameRequired' })
    expect(validateAddress({ ...good, phone: '' })).toEqual({ phone: 'address.phoneRequired' })
    expect(validateAddress({ ...good, area: '' })).toEqual({ area: 'address.areaRequired' })
    expect(validateAddress({ ...good, address: '\n' })).toEqual({ address: 'address.detailRequired' })
  })

  it('a field of only zero-width characters is blank; control and text-direction characters are refused with the field’s message', () => {
    expect(validateAddress({ ...good, area: '\u200b' })).toEqual({ area: 'address.areaRequired' })
    expect(validateAddress({ ...good, name: 'a\nb', area: 'x\u202ey', address: '\u2067z' })).toEqual({
      name: 'address.nameInvalid',
      area: 'address.areaInvalid',
      address: 'address.detailInvalid',
    })
  })

  it('a phone that is not a phone number is refused', () => {
    expect(validateAddress({ ...good, phone: '12ab' })).toEqual({ phone: 'address.phoneInvalid' })
  })

  it('text longer than the server keeps is refused before sending', () => {
    expect(validateAddress({ ...good, name: 'x'.repeat(41), area: 'x'.repeat(101), address: 'x'.repeat(201) })).toEqual({
      name: 'address.nameTooLong',
      area: 'address.areaTooLong',
      address: 'address.detailTooLong',
    })
  })
})
