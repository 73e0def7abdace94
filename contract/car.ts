import { Type, type Static } from 'typebox'
import { Millis } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'
import { UploadKey } from './upload.ts'
import { CAR_APPLY_LIMITS as L, type CAR_APPLY_STATUSES } from './carApplyRules.ts'

export * from './carApplyRules.ts'

// The car application (SPEC §2 /apply, §7 car/apply; issue 10 part 5). The applicant picks a car of
// the car shop, gives their details and the documents uploaded through common/generateR2PresignedUrl
// (ID front, optional ID back, driver licence); an operator moves the application
// submitted → reviewing → approved | rejected with `server/cli.ts car …`. The car list and detail are
// the shop's (car/goodsList, car/goodsDetail in contract/goods.ts).

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })

// Bodies carry types only; the rules (required after trimming, lengths, phone and ID formats, whose
// upload a key is) are the server's, so each failure says what is wrong in the user's words.
export const CarApplyBody = Type.Object({
  /** A car of the car shop (car/goodsList). */
  goods_id: Id,
  /** The applicant's full name. */
  name: Type.String({ maxLength: 4 * L.name, description: `1–${L.name} characters after trimming` }),
  phone: Type.String({ maxLength: 100, description: 'An optional + and 6–20 digits; spaces, dashes, dots and brackets are ignored' }),
  id_number: Type.String({ maxLength: 100, description: `ID card or passport number: ${L.idNumberMin}–${L.idNumberMax} letters and digits (spaces and dashes ignored)` }),
  city: Type.String({ maxLength: 4 * L.city, description: `1–${L.city} characters after trimming` }),
  id_front: UploadKey,
  id_back: Type.Optional(UploadKey),
  driver_licence: UploadKey,
  remark: Type.Optional(Type.String({ maxLength: 4 * L.remark, description: `Optional, at most ${L.remark} characters` })),
})
export type CarApplyBody = Static<typeof CarApplyBody>

export const CarApplyStatus = Type.Union([Type.Literal('submitted'), Type.Literal('reviewing'), Type.Literal('approved'), Type.Literal('rejected')])
export type CarApplyStatus = Static<typeof CarApplyStatus>
// The schema and the rules name the same states.
true satisfies CarApplyStatus extends (typeof CAR_APPLY_STATUSES)[number] ? ((typeof CAR_APPLY_STATUSES)[number] extends CarApplyStatus ? true : false) : false

export const CarApplication = Type.Object({
  id: Type.Integer(),
  goods_id: Type.Integer(),
  /** The car's name in the request's language, as it was when applied for. */
  goods_name: Type.String(),
  cover: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  /** Masked: the first two and last two characters. */
  id_number: Type.String(),
  city: Type.String(),
  remark: Type.String(),
  /** The upload keys; common/uploadFile?key= answers each to its owner. */
  documents: Type.Object({ id_front: UploadKey, id_back: Type.Union([UploadKey, Type.Null()]), driver_licence: UploadKey }),
  status: CarApplyStatus,
  /** Why it was rejected; null otherwise. */
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Millis,
  updated_at: Millis,
})
export type CarApplication = Static<typeof CarApplication>

export const CarApplyListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  status: Type.Optional(CarApplyStatus),
})
export type CarApplyListQuery = Static<typeof CarApplyListQuery>
