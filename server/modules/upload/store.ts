// Where uploaded files live (DESIGN §10): the data folder, behind this server's own PUT URL (default),
// or an S3-compatible bucket (R2, S3, MinIO) through the AWS SDK, the browser PUTting straight to it.
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { GetObjectCommand, HeadObjectCommand, DeleteObjectCommand, PutObjectCommand, S3Client, NotFound } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { S3Settings } from '../../config.ts'
import { SIGNATURE_BYTES, matchesSignature, type UploadType } from '../../../contract/uploadRules.ts'
import { grantPath, type UploadGrant } from './token.ts'

export interface Presigned {
  url: string
  headers: { 'content-type': string }
}

/** What a request that uses a file found where the file should be. */
export type Found = { ok: true; etag: string | null } | { ok: false; problem: 'missing' | 'mismatch' }

export interface StoredFile {
  body: Readable
  size: number
}

export interface UploadStore {
  readonly kind: 'local' | 's3'
  /** The origin the browser PUTs to when it is not the app's own (for the CSP's connect-src); null for the local store. */
  readonly origin: string | null
  presign(g: UploadGrant, requestOrigin: string): Promise<Presigned>
  /** Whether the file of a grant is there, of the size and content type it was granted with (and, where it can be read, starts like that type). */
  check(g: UploadGrant): Promise<Found>
  open(key: string): Promise<StoredFile | null>
  remove(key: string): Promise<void>
}

// ── The data folder ─────────────────────────────────────────────────────────────────────────────

export interface LocalStore extends UploadStore {
  readonly kind: 'local'
  /** Where a key's file lives (keys are checked against UPLOAD_KEY_PATTERN before they get here). */
  pathOf(key: string): string
  /** A fresh file for an upload in progress, on the same file system as the files (rename is atomic). */
  tempPath(): string
}

export function localStore(dir: string, secret: () => string): LocalStore {
  const tmp = path.join(dir, '.tmp')
  const pathOf = (key: string) => {
    const p = path.resolve(dir, key)
    if (!p.startsWith(dir + path.sep)) throw new Error(`upload key outside the store: ${key}`)
    return p
  }
  return {
    kind: 'local',
    origin: null,
    pathOf,
    tempPath() {
      fs.mkdirSync(tmp, { recursive: true })
      return path.join(tmp, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`)
    },
    async presign(g, requestOrigin) {
      return { url: `${requestOrigin}${grantPath(secret(), g)}`, headers: { 'content-type': g.contentType } }
    },
    async check(g) {
      let st: fs.Stats
      try {
        st = await fs.promises.stat(pathOf(g.key))
      } catch {
        return { ok: false, problem: 'missing' }
      }
      return st.size === g.size ? { ok: true, etag: null } : { ok: false, problem: 'mismatch' }
    },
    async open(key) {
      try {
        const p = pathOf(key)
        const st = await fs.promises.stat(p)
        return { body: fs.createReadStream(p), size: st.size }
      } catch {
        return null
      }
    },
    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true })
    },
  }
}

// ── An S3-compatible bucket ─────────────────────────────────────────────────────────────────────

export interface S3Store extends UploadStore {
  readonly kind: 's3'
  readonly client: S3Client
}

export async function s3Store(s: S3Settings, ttlMs: number): Promise<S3Store> {
  const client = new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey.reveal() } } : {}),
    // Checksums only where S3 requires them: a presigned PUT must not carry the checksum of an empty body.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const expiresIn = Math.max(1, Math.ceil(ttlMs / 1000))
  const presign = async (g: Pick<UploadGrant, 'key' | 'size' | 'contentType'>): Promise<Presigned> => {
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: s.bucket, Key: g.key, ContentType: g.contentType, ContentLength: g.size }), {
      expiresIn,
      // Signed, so the bucket refuses a PUT of another type or size than granted.
      signableHeaders: new Set(['content-type', 'content-length']),
    })
    return { url, headers: { 'content-type': g.contentType } }
  }
  // Signing is local (no request): a URL for a made-up key gives the origin the browser will PUT to.
  const origin = new URL((await presign({ key: 'u/1/car_apply/origin.png', size: 1, contentType: 'image/png' })).url).origin
  return {
    kind: 's3',
    origin,
    client,
    presign: (g) => presign(g),
    async check(g) {
      let head
      try {
        head = await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key: g.key }))
      } catch (err) {
        if (err instanceof NotFound || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return { ok: false, problem: 'missing' }
        throw err
      }
      const type = (head.ContentType ?? '').split(';')[0]!.trim().toLowerCase()
      if (head.ContentLength !== g.size || type !== g.contentType) return { ok: false, problem: 'mismatch' }
      // The first bytes, as the local store checks them while they arrive.
      const first = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: g.key, Range: `bytes=0-${SIGNATURE_BYTES - 1}` }))
      const head12 = first.Body ? await first.Body.transformToByteArray() : new Uint8Array()
      if (!matchesSignature(g.contentType as UploadType, head12)) return { ok: false, problem: 'mismatch' }
      return { ok: true, etag: head.ETag ?? null }
    },
    async open(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key: key }))
        return r.Body ? { body: r.Body as Readable, size: Number(r.ContentLength ?? 0) } : null
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null
        throw err
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: key }))
    },
  }
}
