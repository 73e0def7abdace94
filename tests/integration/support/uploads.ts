// Uploads as the app makes them: ask common/generateR2PresignedUrl for a URL, PUT the file to it.
import { idemKey, type Res, type SignedIn, type TestServer } from './server.ts'
import type { PresignedUpload, UploadDone } from '../../../contract/upload.ts'

/** A 1×1 PNG, and files of the other accepted types as their first bytes plus padding. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)])
export const PDF = Buffer.from('%PDF-1.4\n% a test document\n%%EOF\n')

export const presign = (s: TestServer, who: SignedIn, body: unknown, opts: { lang?: string; key?: string } = {}) =>
  s.post<PresignedUpload>('/api/v1/common/generateR2PresignedUrl', body, { token: who.token, idempotencyKey: opts.key ?? idemKey(), lang: opts.lang ?? 'EN' })

/** PUTs bytes to a local-store URL in process (the path of the absolute URL). */
export function putLocal(s: TestServer, url: string, bytes: Buffer, contentType: string | null, headers: Record<string, string> = {}): Promise<Res<UploadDone>> {
  const u = new URL(url)
  return s
    .inject({ method: 'PUT', url: u.pathname + u.search, payload: bytes, headers: { ...(contentType === null ? {} : { 'content-type': contentType }), lang: 'EN', ...headers } })
    .then((res) => Object.defineProperty(res, 'body_', { get: () => JSON.parse(res.body) as unknown }) as Res<UploadDone>)
}

/** A file of the caller, uploaded: presign + PUT. Answers its key. */
export async function uploaded(s: TestServer, who: SignedIn, bytes: Buffer = PNG, type = 'image/png'): Promise<string> {
  const p = await presign(s, who, { purpose: 'car_apply', content_type: type, size: bytes.length })
  if (p.statusCode !== 200) throw new Error(`presign answered ${p.statusCode}: ${p.body}`)
  const { url, headers, key } = p.body_.data
  const put = await fetchOrInject(s, url, bytes, headers['content-type'])
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${put.text}`)
  return key
}

/** A PUT to a presigned URL: in process for this server's own, over HTTP for a bucket. */
export async function fetchOrInject(s: TestServer, url: string, bytes: Buffer, contentType: string): Promise<{ status: number; text: string }> {
  if (new URL(url).pathname.startsWith('/api/v1/upload/')) {
    const r = await putLocal(s, url, bytes, contentType)
    return { status: r.statusCode, text: r.body }
  }
  const r = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': contentType } })
  return { status: r.status, text: await r.text() }
}
