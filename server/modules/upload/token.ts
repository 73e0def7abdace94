// The local store's upload URL, shaped like an S3 presigned one: the key in the path and, in the query,
// the expiry and an HMAC-SHA256 over the whole grant (key, user, size, content type, expiry) under the
// server's upload secret: /api/v1/upload/<key>?expires=<ms>&signature=<mac>. Nothing in it can be
// changed without the secret: a URL for 1 KB of PNG cannot carry 5 MB of PDF, nor another key or time.
import crypto from 'node:crypto'

export interface UploadGrant {
  key: string
  userId: number
  size: number
  contentType: string
  /** Unix ms after which the URL is refused. */
  expiresAt: number
}

/** The signature of a grant: 43 base64url characters. */
export function signGrant(secret: string, g: UploadGrant): string {
  return crypto.createHmac('sha256', secret).update(['nadi-upload-v1', g.key, g.userId, g.size, g.contentType, g.expiresAt].join('\n')).digest('base64url')
}

/** The URL path and query of a grant, after the origin. */
export const grantPath = (secret: string, g: UploadGrant): string => `/api/v1/upload/${g.key}?expires=${g.expiresAt}&signature=${signGrant(secret, g)}`

/** Whether `signature` is the grant's (compared in constant time). */
export function verifyGrant(secret: string, g: UploadGrant, signature: string): boolean {
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false
  const want = Buffer.from(signGrant(secret, g), 'base64url')
  const got = Buffer.from(signature, 'base64url')
  return got.length === want.length && crypto.timingSafeEqual(got, want)
}
