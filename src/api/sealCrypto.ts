// The app's side of the envelope (contract/seal.ts), on the platform's WebCrypto only: no primitive
// is written here. Runs in the browser and in Node ≥ 20 alike (tests, the fuzz and the bench use it as
// the app does). Keys are made non-extractable; the 64 derived bytes are kept only so a reload of the
// tab keeps its handshake, in the same sessionStorage as the token it is bound to.
import {
  answerSignText,
  fromBase64Url,
  handshakeTranscript,
  keyInfo,
  requestSignText,
  sealAad,
  socketSignText,
  toBase64Url,
  type HandshakeAnswer,
  type SealedAnswer,
  type SealedRequest,
} from '../../contract/seal.ts'
import { SealBroken, SealUnavailable } from './sealErrors.ts'

export { SealBroken, SealUnavailable }

const subtle = () => {
  // Absent outside a secure context (an http:// page on a LAN): the envelope needs HTTPS or localhost.
  const s = globalThis.crypto?.subtle
  if (!s) throw new SealUnavailable()
  return s
}

export interface SealKeys {
  handshake: string
  expiresAt: number
  enc: CryptoKey
  mac: CryptoKey
  /** enc ‖ mac, to keep the handshake across a reload of the tab. */
  raw: Uint8Array
}

const text = new TextEncoder()
const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const
// TypeScript's DOM types want ArrayBuffer-backed views; every view made here is.
const buf = (b: Uint8Array) => b as Uint8Array<ArrayBuffer>

export async function importKeys(handshake: string, raw: Uint8Array, expiresAt: number): Promise<SealKeys> {
  const s = subtle()
  const [enc, mac] = await Promise.all([
    s.importKey('raw', buf(raw.slice(0, 32)), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']),
    s.importKey('raw', buf(raw.slice(32, 64)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
  ])
  return { handshake, expiresAt, enc, mac, raw }
}

/** The server's long-term public key (an uncompressed P-256 point, base64url), for checking handshakes. */
export async function importServerKey(publicKey: string): Promise<CryptoKey> {
  const raw = fromBase64Url(publicKey)
  if (!raw || raw.length !== 65) throw new SealBroken('the server key built into the app is not a P-256 point')
  return subtle().importKey('raw', buf(raw), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
}

export interface PendingHandshake {
  /** The body of POST common/handshake. */
  body: { key: string }
  /** Checks the server's signature over the answer, then derives the keys. */
  finish(answer: HandshakeAnswer, serverKey: CryptoKey): Promise<SealKeys>
}

/** A fresh ephemeral key pair; `ephemeral` is for test vectors only. */
export async function beginHandshake(ephemeral?: CryptoKeyPair): Promise<PendingHandshake> {
  const s = subtle()
  const pair = ephemeral ?? ((await s.generateKey(P256, false, ['deriveBits'])) as CryptoKeyPair)
  const clientKey = toBase64Url(new Uint8Array(await s.exportKey('raw', pair.publicKey)))
  return {
    body: { key: clientKey },
    async finish(answer, serverKey) {
      const transcript = handshakeTranscript({ handshake: answer.handshake, clientKey, serverKey: answer.key, salt: answer.salt, expiresAt: answer.expires_at, serverTime: answer.server_time })
      const signature = fromBase64Url(answer.signature)
      const theirs = fromBase64Url(answer.key)
      const salt = fromBase64Url(answer.salt)
      if (!signature || !theirs || !salt || theirs.length !== 65) throw new SealBroken('handshake answer malformed')
      const signed = await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, serverKey, buf(signature), text.encode(transcript))
      if (!signed) throw new SealBroken('handshake not signed by the server')
      const peer = await s.importKey('raw', buf(theirs), P256, false, [])
      const secret = await s.deriveBits({ name: 'ECDH', public: peer }, pair.privateKey, 256)
      const ikm = await s.importKey('raw', secret, 'HKDF', false, ['deriveBits'])
      const raw = new Uint8Array(await s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: buf(salt), info: text.encode(keyInfo(answer.handshake, clientKey, answer.key)) }, ikm, 512))
      return importKeys(answer.handshake, raw, answer.expires_at)
    },
  }
}

async function hmac(keys: SealKeys, message: string): Promise<string> {
  return toBase64Url(new Uint8Array(await subtle().sign('HMAC', keys.mac, text.encode(message))))
}

async function encrypt(keys: SealKeys, direction: 'request' | 'answer', plain: Uint8Array, iv?: Uint8Array): Promise<string> {
  const nonce = iv ?? crypto.getRandomValues(new Uint8Array(12))
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: text.encode(sealAad(direction, keys.handshake)) }, keys.enc, buf(plain)))
  const out = new Uint8Array(12 + sealed.length)
  out.set(nonce)
  out.set(sealed, 12)
  return toBase64Url(out)
}

export interface RequestParts {
  method: string
  path: string
  timestamp: number
  idempotencyKey: string
  /** The JSON text of the body (or of the query, for a GET). */
  json: string
}

/** `iv` is for test vectors only. */
export async function sealRequest(keys: SealKeys, p: RequestParts, iv?: Uint8Array): Promise<SealedRequest> {
  const data = await encrypt(keys, 'request', text.encode(p.json), iv)
  const sign = await hmac(keys, requestSignText({ method: p.method, path: p.path, timestamp: p.timestamp, handshake: keys.handshake, idempotencyKey: p.idempotencyKey, data }))
  return { handshake: keys.handshake, timestamp: p.timestamp, sign, data }
}

export interface AnswerContext {
  method: string
  path: string
  requestSign: string
  status: number
}

/** Whether a parsed body has the shape of a sealed answer (anything else is a plain refusal, or not ours). */
export function isSealedAnswer(v: unknown): v is SealedAnswer {
  if (v === null || typeof v !== 'object') return false
  const o = v as Record<string, unknown>
  return typeof o.handshake === 'string' && typeof o.timestamp === 'number' && typeof o.sign === 'string' && typeof o.data === 'string' && typeof o.type === 'string'
}

/** The plaintext of a sealed answer, after its sign is checked; SealBroken when it is not the server's answer to this request. */
export async function openAnswer(keys: SealKeys, c: AnswerContext, a: SealedAnswer): Promise<Uint8Array> {
  const s = subtle()
  if (a.handshake !== keys.handshake) throw new SealBroken('answer under another handshake')
  const sign = fromBase64Url(a.sign)
  const data = fromBase64Url(a.data)
  if (!sign || !data || data.length < 28) throw new SealBroken('answer malformed')
  const signed = answerSignText({ method: c.method, path: c.path, requestSign: c.requestSign, status: c.status, type: a.type, timestamp: a.timestamp, handshake: a.handshake, data: a.data })
  if (!(await s.verify('HMAC', keys.mac, buf(sign), text.encode(signed)))) throw new SealBroken('answer sign does not match')
  try {
    return new Uint8Array(await s.decrypt({ name: 'AES-GCM', iv: buf(data.slice(0, 12)), additionalData: text.encode(sealAad('answer', keys.handshake)) }, keys.enc, buf(data.slice(12))))
  } catch {
    throw new SealBroken('answer does not decrypt')
  }
}

/** The socket URL's proof that the token travels with its own handshake. */
export const signSocket = (keys: SealKeys, timestamp: number, token: string) => hmac(keys, socketSignText({ timestamp, handshake: keys.handshake, token }))
