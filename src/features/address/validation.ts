import { ADDRESS_LIMITS, isValidPhone, textLength } from '../../../contract/addressRules.ts'

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

/** SPEC §5: each problem as the locale key of its message; empty when the form can be sent. */
export function validateAddress(f: AddressForm): Partial<Record<AddressField, string>> {
  const e: Partial<Record<AddressField, string>> = {}
  const name = f.name.trim()
  if (!name) e.name = 'address.nameRequired'
  else if (textLength(name) > LIMITS.name) e.name = 'address.nameTooLong'
  if (!f.phone.trim()) e.phone = 'address.phoneRequired'
  else if (!isValidPhone(f.phone)) e.phone = 'address.phoneInvalid'
  const area = f.area.trim()
  if (!area) e.area = 'address.areaRequired'
  else if (textLength(area) > LIMITS.area) e.area = 'address.areaTooLong'
  const detail = f.address.trim()
  if (!detail) e.address = 'address.detailRequired'
  else if (textLength(detail) > LIMITS.address) e.address = 'address.detailTooLong'
  return e
}

export function trimmed(f: AddressForm): AddressForm {
  return { name: f.name.trim(), phone: f.phone.trim(), area: f.area.trim(), address: f.address.trim(), is_default: f.is_default }
}
