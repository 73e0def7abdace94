// Uploads (DESIGN §10 "Uploads"): `common/generateR2PresignedUrl` hands out a short-lived URL for one
// key under the caller's prefix, signed for one size and one content type, and records it in
// `uploads`. The local store receives the PUT itself (receive below: the signature, the expiry, the
// type, the size, the first bytes, and once only); an S3 bucket receives it directly and the file is
// checked when a request uses it (claim). A file is part of one application at most, and only its
// owner can read it back.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { IncomingMessage } from 'node:http'
import { CODE, type LangCode } from '../../../contract/constants.ts'
import type { PresignBody, PresignedUpload, UploadDone } from '../../../contract/upload.ts'
import { SIGNATURE_BYTES, UPLOAD_KEY_PATTERN, UPLOAD_TYPES, checkUpload, matchesSignature, megabytes, type UploadPurpose, type UploadType } from '../../../contract/uploadRules.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { ApiError, badRequest, conflict, notFound } from '../../http/errors.ts'
import { translate } from '../../i18n.ts'
import { localStore, s3Store, type LocalStore, type UploadStore } from './store.ts'
import { verifyGrant, type UploadGrant } from './token.ts'
import { lockUser } from '../user/lock.ts'

export interface UploadRow {
  key: string
  user_id: bigint
  purpose: string
  content_type: UploadType
  size: bigint
  store: 'local' | 's3'
  created_at: bigint
  expires_at: bigint
  uploaded_at: bigint | null
  etag: string | null
  used_by: bigint | null
  used_at: bigint | null
}

type Stale = { key: string; store: string }

const S = statements({
  insert: statement<never, [key: string, userId: number, purpose: string, type: string, size: number, store: string, at: number, expiresAt: number]>(
    'INSERT INTO uploads (key, user_id, purpose, content_type, size, store, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  get: statement<UploadRow, [key: string]>('SELECT * FROM uploads WHERE key = ?'),
  // URLs still open (not expired, not uploaded) plus files uploaded and not yet part of anything.
  open: statement<{ n: bigint }, [userId: number, now: number]>(
    'SELECT count(*) AS n FROM uploads WHERE user_id = ? AND used_by IS NULL AND (uploaded_at IS NOT NULL OR expires_at > ?)',
  ),
  stored: statement<never, [at: number, key: string]>('UPDATE uploads SET uploaded_at = ? WHERE key = ? AND uploaded_at IS NULL'),
  use: statement<never, [{ usedBy: number | bigint; now: number; etag: string | null; key: string; userId: number; purpose: string }]>(
    `UPDATE uploads SET used_by = @usedBy, used_at = @now, uploaded_at = coalesce(uploaded_at, @now), etag = coalesce(etag, @etag)
        WHERE key = @key AND user_id = @userId AND purpose = @purpose AND used_by IS NULL`,
  ),
  // A local URL never PUT is dead an hour after it expires; a bucket's may hold a file nobody has
  // verified yet (it is verified when used), so it is kept as long as an unused upload is.
  expired: statement<Stale, [{ local: number; s3: number }]>(`SELECT key, store FROM uploads WHERE used_by IS NULL AND uploaded_at IS NULL
            AND ((store = 'local' AND expires_at < @local) OR (store = 's3' AND expires_at < @s3)) LIMIT 500`),
  unused: statement<Stale, [before: number]>('SELECT key, store FROM uploads WHERE used_by IS NULL AND uploaded_at IS NOT NULL AND uploaded_at < ? LIMIT 500'),
  drop: statement<never, [key: string]>('DELETE FROM uploads WHERE key = ? AND used_by IS NULL'),
  secret: statement<{ value: string }, [key: string]>('SELECT value FROM settings WHERE key = ?'),
  keepSecret: statement<never, [key: string, value: string]>('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING'),
})
const UPLOAD_KEY_RE = new RegExp(UPLOAD_KEY_PATTERN)

/**
 * The upload secret: NADI_UPLOAD_SECRET, else one made on first use and kept in the database (URLs
 * outlive a restart). Two processes making one at once keep the first: both then read that one.
 */
async function uploadSecret(ctx: Pick<Ctx, 'sql' | 'config'>): Promise<string> {
  const configured = ctx.config.upload.secret
  if (configured) return configured.reveal()
  const read = async () => (await ctx.sql.get(S.secret, 'upload.secret'))?.value
  const have = await read()
  if (have) return have
  await ctx.sql.run(S.keepSecret, 'upload.secret', crypto.randomBytes(32).toString('base64url'))
  return (await read())!
}

/** The store the configuration names: the data folder, or the S3-compatible bucket. */
export async function openUploadStore(ctx: Pick<Ctx, 'sql' | 'config'>): Promise<UploadStore> {
  const u = ctx.config.upload
  if (u.s3) return s3Store(u.s3, u.urlTtlMs)
  // Read before the store serves: it signs URLs synchronously.
  const secret = await uploadSecret(ctx)
  return localStore(u.dir, () => secret)
}

const tooMany = (max: number) => new ApiError(429, CODE.RATE_LIMITED, 'errors.uploadTooMany', { max })
const forbidden = (key: string) => new ApiError(403, CODE.FORBIDDEN, key)
const unsupported = (key: string, params?: Record<string, string | number>) => new ApiError(415, 415, key, params)

/** The content type a request names, without parameters, lower case. */
const mediaType = (raw: string | undefined) => (raw ?? '').split(';')[0]!.trim().toLowerCase()

export type UploadService = Awaited<ReturnType<typeof createUploadService>>

export async function createUploadService(ctx: Ctx, store?: UploadStore) {
  const cfg = ctx.config.upload
  const st = store ?? (await openUploadStore(ctx))
  const rowOf = (key: string) => ctx.sql.get(S.get, key)
  let secret: string | undefined
  const grantOf = (r: UploadRow): UploadGrant => ({ key: r.key, userId: Number(r.user_id), size: Number(r.size), contentType: r.content_type, expiresAt: Number(r.expires_at) })

  return {
    store: st,

    /** A URL to PUT one file to, for the caller only, of this size and type, for the next few minutes. */
    async presign(userId: number, body: PresignBody, requestOrigin: string): Promise<PresignedUpload> {
      const type = mediaType(body.content_type)
      const problem = checkUpload(type, body.size, cfg.maxBytes)
      if (problem === 'type') throw badRequest('errors.uploadTypeUnsupported')
      if (problem === 'empty') throw badRequest('errors.uploadEmpty')
      if (problem === 'tooLarge') throw badRequest('errors.uploadTooLarge', { max: megabytes(cfg.maxBytes) })
      const now = ctx.now()
      const key = `u/${userId}/${body.purpose}/${crypto.randomBytes(16).toString('hex')}.${UPLOAD_TYPES[type as UploadType]}`
      const expiresAt = now + cfg.urlTtlMs
      // Signed ahead of the row that lets it be used, so a keyed request's answer is whole in that row's
      // transaction; a URL whose row was refused opens nothing.
      const p = await st.presign({ key, userId, size: body.size, contentType: type, expiresAt }, requestOrigin)
      const grant: PresignedUpload = { url: p.url, method: 'PUT', headers: p.headers, key, expires_at: expiresAt }
      await ctx.sql.transaction(async (tx) => {
        await lockUser(tx, userId)
        const open = Number((await tx.get(S.open, userId, now))!.n)
        if (open >= cfg.openPerUser) throw tooMany(cfg.openPerUser)
        await tx.run(S.insert, key, userId, body.purpose, type, body.size, st.kind, now, expiresAt)
        return grant
      })
      return grant
    },

    /**
     * The local store's PUT: checks the URL (signature, expiry, not used yet), the request (content
     * type and length as signed), then streams the body to a temp file, refusing more bytes than
     * signed or a start that is not the declared type, and records it stored before moving it in place.
     */
    async receive(key: string, q: { expires?: unknown; signature?: unknown }, req: IncomingMessage): Promise<UploadDone> {
      if (st.kind !== 'local') throw notFound()
      const local = st as LocalStore
      const expiresAt = typeof q.expires === 'string' && /^[0-9]{1,16}$/.test(q.expires) ? Number(q.expires) : NaN
      const row = UPLOAD_KEY_RE.test(key) ? await rowOf(key) : undefined
      if (!row || row.store !== 'local' || !Number.isSafeInteger(expiresAt) || typeof q.signature !== 'string') throw forbidden('errors.uploadUrlInvalid')
      const g = { ...grantOf(row), expiresAt }
      if (!verifyGrant((secret ??= await uploadSecret(ctx)), g, q.signature)) throw forbidden('errors.uploadUrlInvalid')
      if (ctx.now() > g.expiresAt) throw forbidden('errors.uploadUrlExpired')
      if (row.uploaded_at !== null) throw conflict('errors.uploadUrlUsed')
      if (mediaType(req.headers['content-type']) !== g.contentType) throw unsupported('errors.uploadTypeMismatch', { type: g.contentType })
      const declared = req.headers['content-length']
      if (declared === undefined || !/^[0-9]+$/.test(declared) || Number(declared) !== g.size) throw badRequest('errors.uploadSizeMismatch', { size: g.size })

      const tmp = local.tempPath()
      let seen = 0
      let head = Buffer.alloc(0)
      /** The body's first fault: from then on the rest is read and dropped, never written. */
      let refusal: ApiError | null = null
      const check = (chunk: Buffer): ApiError | null => {
        seen += chunk.length
        if (seen > g.size) return badRequest('errors.uploadSizeMismatch', { size: g.size })
        if (head.length < SIGNATURE_BYTES) {
          head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)])
          if ((head.length >= SIGNATURE_BYTES || seen === g.size) && !matchesSignature(g.contentType as UploadType, head)) return unsupported('errors.uploadContentMismatch')
        }
        return null
      }
      try {
        // The body is read to its end even once refused, rather than the request destroyed mid-body:
        // it is at most the signed size (the length was checked above), the client gets its answer
        // whole, and a destroyed request left the answer waiting for ever on Node 24.
        const file = await fs.promises.open(tmp, 'wx', 0o600)
        try {
          for await (const chunk of req as AsyncIterable<Buffer>) {
            if (refusal) continue
            refusal = check(chunk)
            if (!refusal) await file.write(chunk)
          }
        } finally {
          await file.close()
        }
        if (refusal) throw refusal
        if (seen !== g.size) throw badRequest('errors.uploadSizeMismatch', { size: g.size })
        const stored = (await ctx.sql.run(S.stored, ctx.now(), g.key)).changes
        if (stored !== 1) throw conflict('errors.uploadUrlUsed')
        const final = local.pathOf(g.key)
        await fs.promises.mkdir(path.dirname(final), { recursive: true })
        await fs.promises.rename(tmp, final)
      } catch (err) {
        await fs.promises.rm(tmp, { force: true })
        if (err instanceof ApiError) throw err
        // The client went away mid-body: nothing stored, the URL still works until it expires.
        throw badRequest('errors.uploadSizeMismatch', { size: g.size })
      }
      return { key: g.key, size: g.size, content_type: g.contentType }
    },

    /**
     * Checks, before the transaction that uses them, that each key names a file of the caller for this
     * purpose, stored (S3: found in the bucket as granted) and not part of anything yet. Answers what
     * `use` needs to take them inside that transaction. `label` names a document in the caller's words.
     */
    async check(userId: number, purpose: UploadPurpose, keys: { key: string; label: string }[]): Promise<Checked[]> {
      const out: Checked[] = []
      for (const { key, label } of keys) {
        const row = await rowOf(key)
        if (!row || Number(row.user_id) !== userId) throw notFound('errors.documentNotFound', { document: label })
        if (row.purpose !== purpose) throw badRequest('errors.documentWrongPurpose', { document: label })
        if (row.used_by !== null) throw conflict('errors.documentUsed', { document: label })
        if (row.store === 'local' && row.uploaded_at === null) throw conflict('errors.documentNotUploaded', { document: label })
        if (row.store !== st.kind) throw conflict('errors.documentNotUploaded', { document: label })
        const found = await st.check(grantOf(row))
        if (!found.ok) throw found.problem === 'missing' ? conflict('errors.documentNotUploaded', { document: label }) : badRequest('errors.documentMismatch', { document: label })
        out.push({ key, label, etag: found.etag })
      }
      return out
    },

    /** Inside the caller's transaction: the checked files become part of `usedBy`; one taken meanwhile refuses the whole. */
    async use(tx: Tx, userId: number, purpose: UploadPurpose, usedBy: number | bigint, checked: Checked[], now: number): Promise<void> {
      for (const c of checked) {
        if ((await tx.run(S.use, { usedBy, now, etag: c.etag, key: c.key, userId, purpose })).changes !== 1) throw conflict('errors.documentUsed', { document: c.label })
      }
    },

    /** One of the caller's files, to show it back to them; anyone else's is not found. */
    async open(userId: number, key: string) {
      const row = await rowOf(key)
      // An S3 upload is recorded as stored only when used; until then the bucket says whether it is there.
      if (!row || Number(row.user_id) !== userId || row.store !== st.kind || (row.store === 'local' && row.uploaded_at === null)) throw notFound('errors.uploadNotFound')
      const file = await st.open(key)
      if (!file) throw notFound('errors.uploadNotFound')
      return { ...file, contentType: row.content_type }
    },

    /** Drops URLs that expired unused and files no application took within the keeping time; answers how many. */
    async sweep(): Promise<number> {
      const now = ctx.now()
      const rows = [...(await ctx.sql.all(S.expired, { local: now - 3_600_000, s3: now - cfg.keepUnusedMs })), ...(await ctx.sql.all(S.unused, now - cfg.keepUnusedMs))]
      let n = 0
      for (const r of rows) {
        if (r.store !== st.kind) continue
        await st.remove(r.key).catch((err: unknown) => ctx.log.warn({ err, key: r.key }, 'upload sweep: could not remove a file'))
        n += (await ctx.sql.run(S.drop, r.key)).changes
      }
      return n
    },
  }
}

export interface Checked {
  key: string
  label: string
  etag: string | null
}

/** A document's name in the caller's language, for messages about its file. */
export const documentLabel = (lang: LangCode, field: string) => translate(lang, `fields.${field}`)

