import path from 'node:path'
import { Secret, envFlag, envHttpUrl, envInt, envString, type Env } from '../../settings.ts'

/** Uploads (DESIGN §10): presigned PUT URLs to the data folder (default) or an S3-compatible bucket. */
export interface UploadSettings {
  /** NADI_UPLOAD_MAX_BYTES (5 MiB): the largest file a URL is signed for. */
  maxBytes: number
  /** NADI_UPLOAD_URL_TTL_MS (10 min): how long an upload URL works. */
  urlTtlMs: number
  /** Where the local store keeps files: NADI_UPLOAD_DIR, default <NADI_DATA_DIR>/uploads. */
  dir: string
  /** NADI_UPLOAD_SECRET: the key local upload URLs are signed with; unset, one is made once and kept in the database. */
  secret: Secret | null
  /** NADI_UPLOAD_OPEN_MAX (20): upload URLs one user may hold not yet used and not expired. */
  openPerUser: number
  /** NADI_UPLOAD_KEEP_UNUSED_HOURS (72): an uploaded file no application took is deleted after this long. */
  keepUnusedMs: number
  /** An S3-compatible bucket (R2, S3, MinIO) instead of the data folder: set when NADI_UPLOAD_S3_BUCKET is. */
  s3: S3Settings | null
}

export interface S3Settings {
  /** NADI_UPLOAD_S3_ENDPOINT: e.g. https://<account>.r2.cloudflarestorage.com; unset = AWS S3 of the region. */
  endpoint: string | null
  bucket: string
  /** NADI_UPLOAD_S3_REGION ('auto' with an endpoint, as R2 wants; else us-east-1). */
  region: string
  /** NADI_UPLOAD_S3_ACCESS_KEY_ID / NADI_UPLOAD_S3_SECRET_ACCESS_KEY; unset = the SDK's default credential chain. */
  accessKeyId: string | null
  secretAccessKey: Secret | null
  /** NADI_UPLOAD_S3_FORCE_PATH_STYLE (1 with an endpoint): <endpoint>/<bucket>/<key> rather than <bucket>.<host>. */
  forcePathStyle: boolean
}

/** `dataDir` is where a relative NADI_UPLOAD_DIR is taken from. */
export function readUploadSettings(env: Env, dataDir: string): UploadSettings {
  const bucket = env.NADI_UPLOAD_S3_BUCKET?.trim() || null
  const endpoint = envHttpUrl(env, 'NADI_UPLOAD_S3_ENDPOINT')
  if (endpoint && !bucket) throw new Error('NADI_UPLOAD_S3_ENDPOINT is set but NADI_UPLOAD_S3_BUCKET is not')
  const keyId = env.NADI_UPLOAD_S3_ACCESS_KEY_ID?.trim() || null
  const secretKey = env.NADI_UPLOAD_S3_SECRET_ACCESS_KEY?.trim() || null
  if ((keyId === null) !== (secretKey === null)) throw new Error('Set both NADI_UPLOAD_S3_ACCESS_KEY_ID and NADI_UPLOAD_S3_SECRET_ACCESS_KEY, or neither')
  const secret = env.NADI_UPLOAD_SECRET?.trim() || null
  if (secret !== null && secret.length < 32) throw new Error('NADI_UPLOAD_SECRET must be at least 32 characters')
  return {
    maxBytes: envInt(env, 'NADI_UPLOAD_MAX_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    urlTtlMs: envInt(env, 'NADI_UPLOAD_URL_TTL_MS', 10 * 60_000, 10_000, 7 * 24 * 3600_000),
    dir: path.resolve(dataDir, envString(env, 'NADI_UPLOAD_DIR', 'uploads')),
    secret: secret === null ? null : new Secret(secret, 'NADI_UPLOAD_SECRET'),
    openPerUser: envInt(env, 'NADI_UPLOAD_OPEN_MAX', 20, 1, 1000),
    keepUnusedMs: envInt(env, 'NADI_UPLOAD_KEEP_UNUSED_HOURS', 72, 1) * 3600_000,
    s3: bucket
      ? {
          endpoint,
          bucket,
          region: envString(env, 'NADI_UPLOAD_S3_REGION', endpoint ? 'auto' : 'us-east-1'),
          accessKeyId: keyId,
          secretAccessKey: secretKey === null ? null : new Secret(secretKey, 'NADI_UPLOAD_S3_SECRET_ACCESS_KEY'),
          forcePathStyle: envFlag(env, 'NADI_UPLOAD_S3_FORCE_PATH_STYLE', endpoint ? '1' : '0'),
        }
      : null,
  }
}
