// What the operator's content files (catalog, activities, notices, banners) say the same way: a key,
// texts in every interface language, an image, a moment. One definition, so a rule changed here holds
// for every file an operator loads.
import { Type } from 'typebox'
import { LANG_CODES } from '../../contract/constants.ts'

/** The key a file names a row by: loading the file again updates it. */
export const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' })
/** Every interface language, translated (SPEC §1). */
export const Texts = (max: number) =>
  Type.Object(Object.fromEntries(LANG_CODES.map((l) => [l, Type.String({ minLength: 1, maxLength: max })])) as Record<(typeof LANG_CODES)[number], ReturnType<typeof Type.String>>, {
    additionalProperties: false,
  })
/** A same-origin path (the app's CSP allows no other image host) or an https URL of the upload store. */
export const ImageUrl = Type.String({ pattern: '^(/[A-Za-z0-9._/-]{1,200}|https://[^\\s"<>]{1,300})$' })
/** An ISO 8601 instant with its offset, e.g. 2026-05-01T00:00:00Z or 2026-05-01T08:00:00+08:00. */
export const Instant = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})$' })

/** Unix ms of an ISO instant the schema let through, or null when the calendar has no such moment (Feb 30, 25:00). */
export function parseInstant(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text)
  if (!m) return null
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms))
  if (local.getUTCFullYear() !== y || local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d || local.getUTCHours() !== h || local.getUTCMinutes() !== mi || local.getUTCSeconds() !== s) return null
  const oh = Number(m[10] ?? 0)
  const om = Number(m[11] ?? 0)
  if (oh > 14 || om > 59) return null
  const offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000
  return local.getTime() - offset
}
