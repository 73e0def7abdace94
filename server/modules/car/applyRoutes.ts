import type { FastifyError, FastifyRequest } from 'fastify'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import { CAR_DOCUMENTS, CarApplication, CarApplyBody, CarApplyListQuery, type CarApplyField } from '../../../contract/car.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { translate } from '../../i18n.ts'
import { problemError, type CarApplyService } from './apply.ts'

const uid = (req: FastifyRequest) => req.user!.id

// A field left out says what to fill in, in the same words as a blank one.
const REQUIRED = new Set<string>(['goods_id', 'name', 'phone', 'id_number', 'city', ...CAR_DOCUMENTS])
// Free text whose length the form limits (contract/carApplyRules.ts CAR_APPLY_LIMITS).
const TEXT_FIELDS = new Set<string>(['name', 'city', 'remark'])
// fields.name would read as the sign-in body's "name"; the applicant's is its own label.
const LABEL: Record<string, string> = { name: 'fields.applicantName' }

/** Body errors of the application form in the words of the form; the rest goes on to the app's handler. */
function applyFormErrors(err: FastifyError, req: FastifyRequest): never {
  const v = err.validation?.[0]
  if (v && err.validationContext === 'body') {
    const missing = (v.params as { missingProperty?: string }).missingProperty
    if (v.keyword === 'required' && v.instancePath === '' && missing && REQUIRED.has(missing)) throw problemError(missing as CarApplyField, 'required', req.lang)
    const field = v.instancePath.replace(/^\//, '')
    // The schema's bound is a cheap outer one (4× the limit); past it the text is too long all the same.
    if (v.keyword === 'maxLength' && TEXT_FIELDS.has(field)) throw problemError(field as CarApplyField, 'tooLong', req.lang)
    if (field && !field.includes('/')) throw badRequest('errors.invalidField', { field: translate(req.lang, LABEL[field] ?? `fields.${field}`) })
  }
  throw err
}

/** car/apply and car/applyList (the car shop's catalog and releases are in ./routes.ts). */
export function carApplyRoutes(app: App, applications: CarApplyService) {
  const tags = ['car']
  app.post(
    '/api/v1/car/apply',
    {
      preHandler: requireAuth,
      errorHandler: applyFormErrors,
      schema: {
        tags,
        summary: 'Apply for a car: the applicant’s details and documents (upload keys of the caller, purpose car_apply, each used once); 409 with too many applications waiting',
        body: CarApplyBody,
        response: { 200: Envelope(CarApplication) },
      },
    },
    async (req) => ok(req, await applications.apply(uid(req), req.lang, req.body)),
  )
  app.get(
    '/api/v1/car/applyList',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'The caller’s car applications, newest first, with their status and the reason of a rejection', querystring: CarApplyListQuery, response: { 200: Envelope(Paged(CarApplication)) } },
    },
    async (req) => ok(req, await applications.list(uid(req), req.lang, { page: req.query.page ?? 1, pageSize: req.query.page_size ?? PAGE_SIZE_DEFAULT, status: req.query.status })),
  )
}
