import type { FastifyError, FastifyRequest } from 'fastify'
import { Envelope } from '../../../contract/envelope.ts'
import { PresignBody, PresignedUpload, UploadDone, UploadFileQuery } from '../../../contract/upload.ts'
import { requireAuth } from '../../http/auth.ts'
import { badRequest } from '../../http/errors.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { translate } from '../../i18n.ts'
import type { UploadService } from './service.ts'

/** requireAuth guarantees a user. */
const uid = (req: FastifyRequest) => req.user!.id

// fields.size reads "amount" (the trade form's field): the presign body's size is the file's.
function presignErrors(err: FastifyError, req: FastifyRequest): never {
  const v = err.validation?.[0]
  if (v && err.validationContext === 'body') {
    const missing = (v.params as { missingProperty?: string }).missingProperty
    const field = v.keyword === 'required' && missing ? missing : v.instancePath.replace(/^\//, '')
    if (field === 'size') throw badRequest('errors.invalidField', { field: translate(req.lang, 'fields.fileSize') })
  }
  throw err
}

/**
 * Uploads (DESIGN §10): the presigned URL, the local store's PUT behind it, and the owner's read-back.
 * `publicUrl` is the configured public origin, else the request's (the local URL is absolute).
 */
export function uploadRoutes(app: App, uploads: UploadService, publicUrl: string | null) {
  const tags = ['upload']

  app.post(
    '/api/v1/common/generateR2PresignedUrl',
    {
      preHandler: requireAuth,
      errorHandler: presignErrors,
      schema: {
        tags,
        summary: 'A short-lived URL to PUT one file to (one key under the caller’s prefix, this size and content type, once); the key then names the file in car/apply',
        body: PresignBody,
        response: { 200: Envelope(PresignedUpload) },
      },
    },
    async (req) => ok(req, await uploads.presign(uid(req), req.body, publicUrl ?? `${req.protocol}://${req.host}`)),
  )

  app.get(
    '/api/v1/common/uploadFile',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'One of the caller’s uploaded files, as stored (only its owner can read it)', querystring: UploadFileQuery },
    },
    async (req, reply) => {
      const file = await uploads.open(uid(req), req.query.key)
      reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'private, no-store')
      return reply.send(file.body)
    },
  )

  // The local store's PUT. The body is the file itself, in any content type: this scope reads the raw
  // request stream (no parser), and the handler checks type and length against the signed URL.
  if (uploads.store.kind !== 'local') return
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null))
    scope.put<{ Params: { '*': string }; Querystring: { expires?: string; signature?: string } }>(
      '/api/v1/upload/*',
      {
        schema: {
          tags,
          summary: 'The local store: PUT the file to the URL common/generateR2PresignedUrl answered (its key, expiry and signature), with its content type; once',
          response: { 200: Envelope(UploadDone) },
        },
      },
      async (req, reply) => {
        try {
          return ok(req, await uploads.receive(req.params['*'], req.query, req.raw))
        } catch (err) {
          // Refused before the body was read: let it drain (bounded by the signed size) so the client reads the answer.
          if (!req.raw.readableEnded) {
            reply.header('connection', 'close')
            req.raw.resume()
          }
          throw err
        }
      },
    )
  })
}
