import { ADDRESS_LIMITS, checkText, isValidPhone, trimText } from '../../../contract/addressRules.ts'

export interface AddressForm {
  name: string
  phone: string
  area: string
  address: string
  is_default: boolean
}

export type AddressField = 'name' | 'phone' | 'area' | 'address'

/** The limits the server enforces, checked before sending so a user sees the problem at once. */
export const LIMITS = ADDRESS_LIMITS

const CAP = { required: 'Required', invalid: 'Invalid', tooLong: 'TooLong' } as const

/** SPEC §5: each problem as the locale key of its message; empty when the form can be sent. */
export function validateAddress(f: AddressForm): Partial<Record<AddressField, string>> {
  const e: Partial<Record<AddressField, string>> = {}
  const name = checkText(f.name, LIMITS.name)
  if (name) e.name = `address.name${CAP[name]}`
  if (!f.phone.trim()) e.phone = 'address.phoneRequired'
  else if (!isValidPhone(f.phone)) e.phone = 'address.phoneInvalid'
  const area = checkText(f.area, LIMITS.area)
  if (area) e.area = `address.area${CAP[area]}`
  const detail = checkText(f.address, LIMITS.address)
  if (detail) e.address = `address.detail${CAP[detail]}`
  return e
}

export function trimmed(f: AddressForm): AddressForm {
  return { name: trimText(f.name), phone: f.phone.trim(), area: trimText(f.area), address: trimText(f.address), is_default: f.is_default }
}
