// Uploads over HTTP (DESIGN §10, issue 10 part 5): common/generateR2PresignedUrl hands out a URL for
// one key under the caller's prefix, one size, one type, for ten minutes; the local store's PUT takes
// the file once and refuses anything else; only the owner reads it back. The same flow against an
// S3 API server (s3rver) the test starts: the bucket enforces the signed type and size, and the app's
// CSP lets the app connect to it.

import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT_CODE, T0, idemKey, useServers, type Res, type TestServer } from './support/server.ts'
import { JPEG, PDF, PNG, fetchOrInject, presign, putLocal, uploaded } from './support/uploads.ts'
import { startS3, type FakeS3 } from './support/s3.ts'
import type { PresignedUpload } from '../../contract/upload.ts'
import type { CarApplication } from '../../contract/car.ts'
import type { GoodsItem } from '../../contract/goods.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { translate } from '../../server/i18n.ts'
import { grantPath } from '../../server/modules/upload/token.ts'
import { statement } from '../../server/db/query/types.ts'
import { numbers } from '../support/rows.ts'

const start = useServers()
const en = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const MIN = 60_000
const PNG_BODY = { purpose: 'car_apply', content_type: 'image/png', size: PNG.length }

/** Every upload row and every file of the local store: a refused request changes neither. */
async function state(s: TestServer) {
  const dir = s.config.upload.dir
  const files: string[] = []
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else files.push(path.relative(dir, p))
    }
  }
  walk(dir)
  return { rows: (await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM uploads ORDER BY key'))).map((r) => numbers(r)), files: files.sort() }
}

function refused(res: Res, status: number, msg: string) {
  expect(res.statusCode, res.body).toBe(status)
  expect(res.body_).toEqual({ code: status, msg, data: null })
}

describe('POST /api/v1/common/generateR2PresignedUrl', () => {
  it('answers a PUT URL of this server for one key under the caller’s prefix, bound to the size and type, for ten minutes', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const res = await presign(s, me, PNG_BODY)
    expect(res.statusCode, res.body).toBe(200)
    const p = res.body_.data
    expect(p.method).toBe('PUT')
    expect(p.headers).toEqual({ 'content-type': 'image/png' })
    expect(p.key).toMatch(new RegExp(`^u/${me.userId}/car_apply/[0-9a-f]{32}\\.png$`))
    expect(p.expires_at).toBe(T0 + 10 * MIN)
    expect(p.url).toMatch(new RegExp(`^http://localhost(:80)?/api/v1/upload/${p.key}\\?expires=${T0 + 10 * MIN}&signature=[A-Za-z0-9_-]{43}$`))
    expect(numbers(await s.ctx.sql.get(statement<{ user_id: unknown; purpose: unknown; content_type: unknown; size: unknown; store: unknown; uploaded_at: unknown; used_by: unknown }>('SELECT user_id, purpose, content_type, size, store, uploaded_at, used_by FROM uploads WHERE key = ?'), p.key))).toEqual({
      user_id: me.userId,
      purpose: 'car_apply',
      content_type: 'image/png',
      size: PNG.length,
      store: 'local',
      uploaded_at: null,
      used_by: null,
    })
    // Each URL its own key; a PDF key ends in .pdf.
    const pdf = await presign(s, me, { purpose: 'car_apply', content_type: 'application/pdf', size: 5 * 1024 * 1024 })
    expect(pdf.body_.data.key).toMatch(/\.pdf$/)
    expect(pdf.body_.data.key).not.toBe(p.key)
  })

  it('refuses a visitor, another purpose, an unsupported type, an empty file and one above the limit, recording nothing', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const before = await state(s)
    refused(await s.post('/api/v1/common/generateR2PresignedUrl', PNG_BODY, { lang: 'EN', idempotencyKey: idemKey() }), 401, en('errors.loginRequired'))
    refused(await presign(s, me, { ...PNG_BODY, purpose: 'avatar' }), 400, en('errors.invalidField', { field: en('fields.purpose') }))
    refused(await presign(s, me, { ...PNG_BODY, content_type: 'text/html' }), 400, en('errors.uploadTypeUnsupported'))
    refused(await presign(s, me, { ...PNG_BODY, content_type: 'image/svg+xml' }), 400, en('errors.uploadTypeUnsupported'))
    refused(await presign(s, me, { ...PNG_BODY, size: 0 }), 400, en('errors.uploadEmpty'))
    refused(await presign(s, me, { ...PNG_BODY, size: 5 * 1024 * 1024 + 1 }), 400, en('errors.uploadTooLarge', { max: 5 }))
    // Past the integers a double holds exactly, a size is still a size: too large, not empty.
    refused(await presign(s, me, { ...PNG_BODY, size: 2 ** 53 + 2 }), 400, en('errors.uploadTooLarge', { max: 5 }))
    refused(await presign(s, me, { ...PNG_BODY, size: 1.5 }), 400, en('errors.invalidField', { field: en('fields.fileSize') }))
    refused(await presign(s, me, { purpose: 'car_apply', content_type: 'image/png' }), 400, en('errors.invalidField', { field: en('fields.fileSize') }))
    // In the caller's language.
    const tw = await presign(s, me, { ...PNG_BODY, size: 0 }, { lang: 'TW' })
    expect(tw.body_.msg).toBe(translate('TW', 'errors.uploadEmpty'))
    expect(await state(s)).toEqual(before)
  })

  it('a repeated Idempotency-Key answers the same URL and records one', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const a = await presign(s, me, PNG_BODY, { key })
    const b = await presign(s, me, PNG_BODY, { key })
    expect(b.headers['idempotent-replayed']).toBe('true')
    expect(b.body_.data).toEqual(a.body_.data)
    expect(await s.count('SELECT count(*) FROM uploads')).toBe(1)
  })

  it('refuses more open URLs than the limit (429) until one expires', async () => {
    const s = await start({ env: { NADI_UPLOAD_OPEN_MAX: '2' } })
    const me = await s.signIn(ROOT_CODE)
    expect((await presign(s, me, PNG_BODY)).statusCode).toBe(200)
    expect((await presign(s, me, PNG_BODY)).statusCode).toBe(200)
    const before = await state(s)
    refused(await presign(s, me, PNG_BODY), 429, en('errors.uploadTooMany', { max: 2 }))
    expect(await state(s)).toEqual(before)
    // Another user has their own count.
    expect((await presign(s, await s.signIn(ROOT_CODE), PNG_BODY)).statusCode).toBe(200)
    s.clock.advance(10 * MIN + 1)
    expect((await presign(s, await s.signIn(ROOT_CODE, me.wallet), PNG_BODY)).statusCode).toBe(200)
  })
})

describe('PUT /api/v1/upload/<token> (the local store)', () => {
  async function granted(s: TestServer, body: Record<string, unknown> = PNG_BODY) {
    const me = await s.signIn(ROOT_CODE)
    const res = await presign(s, me, body)
    expect(res.statusCode, res.body).toBe(200)
    return { me, p: res.body_.data }
  }
  const uploadedAt = async (s: TestServer, key: string) => {
    const at = (await s.ctx.sql.get(statement<{ uploaded_at: bigint | null }>('SELECT uploaded_at FROM uploads WHERE key = ?'), key))?.uploaded_at
    return at === undefined || at === null ? at : Number(at)
  }

  it('stores the file under the data folder once, and the owner alone reads it back', async () => {
    const s = await start()
    const { me, p } = await granted(s)
    const put = await putLocal(s, p.url, PNG, 'image/png')
    expect(put.statusCode, put.body).toBe(200)
    expect(put.body_.data).toEqual({ key: p.key, size: PNG.length, content_type: 'image/png' })
    const file = path.join(s.config.dataDir, 'uploads', p.key)
    expect(fs.readFileSync(file)).toEqual(PNG)
    expect(await uploadedAt(s, p.key)).toBe(T0)

    const mine = await s.inject({ method: 'GET', url: `/api/v1/common/uploadFile?key=${encodeURIComponent(p.key)}`, headers: { authorization: `Bearer ${me.token}` } })
    expect(mine.statusCode).toBe(200)
    expect(mine.headers['content-type']).toBe('image/png')
    expect(mine.headers['cache-control']).toBe('private, no-store')
    expect(mine.headers['x-content-type-options']).toBe('nosniff')
    expect(mine.headers['content-security-policy']).toContain('sandbox')
    expect(mine.rawPayload).toEqual(PNG)

    const other = await s.signIn(ROOT_CODE)
    refused(await s.get(`/api/v1/common/uploadFile?key=${encodeURIComponent(p.key)}`, { token: other.token, lang: 'EN' }), 404, en('errors.uploadNotFound'))
    refused(await s.get(`/api/v1/common/uploadFile?key=${encodeURIComponent(p.key)}`, { lang: 'EN' }), 401, en('errors.loginRequired'))
    refused(await s.get(`/api/v1/common/uploadFile?key=${encodeURIComponent(p.key.replace(/[0-9a-f]{32}/, 'f'.repeat(32)))}`, { token: me.token, lang: 'EN' }), 404, en('errors.uploadNotFound'))
    expect((await s.get('/api/v1/common/uploadFile?key=..%2F..%2Fnadi.sqlite', { token: me.token, lang: 'EN' })).statusCode).toBe(400)
  })

  it('a URL works once: the second PUT is refused (409) and the first file stays', async () => {
    const s = await start()
    const { p } = await granted(s)
    expect((await putLocal(s, p.url, PNG, 'image/png')).statusCode).toBe(200)
    const before = await state(s)
    const other = Buffer.from(PNG)
    other[PNG.length - 1] = 0
    refused(await putLocal(s, p.url, other, 'image/png'), 409, en('errors.uploadUrlUsed'))
    expect(await state(s)).toEqual(before)
    expect(fs.readFileSync(path.join(s.config.upload.dir, p.key))).toEqual(PNG)
  })

  it('an expired URL is refused (403) and stores nothing', async () => {
    const s = await start()
    const { p } = await granted(s)
    s.clock.advance(10 * MIN + 1)
    const before = await state(s)
    refused(await putLocal(s, p.url, PNG, 'image/png'), 403, en('errors.uploadUrlExpired'))
    expect(await state(s)).toEqual(before)
    expect(await uploadedAt(s, p.key)).toBeNull()
  })

  it('refuses another size, another type, content that is not of its type, a changed or foreign token — storing nothing, and the URL still works', async () => {
    const s = await start()
    const { me, p } = await granted(s)
    const before = async () => ({ ...(await state(s)), rows: (await state(s)).rows.filter((r) => (r as { key: string }).key === p.key) })
    const start_ = before()
    refused(await putLocal(s, p.url, Buffer.concat([PNG, Buffer.from([0])]), 'image/png'), 400, en('errors.uploadSizeMismatch', { size: PNG.length }))
    refused(await putLocal(s, p.url, PNG.subarray(0, PNG.length - 1), 'image/png'), 400, en('errors.uploadSizeMismatch', { size: PNG.length }))
    refused(await putLocal(s, p.url, PNG, 'image/jpeg'), 415, en('errors.uploadTypeMismatch', { type: 'image/png' }))
    refused(await putLocal(s, p.url, PNG, null), 415, en('errors.uploadTypeMismatch', { type: 'image/png' }))
    const html = Buffer.alloc(PNG.length, 0x20)
    html.write('<html><script>1</script>')
    refused(await putLocal(s, p.url, html, 'image/png'), 415, en('errors.uploadContentMismatch'))
    // The expiry moved, the signature kept: refused. Another key with this signature: refused.
    const later = new URL(p.url)
    later.searchParams.set('expires', String(p.expires_at + 3_600_000))
    refused(await putLocal(s, later.href, PNG, 'image/png'), 403, en('errors.uploadUrlInvalid'))
    const second = (await presign(s, me, PNG_BODY)).body_.data
    refused(await putLocal(s, p.url.replace(p.key, second.key), PNG, 'image/png'), 403, en('errors.uploadUrlInvalid'))
    // Signed with another secret (another server's URL), or not signed at all.
    const foreign = grantPath('x'.repeat(40), { key: p.key, userId: me.userId, size: PNG.length, contentType: 'image/png', expiresAt: p.expires_at })
    refused(await putLocal(s, `http://localhost${foreign}`, PNG, 'image/png'), 403, en('errors.uploadUrlInvalid'))
    refused(await putLocal(s, `http://localhost/api/v1/upload/${p.key}`, PNG, 'image/png'), 403, en('errors.uploadUrlInvalid'))
    refused(await putLocal(s, `http://localhost/api/v1/upload/u/${me.userId}/car_apply/..%2F..%2F..%2Fnadi.sqlite?expires=1&signature=x`, PNG, 'image/png'), 403, en('errors.uploadUrlInvalid'))
    expect(before()).toEqual(start_)
    expect(fs.readdirSync(path.join(s.config.upload.dir, '.tmp'))).toEqual([])
    // None of that used the URL up.
    expect((await putLocal(s, p.url, PNG, 'image/png; charset=binary')).statusCode).toBe(200)
  })

  it('takes a JPEG and a PDF of their declared types', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    for (const [bytes, type] of [[JPEG, 'image/jpeg'], [PDF, 'application/pdf']] as const) {
      const key = await uploaded(s, me, bytes, type)
      expect(fs.readFileSync(path.join(s.config.upload.dir, key))).toEqual(bytes)
    }
  })

  it('the sweep drops URLs that expired unused and files no application took within the keeping time', async () => {
    const s = await start({ env: { NADI_UPLOAD_KEEP_UNUSED_HOURS: '1' } })
    const { me, p } = await granted(s)
    const key = await uploaded(s, me)
    s.clock.advance(2 * 3_600_000)
    const { createUploadService } = await import('../../server/modules/upload/service.ts')
    const uploads = await createUploadService(s.ctx)
    expect(await uploads.sweep()).toBe(2)
    expect(await s.count('SELECT count(*) FROM uploads WHERE key IN (?, ?)', p.key, key)).toBe(0)
    expect(fs.existsSync(path.join(s.config.upload.dir, key))).toBe(false)
  })
})

describe('an S3-compatible bucket (s3rver)', () => {
  const buckets: FakeS3[] = []
  afterEach(async () => {
    await Promise.all(buckets.splice(0).map((b) => b.close()))
  })
  async function withBucket() {
    const s3 = await startS3()
    buckets.push(s3)
    const s = await start({ env: s3.env })
    return { s3, s }
  }

  it('presigns a PUT to the bucket that takes the granted file and refuses another size or type; car/apply finds it there', async () => {
    const { s3, s } = await withBucket()
    const me = await s.signIn(ROOT_CODE)
    const res = await presign(s, me, PNG_BODY)
    expect(res.statusCode, res.body).toBe(200)
    const p: PresignedUpload = res.body_.data
    expect(p.url.startsWith(`${s3.endpoint}/${s3.bucket}/${p.key}?`)).toBe(true)
    const q = new URL(p.url).searchParams
    expect(q.get('X-Amz-SignedHeaders')?.split(';').sort()).toEqual(['content-length', 'content-type', 'host'])
    expect(q.get('X-Amz-Expires')).toBe('600')
    expect(await s.count("SELECT count(*) FROM uploads WHERE key = ? AND store = 's3'", p.key)).toBe(1)

    // The bucket checks what the URL was signed for.
    expect((await fetchOrInject(s, p.url, Buffer.concat([PNG, Buffer.from([0])]), 'image/png')).status).toBe(403)
    expect((await fetchOrInject(s, p.url, PNG, 'image/jpeg')).status).toBe(403)
    const ok = await fetchOrInject(s, p.url, PNG, 'image/png')
    expect(ok.status, ok.text).toBe(200)

    // The owner reads it back through the server; nobody else does.
    const back = await s.inject({ method: 'GET', url: `/api/v1/common/uploadFile?key=${encodeURIComponent(p.key)}`, headers: { authorization: `Bearer ${me.token}` } })
    expect(back.statusCode).toBe(200)
    expect(back.rawPayload).toEqual(PNG)
    expect((await s.get(`/api/v1/common/uploadFile?key=${encodeURIComponent(p.key)}`, { token: (await s.signIn(ROOT_CODE)).token })).statusCode).toBe(404)

    // car/apply verifies the files with HeadObject: a key granted but never PUT is refused, then the real ones pass.
    const car = (await s.get<PagedList<GoodsItem>>('/api/v1/car/goodsList')).body_.data.list[0]!
    const never = (await presign(s, me, PNG_BODY)).body_.data.key
    const licence = await uploaded(s, me)
    const body = { goods_id: car.id, name: 'Lin Mei', phone: '0912345678', id_number: 'A123456789', city: 'Taipei', id_front: never, driver_licence: licence }
    const before = (await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM uploads ORDER BY key'))).map((r) => numbers(r))
    refused(await s.post('/api/v1/car/apply', body, { token: me.token, idempotencyKey: idemKey(), lang: 'EN' }), 409, en('errors.documentNotUploaded', { document: en('fields.id_front') }))
    expect((await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM uploads ORDER BY key'))).map((r) => numbers(r))).toEqual(before)
    const done = await s.post<CarApplication>('/api/v1/car/apply', { ...body, id_front: p.key }, { token: me.token, idempotencyKey: idemKey(), lang: 'EN' })
    expect(done.statusCode, done.body).toBe(200)
    const row = numbers((await s.ctx.sql.get(statement<{ used_by: bigint; uploaded_at: bigint; etag: string }>('SELECT used_by, uploaded_at, etag FROM uploads WHERE key = ?'), p.key))!)
    expect(row.used_by).toBe(done.body_.data.id)
    expect(row.uploaded_at).toBe(T0)
    expect(row.etag).toMatch(/^"[0-9a-f]{32}"$/)
  })

  it('a file in the bucket that is not what was granted (another type’s bytes) is refused at car/apply', async () => {
    const { s } = await withBucket()
    const me = await s.signIn(ROOT_CODE)
    // Declared PNG, PUT with the PNG type and size, but the bytes are not a PNG.
    const p = (await presign(s, me, PNG_BODY)).body_.data
    const fake = Buffer.alloc(PNG.length, 0x41)
    expect((await fetchOrInject(s, p.url, fake, 'image/png')).status).toBe(200)
    const car = (await s.get<PagedList<GoodsItem>>('/api/v1/car/goodsList')).body_.data.list[0]!
    const body = { goods_id: car.id, name: 'Lin Mei', phone: '0912345678', id_number: 'A123456789', city: 'Taipei', id_front: p.key, driver_licence: await uploaded(s, me) }
    refused(await s.post('/api/v1/car/apply', body, { token: me.token, idempotencyKey: idemKey(), lang: 'EN' }), 400, en('errors.documentMismatch', { document: en('fields.id_front') }))
    expect(await s.count('SELECT count(*) FROM car_applications')).toBe(0)
  })

  it('the sweep keeps a bucket file nobody has used yet as long as an unused upload is kept, then deletes it from the bucket', async () => {
    const s3 = await startS3()
    buckets.push(s3)
    const s = await start({ env: { ...s3.env, NADI_UPLOAD_KEEP_UNUSED_HOURS: '1' } })
    const me = await s.signIn(ROOT_CODE)
    const key = await uploaded(s, me)
    const { createUploadService } = await import('../../server/modules/upload/service.ts')
    const uploads = await createUploadService(s.ctx)
    s.clock.advance(30 * MIN)
    expect(await uploads.sweep()).toBe(0)
    expect(await uploads.store.open(key)).not.toBeNull()
    s.clock.advance(60 * MIN)
    expect(await uploads.sweep()).toBe(1)
    expect(await uploads.store.open(key)).toBeNull()
    expect(await s.count('SELECT count(*) FROM uploads')).toBe(0)
  })

  it('the app shell’s CSP lets the app connect to the bucket’s origin, and nothing else new', async () => {
    const { s3, s } = await withBucket()
    const shell = await s.inject({ method: 'GET', url: '/' })
    const csp = String(shell.headers['content-security-policy'])
    expect(csp).toContain(`connect-src 'self' ${s3.endpoint};`)
    // The local store adds nothing.
    const local = await start()
    expect(String((await local.inject({ method: 'GET', url: '/' })).headers['content-security-policy'])).toContain("connect-src 'self';")
  })
})
