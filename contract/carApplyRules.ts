// The car application's rules (SPEC §2 /apply, issue 10 part 5), pure and shared: the app checks the
// form before sending (or queueing) it, the server enforces the same rules. Imports only other pure
// rules, so the app may import it by value.
import { checkText, isValidPhone, normalizePhone, trimText, type TextProblem } from './addressRules.ts'

export const CAR_APPLY_LIMITS = {
  /** The applicant's full name, as on the ID. */
  name: 40,
  /** ID card or passport number: letters and digits (dashes and spaces are ignored). */
  idNumberMin: 5,
  idNumberMax: 20,
  city: 60,
  remark: 200,
} as const

/** The documents an application carries, by body field; id_back is optional (a passport has one side). */
export const CAR_DOCUMENTS = ['id_front', 'id_back', 'driver_licence'] as const
export type CarDocument = (typeof CAR_DOCUMENTS)[number]
export const REQUIRED_DOCUMENTS: readonly CarDocument[] = ['id_front', 'driver_licence']

/** The application's states: submitted → reviewing → approved | rejected (an operator moves them). */
export const CAR_APPLY_STATUSES = ['submitted', 'reviewing', 'approved', 'rejected'] as const
export type CarApplyStatus = (typeof CAR_APPLY_STATUSES)[number]
/** Still waiting for an operator's decision. */
export const OPEN_STATUSES: readonly CarApplyStatus[] = ['submitted', 'reviewing']
export const isOpenStatus = (s: CarApplyStatus): boolean => OPEN_STATUSES.includes(s)

/** The ID number as kept: full-width folded, spaces and dashes removed, upper case (a tab or newline stays, and is refused). */
export function normalizeIdNumber(raw: string): string {
  return raw.normalize('NFKC').trim().replace(/[ -]/g, '').toUpperCase()
}

const ID_RE = new RegExp(`^[A-Z0-9]{${CAR_APPLY_LIMITS.idNumberMin},${CAR_APPLY_LIMITS.idNumberMax}}$`)
export const isValidIdNumber = (raw: string): boolean => ID_RE.test(normalizeIdNumber(raw))

/** The form as typed; document fields hold upload keys ('' when not chosen yet). */
export interface CarApplyInput {
  goods_id: number | null | undefined
  name: string
  phone: string
  id_number: string
  city: string
  id_front: string
  id_back?: string | undefined
  driver_licence: string
  remark?: string | undefined
}

export type CarApplyField = 'goods_id' | 'name' | 'phone' | 'id_number' | 'city' | 'remark' | CarDocument

/**
 * Every problem of the form by field, as a code: 'required', 'invalid', 'tooLong', or 'repeated'
 * (one file given for two documents). Empty when the form may be sent. The server answers the first
 * problem in the order of the fields; the app shows them all.
 */
export function checkCarApply(f: CarApplyInput): Partial<Record<CarApplyField, TextProblem | 'repeated'>> {
  const L = CAR_APPLY_LIMITS
  const e: Partial<Record<CarApplyField, TextProblem | 'repeated'>> = {}
  if (!(typeof f.goods_id === 'number' && Number.isSafeInteger(f.goods_id) && f.goods_id > 0)) e.goods_id = 'required'
  const name = checkText(f.name, L.name)
  if (name) e.name = name
  if (!f.phone.trim()) e.phone = 'required'
  else if (!isValidPhone(f.phone)) e.phone = 'invalid'
  if (!trimText(f.id_number)) e.id_number = 'required'
  else if (!isValidIdNumber(f.id_number)) e.id_number = 'invalid'
  const city = checkText(f.city, L.city)
  if (city) e.city = city
  const seen = new Set<string>()
  for (const d of CAR_DOCUMENTS) {
    const key = (f[d] ?? '').trim()
    if (!key) {
      if (REQUIRED_DOCUMENTS.includes(d)) e[d] = 'required'
      continue
    }
    if (seen.has(key)) e[d] = 'repeated'
    seen.add(key)
  }
  const remark = f.remark === undefined ? null : checkText(f.remark, L.remark)
  if (remark && remark !== 'required') e.remark = remark
  return e
}

/** The application as kept: trimmed text, the phone and ID number normalized, no empty optional parts. */
export function cleanCarApply(f: CarApplyInput): { name: string; phone: string; id_number: string; city: string; id_front: string; id_back: string | null; driver_licence: string; remark: string } {
  return {
    name: trimText(f.name),
    phone: normalizePhone(f.phone),
    id_number: normalizeIdNumber(f.id_number),
    city: trimText(f.city),
    id_front: f.id_front.trim(),
    id_back: f.id_back?.trim() || null,
    driver_licence: f.driver_licence.trim(),
    remark: f.remark === undefined ? '' : trimText(f.remark),
  }
}

/** An ID number shown in lists: the first two and last two characters, the rest masked. */
export function maskIdNumber(id: string): string {
  return id.length <= 4 ? id : `${id.slice(0, 2)}${'*'.repeat(id.length - 4)}${id.slice(-2)}`
}
