// The car application form's rules: the server's own (contract/carApplyRules.ts), each problem as the
// locale key the server answers with, so a user reads the same words before sending and after. Pure.
import { ADDRESS_LIMITS } from '../../../contract/addressRules.ts'
import { CAR_APPLY_LIMITS, CAR_DOCUMENTS, checkCarApply, type CarApplyField, type CarDocument } from '../../../contract/carApplyRules.ts'
import type { CarApplyBody } from '../../../contract/car.ts'
import type { TextProblem } from '../../../contract/addressRules.ts'

export const LIMITS = CAR_APPLY_LIMITS
export { CAR_DOCUMENTS }
export type { CarApplyField, CarDocument }

/** The form as typed; a document holds the key of its uploaded file, '' until one is. */
export interface ApplyForm {
  goodsId: number | null
  name: string
  phone: string
  idNumber: string
  city: string
  remark: string
  documents: Record<CarDocument, string>
}

export const EMPTY_FORM: ApplyForm = { goodsId: null, name: '', phone: '', idNumber: '', city: '', remark: '', documents: { id_front: '', id_back: '', driver_licence: '' } }

/** A message to show: a locale key and its parameters. */
export interface Problem {
  key: string
  params?: Record<string, string | number>
}

/** The body car/apply takes (the server trims and normalizes again). */
export function applyBody(f: ApplyForm): CarApplyBody {
  const remark = f.remark.trim()
  return {
    goods_id: f.goodsId ?? 0,
    name: f.name.trim(),
    phone: f.phone.trim(),
    id_number: f.idNumber.trim(),
    city: f.city.trim(),
    id_front: f.documents.id_front,
    ...(f.documents.id_back ? { id_back: f.documents.id_back } : {}),
    driver_licence: f.documents.driver_licence,
    ...(remark ? { remark } : {}),
  }
}

type Code = TextProblem | 'repeated'

/** The message of one problem, as the server words it (server/modules/car/apply.ts problemError). */
function problemOf(field: CarApplyField, code: Code, documentName: (d: CarDocument) => string): Problem {
  switch (field) {
    case 'goods_id':
      return { key: 'errors.carRequired' }
    case 'name':
      return code === 'required' ? { key: 'errors.applicantNameRequired' } : code === 'tooLong' ? { key: 'errors.applicantNameTooLong', params: { max: LIMITS.name } } : { key: 'errors.applicantNameInvalid' }
    case 'phone':
      return { key: 'errors.phoneInvalid', params: { min: ADDRESS_LIMITS.phoneDigitsMin, max: ADDRESS_LIMITS.phoneDigitsMax } }
    case 'id_number':
      return code === 'required' ? { key: 'errors.idNumberRequired' } : { key: 'errors.idNumberInvalid', params: { min: LIMITS.idNumberMin, max: LIMITS.idNumberMax } }
    case 'city':
      return code === 'required' ? { key: 'errors.cityRequired' } : code === 'tooLong' ? { key: 'errors.cityTooLong', params: { max: LIMITS.city } } : { key: 'errors.cityInvalid' }
    case 'remark':
      return code === 'tooLong' ? { key: 'errors.remarkTooLong', params: { max: LIMITS.remark } } : { key: 'errors.remarkInvalid' }
    default:
      return { key: code === 'repeated' ? 'errors.documentRepeated' : 'errors.documentRequired', params: { document: documentName(field) } }
  }
}

/** Every problem of the form by field; empty when it may be sent. `documentName` names a document in the user's words. */
export function validateApply(f: ApplyForm, documentName: (d: CarDocument) => string): Partial<Record<CarApplyField, Problem>> {
  const found = checkCarApply(applyBody(f))
  const out: Partial<Record<CarApplyField, Problem>> = {}
  for (const [field, code] of Object.entries(found) as [CarApplyField, Code][]) out[field] = problemOf(field, code, documentName)
  return out
}
