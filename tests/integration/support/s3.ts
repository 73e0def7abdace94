// An S3 API for the S3 upload store's tests: s3rver (npm) on a random local port over a temp folder,
// with one bucket and its well-known credentials (S3RVER / S3RVER), behind a small front that checks
// presigned URLs' AWS Signature V4 as S3 does — s3rver checks their expiry but not V4 signatures, and
// what the store relies on is that a PUT of another size or content type than signed is refused.
// The check here is written from the SigV4 specification, independent of the SDK that signs.
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import S3rver from 's3rver'

export interface FakeS3 {
  endpoint: string
  bucket: string
  /** The settings that point the server's upload store at it. */
  env: Record<string, string>
  close(): Promise<void>
}

const ACCESS_KEY = 'S3RVER'
const SECRET_KEY = 'S3RVER'
const REGION = 'us-east-1'

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest()
const sha256 = (data: string) => crypto.createHash('sha256').update(data).digest('hex')

/** A presigned (query) V4 request's signature as S3 computes it from the request as it arrived; null when it is not one. */
export function expectedSignature(req: Pick<http.IncomingMessage, 'method' | 'url' | 'headers'>): { given: string; expected: string } | null {
  const raw = req.url ?? '/'
  const q = raw.indexOf('?')
  const rawPath = q < 0 ? raw : raw.slice(0, q)
  const params = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1))
  const given = params.get('X-Amz-Signature')
  if (params.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !given) return null
  const date = params.get('X-Amz-Date') ?? ''
  const scope = (params.get('X-Amz-Credential') ?? '').split('/').slice(1).join('/')
  const signed = (params.get('X-Amz-SignedHeaders') ?? '').split(';')
  const query = [...params.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('')
  const canonical = [req.method, rawPath, query, headers, signed.join(';'), 'UNSIGNED-PAYLOAD'].join('\n')
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n')
  const [day, region, service] = scope.split('/') as [string, string, string]
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, day), region), service), 'aws4_request')
  return { given, expected: crypto.createHmac('sha256', key).update(toSign).digest('hex') }
}

export async function startS3(bucket = 'nadi-uploads'): Promise<FakeS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-s3-'))
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, vhostBuckets: false, configureBuckets: [{ name: bucket }] })
  const { port: s3Port } = await s3.run()
  // The front: presigned requests must carry the signature of what they are; everything goes on to s3rver.
  const front = http.createServer((req, res) => {
    const sig = expectedSignature(req)
    if (sig && sig.given !== sig.expected) {
      req.resume()
      res.writeHead(403, { 'content-type': 'application/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code></Error>')
      return
    }
    const up = http.request({ host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers)
      r.pipe(res)
    })
    up.on('error', () => res.destroy())
    req.pipe(up)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`
  return {
    endpoint,
    bucket,
    env: {
      NADI_UPLOAD_S3_ENDPOINT: endpoint,
      NADI_UPLOAD_S3_BUCKET: bucket,
      NADI_UPLOAD_S3_REGION: REGION,
      NADI_UPLOAD_S3_ACCESS_KEY_ID: ACCESS_KEY,
      NADI_UPLOAD_S3_SECRET_ACCESS_KEY: SECRET_KEY,
    },
    async close() {
      front.closeAllConnections()
      await new Promise<void>((resolve) => front.close(() => resolve()))
      await s3.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
