import { Type, type Static } from 'typebox'
import { Millis } from './envelope.ts'
import { UPLOAD_KEY_MAX, UPLOAD_KEY_PATTERN, UPLOAD_TYPE_LIST, type UploadPurpose } from './uploadRules.ts'

export * from './uploadRules.ts'

// Uploads (DESIGN §10): `common/generateR2PresignedUrl` answers a short-lived URL the app PUTs one
// file to, bound to the caller, one key, one size and one content type. The file is then named by its
// key in the request that uses it (car/apply). Which store is behind the URL (the server's data folder
// or an S3-compatible bucket) is the server's business: the app PUTs to `url` with `headers`.

export const UploadKey = Type.String({ pattern: UPLOAD_KEY_PATTERN, maxLength: UPLOAD_KEY_MAX, description: 'An upload key as answered by common/generateR2PresignedUrl' })

export const PresignBody = Type.Object({
  purpose: Type.Literal('car_apply' satisfies UploadPurpose, { description: 'What the file is for: car_apply (a car application document)' }),
  content_type: Type.String({ maxLength: 100, description: `One of ${UPLOAD_TYPE_LIST.join(', ')}` }),
  size: Type.Integer({ description: 'The file size in bytes, from 1 to the configured maximum (5 MiB unless NADI_UPLOAD_MAX_BYTES says otherwise)' }),
})
export type PresignBody = Static<typeof PresignBody>

export const PresignedUpload = Type.Object({
  /** Where to PUT the file: this server's /api/v1/upload/<token>, or the bucket's presigned URL. */
  url: Type.String(),
  method: Type.Literal('PUT'),
  /** Headers the PUT must carry as given (the content type is part of the signature). Content-Length is the file's size. */
  headers: Type.Object({ 'content-type': Type.String() }),
  key: UploadKey,
  /** After this the URL is refused (unix ms). */
  expires_at: Millis,
})
export type PresignedUpload = Static<typeof PresignedUpload>

export const UploadFileQuery = Type.Object({ key: UploadKey })
export type UploadFileQuery = Static<typeof UploadFileQuery>

/** What the local store's PUT answers once the file is stored. */
export const UploadDone = Type.Object({ key: UploadKey, size: Type.Integer(), content_type: Type.String() })
export type UploadDone = Static<typeof UploadDone>
