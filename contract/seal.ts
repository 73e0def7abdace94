// The production envelope (SPEC §7, issue 20): every API request and answer sealed — encrypted with
// AES-GCM and signed with HMAC-SHA256 under keys agreed per handshake (ECDH P-256 → HKDF-SHA256), the
// server's half of each handshake signed by its long-term key built into the app. What is signed and
// in which order is fixed here, once, for both sides: the app (WebCrypto, src/api/sealCrypto.ts) and
// the server (node:crypto, server/http/sealCrypto.ts). docs/envelope.md tells the whole protocol.
import { Type, type Static } from 'typebox'

/** Names every text that is signed or derived, so a text of one kind can never pass for another. */
export const SEAL_VERSION = 'nadi/1'
/** A request's timestamp may be this far from the server's clock, either way. */
export const SEAL_WINDOW_MS = 60_000

/** 16 random bytes, base64url. */
export const HandshakeId = Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' })
/** An uncompressed P-256 point (65 bytes), base64url. */
export const PublicKey = Type.String({ pattern: '^[A-Za-z0-9_-]{87}$' })
/** HMAC-SHA256, base64url. */
export const Sign = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' })

/** A sealed request body, or for a GET its query: `data` is base64url(iv ‖ AES-GCM ciphertext ‖ tag) of the JSON. */
export const SealedRequest = Type.Object(
  {
    handshake: HandshakeId,
    timestamp: Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1 }),
    sign: Sign,
    data: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
  },
  { additionalProperties: false },
)
export type SealedRequest = Static<typeof SealedRequest>

/** A sealed answer: as a request, plus the content type of what `data` holds (JSON, or a file's bytes). */
export interface SealedAnswer extends SealedRequest {
  type: string
}

export const HandshakeBody = Type.Object({ key: PublicKey }, { additionalProperties: false })
export type HandshakeBody = Static<typeof HandshakeBody>

export const HandshakeAnswer = Type.Object({
  handshake: HandshakeId,
  /** The server's ephemeral ECDH key. */
  key: PublicKey,
  /** HKDF salt, 32 random bytes. */
  salt: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
  expires_at: Type.Integer(),
  server_time: Type.Integer(),
  /** ECDSA P-256 / SHA-256 (r ‖ s) over handshakeTranscript by the server's long-term key. */
  signature: Type.String({ pattern: '^[A-Za-z0-9_-]{86}$' }),
})
export type HandshakeAnswer = Static<typeof HandshakeAnswer>

// In constants.ts, which imports nothing: the app's first load checks for REQUIRED without this file's schemas.
export { SEAL_CODE } from './constants.ts'

export const handshakeTranscript = (a: { handshake: string; clientKey: string; serverKey: string; salt: string; expiresAt: number; serverTime: number }) =>
  [SEAL_VERSION, 'handshake', a.handshake, a.clientKey, a.serverKey, a.salt, a.expiresAt, a.serverTime].join('\n')

/** HKDF info: the derived keys belong to this handshake and these two public keys only. */
export const keyInfo = (handshake: string, clientKey: string, serverKey: string) => [SEAL_VERSION, 'keys', handshake, clientKey, serverKey].join('\n')

/** AES-GCM additional data: a request's ciphertext cannot be passed off as an answer, nor under another handshake. */
export const sealAad = (direction: 'request' | 'answer', handshake: string) => `${SEAL_VERSION} ${direction} ${handshake}`

export interface RequestSignParts {
  method: string
  /** The URL's path, without the query. */
  path: string
  timestamp: number
  handshake: string
  /** The Idempotency-Key header, '' when none: a proxy cannot move a sealed action to another key. */
  idempotencyKey: string
  data: string
}
/** What a request's sign covers before its data: the signed text is this head followed by the data, so a signer may feed the two apart. */
export const requestSignHead = (p: Omit<RequestSignParts, 'data'>) => `${SEAL_VERSION}\nrequest\n${p.method}\n${p.path}\n${p.timestamp}\n${p.handshake}\n${p.idempotencyKey}\n`
export const requestSignText = (p: RequestSignParts) => requestSignHead(p) + p.data

export interface AnswerSignParts {
  method: string
  path: string
  /** The sign of the request answered: an answer cannot be moved to another request. */
  requestSign: string
  status: number
  type: string
  timestamp: number
  handshake: string
  data: string
}
/** What an answer's sign covers before its data, as requestSignHead. */
export const answerSignHead = (p: Omit<AnswerSignParts, 'data'>) =>
  `${SEAL_VERSION}\nanswer\n${p.method}\n${p.path}\n${p.requestSign}\n${p.status}\n${p.type}\n${p.timestamp}\n${p.handshake}\n`
export const answerSignText = (p: AnswerSignParts) => answerSignHead(p) + p.data

/** The socket's proof that its token is used with the token's own handshake (`/ws?token&handshake&timestamp&sign`). */
export const socketSignText = (p: { timestamp: number; handshake: string; token: string }) => [SEAL_VERSION, 'socket', p.timestamp, p.handshake, p.token].join('\n')

const B64U = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const B64U_INDEX = new Int16Array(128).fill(-1)
for (let i = 0; i < B64U.length; i++) B64U_INDEX[B64U.charCodeAt(i)] = i

/** base64url without padding; the app has no Buffer. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += B64U[n >> 18]! + B64U[(n >> 12) & 63]! + B64U[(n >> 6) & 63]! + B64U[n & 63]!
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = bytes[i]! << 16
    out += B64U[n >> 18]! + B64U[(n >> 12) & 63]!
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8)
    out += B64U[n >> 18]! + B64U[(n >> 12) & 63]! + B64U[(n >> 6) & 63]!
  }
  return out
}

/** The bytes of a base64url text; null when it is not one (a wrong letter or an impossible length). */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let bits = 0
  let acc = 0
  let o = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? B64U_INDEX[c]! : -1
    if (v < 0) return null
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  return out
}
