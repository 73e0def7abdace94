// Car applications (SPEC §2 /apply, §7 car/apply; issue 10 part 5). A user applies for a car of the
// car shop with their details and documents (upload keys from common/generateR2PresignedUrl); the
// application is submitted → reviewing → approved | rejected, moved by an operator (`server/cli.ts car …`).
// Every refusal happens before the one transaction that writes, or rolls it back: a refused request
// changes nothing, and a file becomes part of one application at most.
import type { LangCode } from '../../../contract/constants.ts'
import { ADDRESS_LIMITS } from '../../../contract/addressRules.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import {
  CAR_APPLY_LIMITS as L,
  CAR_DOCUMENTS,
  OPEN_STATUSES,
  checkCarApply,
  cleanCarApply,
  maskIdNumber,
  type CarApplication,
  type CarApplyBody,
  type CarApplyField,
  type CarApplyStatus,
} from '../../../contract/car.ts'
import { checkText, trimText } from '../../../contract/addressRules.ts'
import type { Ctx } from '../../context.ts'
import type { Connection } from '../../db/index.ts'
import { statement, statements } from '../../db/query/types.ts'
import { badRequest, conflict, notFound, type ApiError } from '../../http/errors.ts'
import { pickText } from '../goods/rules.ts'
import { documentLabel, type UploadService } from '../upload/service.ts'
import { answerKeyedAs } from '../../db/keyedEffect.ts'
import { lockUser } from '../user/lock.ts'

export interface CarApplicationRow {
  id: bigint
  user_id: bigint
  goods_id: bigint
  goods_name: string
  cover: string
  name: string
  phone: string
  id_number: string
  city: string
  remark: string
  id_front: string
  id_back: string | null
  driver_licence: string
  status: CarApplyStatus
  reason: string | null
  created_at: bigint
  updated_at: bigint
  reviewed_at: bigint | null
  decided_at: bigint | null
}

const S = statements({
  car: statement<{ id: bigint; name: string; cover: string }, [goodsId: number]>(`SELECT p.id, p.name, p.cover FROM products p WHERE p.id = ? AND p.area = 'car' AND p.active = 1
          AND EXISTS (SELECT 1 FROM product_specs x WHERE x.product_id = p.id AND x.active = 1)`),
  openOf: statement<{ n: bigint }, [userId: number]>("SELECT count(*) AS n FROM car_applications WHERE user_id = ? AND status IN ('submitted', 'reviewing')"),
  insert: statement<CarApplicationRow, [Omit<ReturnType<typeof cleanCarApply>, 'goods_id'> & { user_id: number; goods_id: bigint; goods_name: string; cover: string; now: number }]>(
    `INSERT INTO car_applications (user_id, goods_id, goods_name, cover, name, phone, id_number, city, remark, id_front, id_back, driver_licence, created_at, updated_at)
           VALUES (@user_id, @goods_id, @goods_name, @cover, @name, @phone, @id_number, @city, @remark, @id_front, @id_back, @driver_licence, @now, @now) RETURNING *`,
  ),
  get: statement<CarApplicationRow, [id: number]>('SELECT * FROM car_applications WHERE id = ?'),
  review: statement<CarApplicationRow, [{ now: number; id: number }]>(
    "UPDATE car_applications SET status = 'reviewing', reviewed_at = @now, updated_at = @now WHERE id = @id AND status = 'submitted' RETURNING *",
  ),
  approve: statement<CarApplicationRow, [{ now: number; id: number }]>(
    "UPDATE car_applications SET status = 'approved', reviewed_at = coalesce(reviewed_at, @now), decided_at = @now, updated_at = @now WHERE id = @id AND status IN ('submitted', 'reviewing') RETURNING *",
  ),
  reject: statement<CarApplicationRow, [{ now: number; id: number; reason: string | undefined }]>(
    "UPDATE car_applications SET status = 'rejected', reason = @reason, reviewed_at = coalesce(reviewed_at, @now), decided_at = @now, updated_at = @now WHERE id = @id AND status IN ('submitted', 'reviewing') RETURNING *",
  ),
})

/** The first problem of a body in the order of the form, as the error a user reads. */
const PROBLEM_ORDER: CarApplyField[] = ['goods_id', 'name', 'phone', 'id_number', 'city', ...CAR_DOCUMENTS, 'remark']

export function problemError(field: CarApplyField, problem: 'required' | 'invalid' | 'tooLong' | 'repeated', lang: LangCode): ApiError {
  switch (field) {
    case 'goods_id':
      return badRequest('errors.carRequired')
    case 'name':
      return problem === 'required' ? badRequest('errors.applicantNameRequired') : problem === 'tooLong' ? badRequest('errors.applicantNameTooLong', { max: L.name }) : badRequest('errors.applicantNameInvalid')
    case 'phone':
      return badRequest('errors.phoneInvalid', { min: ADDRESS_LIMITS.phoneDigitsMin, max: ADDRESS_LIMITS.phoneDigitsMax })
    case 'id_number':
      return problem === 'required' ? badRequest('errors.idNumberRequired') : badRequest('errors.idNumberInvalid', { min: L.idNumberMin, max: L.idNumberMax })
    case 'city':
      return problem === 'required' ? badRequest('errors.cityRequired') : problem === 'tooLong' ? badRequest('errors.cityTooLong', { max: L.city }) : badRequest('errors.cityInvalid')
    case 'remark':
      return problem === 'tooLong' ? badRequest('errors.remarkTooLong', { max: L.remark }) : badRequest('errors.remarkInvalid')
    default:
      return badRequest(problem === 'repeated' ? 'errors.documentRepeated' : 'errors.documentRequired', { document: documentLabel(lang, field) })
  }
}

export function toWire(r: CarApplicationRow, lang: LangCode): CarApplication {
  return {
    id: Number(r.id),
    goods_id: Number(r.goods_id),
    goods_name: pickText(r.goods_name, lang),
    cover: r.cover,
    name: r.name,
    phone: r.phone,
    id_number: maskIdNumber(r.id_number),
    city: r.city,
    remark: r.remark,
    documents: { id_front: r.id_front, id_back: r.id_back, driver_licence: r.driver_licence },
    status: r.status,
    reason: r.reason,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }
}

export type CarApplyService = ReturnType<typeof createCarApplyService>

export function createCarApplyService(ctx: Ctx, uploads: UploadService) {
  const max = ctx.config.carApply.maxOpen

  return {
    /** Submits an application: every rule checked, the documents' files verified, then one transaction. */
    async apply(userId: number, lang: LangCode, body: CarApplyBody): Promise<CarApplication> {
      const problems = checkCarApply(body)
      for (const f of PROBLEM_ORDER) {
        const p = problems[f]
        if (p) throw problemError(f, p, lang)
      }
      const a = cleanCarApply(body)
      const car = await ctx.sql.get(S.car, body.goods_id)
      if (!car) throw notFound('errors.goodsNotFound')
      if (Number((await ctx.sql.get(S.openOf, userId))!.n) >= max) throw conflict('errors.carApplyLimit', { max })

      const docs = CAR_DOCUMENTS.flatMap((d) => {
        const key = a[d]
        return key ? [{ key, label: documentLabel(lang, d), doc: d }] : []
      })
      const checked = await uploads.check(userId, 'car_apply', docs)
      answerKeyedAs((inserted: Parameters<typeof toWire>[0]) => toWire(inserted, lang))
      const row = await ctx.sql.transaction(async (tx) => {
        // Again inside the transaction, the user's row held: another request of the same user may have
        // landed meanwhile, or be counting beside this one on another connection.
        await lockUser(tx, userId)
        if (Number((await tx.get(S.openOf, userId))!.n) >= max) throw conflict('errors.carApplyLimit', { max })
        const now = ctx.now()
        const inserted = (await tx.get(S.insert, { user_id: userId, goods_id: car.id, goods_name: car.name, cover: car.cover, ...a, now }))!
        await uploads.use(tx, userId, 'car_apply', inserted.id, checked, now)
        return inserted
      })
      return toWire(row, lang)
    },

    /** The caller's applications, newest first, optionally of one status. */
    async list(userId: number, lang: LangCode, q: { page: number; pageSize: number; status?: CarApplyStatus | undefined }): Promise<PagedList<CarApplication>> {
      const where = q.status ? 'user_id = ? AND status = ?' : 'user_id = ?'
      const args: (number | string)[] = q.status ? [userId, q.status] : [userId]
      // One of two texts, by whether a status is asked for; typed here, where each is written.
      const { n } = (await ctx.sql.get(statement<{ n: bigint }>(`SELECT count(*) AS n FROM car_applications WHERE ${where}`), ...args))!
      const rows = await ctx.sql.all(statement<CarApplicationRow>(`SELECT * FROM car_applications WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`), ...args, q.pageSize, (q.page - 1) * q.pageSize)
      return { total: Number(n), list: rows.map((r) => toWire(r, lang)) }
    },
  }
}

// ── The operator's side (server/cli.ts car …) ───────────────────────────────────────────────────

/** An operator's move the application's state does not allow (or an unknown id); the message says why. */
export class CarApplyRefused extends Error {
  override name = 'CarApplyRefused'
}

export const REASON_MAX = 200

export function applicationsIn(conn: Pick<Connection, 'sql'>, statuses: readonly CarApplyStatus[], limit = 10_000): Promise<CarApplicationRow[]> {
  const marks = statuses.map(() => '?').join(', ')
  // One text per number of statuses asked for; typed here, where it is written.
  return conn.sql.all(statement<CarApplicationRow>(`SELECT * FROM car_applications WHERE status IN (${marks}) ORDER BY id LIMIT ?`), ...statuses, limit)
}

function move(conn: Pick<Connection, 'sql'>, id: number, now: number, step: 'review' | 'approve' | 'reject', reason?: string): Promise<CarApplicationRow> {
  return conn.sql.transaction(async (tx) => {
    const row = step === 'reject' ? await tx.get(S.reject, { now, id, reason }) : await tx.get(S[step], { now, id })
    if (row) return row
    const current = await tx.get(S.get, id)
    if (!current) throw new CarApplyRefused(`no car application #${id}`)
    const from = step === 'review' ? 'submitted' : `${OPEN_STATUSES.join(' or ')}`
    throw new CarApplyRefused(`car application #${id} is ${current.status}, not ${from}`)
  })
}

/** submitted → reviewing: an operator has taken it up. */
export const reviewApplication = (conn: Pick<Connection, 'sql'>, id: number, now = Date.now()) => move(conn, id, now, 'review')
/** submitted | reviewing → approved. */
export const approveApplication = (conn: Pick<Connection, 'sql'>, id: number, now = Date.now()) => move(conn, id, now, 'approve')
/** submitted | reviewing → rejected, with the reason the applicant reads (one line, at most REASON_MAX characters). */
export function rejectApplication(conn: Pick<Connection, 'sql'>, id: number, reason: string, now = Date.now()): Promise<CarApplicationRow> {
  const problem = checkText(reason, REASON_MAX)
  if (problem === 'required') return Promise.reject(new CarApplyRefused('a rejection needs a reason the applicant can read'))
  if (problem === 'tooLong') return Promise.reject(new CarApplyRefused(`the reason is at most ${REASON_MAX} characters`))
  if (problem) return Promise.reject(new CarApplyRefused('the reason is one line without control characters'))
  return move(conn, id, now, 'reject', trimText(reason))
}

