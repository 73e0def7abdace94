// The server's side of the envelope (contract/seal.ts) on node:crypto: synchronous, so a sealed request
// costs microseconds and no extra turn of the event loop. Pure apart from the random bytes, which tests
// pass in to check the vectors the app's side (src/api/sealCrypto.ts) is checked against too.
import crypto, { type KeyObject } from 'node:crypto'
import {
  answerSignHead,
  handshakeTranscript,
  keyInfo,
  requestSignHead,
  sealAad,
  socketSignText,
  type HandshakeAnswer,
  type SealedAnswer,
  type SealedRequest,
} from '../../contract/seal.ts'

export interface HandshakeKeys {
  handshake: string
  enc: Buffer
  mac: Buffer
  expiresAt: number
}

const b64u = (b: Buffer) => b.toString('base64url')

/** The long-term signing key's public half as the app holds it: an uncompressed P-256 point, base64url. */
export function publicKeyOf(signing: KeyObject): string {
  const jwk = crypto.createPublicKey(signing).export({ format: 'jwk' })
  if (jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('the envelope signing key must be an EC P-256 key')
  return b64u(Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]))
}

export interface Randomness {
  /** The server's ephemeral ECDH private key (32 bytes); tests pass one for the vectors. */
  ephemeral?: Buffer
  handshake?: Buffer
  salt?: Buffer
}

/**
 * Answers a client's ephemeral key: a new handshake with its keys, and the answer signed by the
 * long-term key. Null when the client's key is not a point on P-256.
 */
export function acceptHandshake(signing: KeyObject, clientKey: string, now: number, ttlMs: number, r: Randomness = {}): { keys: HandshakeKeys; answer: HandshakeAnswer } | null {
  const ecdh = crypto.createECDH('prime256v1')
  if (r.ephemeral) ecdh.setPrivateKey(r.ephemeral)
  else ecdh.generateKeys()
  let secret: Buffer
  try {
    const theirs = Buffer.from(clientKey, 'base64url')
    if (theirs.length !== 65 || theirs[0] !== 4) return null
    secret = ecdh.computeSecret(theirs)
  } catch {
    return null
  }
  const handshake = b64u(r.handshake ?? crypto.randomBytes(16))
  const serverKey = b64u(ecdh.getPublicKey())
  const salt = r.salt ?? crypto.randomBytes(32)
  const derived = Buffer.from(crypto.hkdfSync('sha256', secret, salt, keyInfo(handshake, clientKey, serverKey), 64))
  const expiresAt = now + ttlMs
  const transcript = handshakeTranscript({ handshake, clientKey, serverKey, salt: b64u(salt), expiresAt, serverTime: now })
  const signature = crypto.sign('sha256', Buffer.from(transcript), { key: signing, dsaEncoding: 'ieee-p1363' })
  return {
    keys: { handshake, enc: derived.subarray(0, 32), mac: derived.subarray(32, 64), expiresAt },
    answer: { handshake, key: serverKey, salt: b64u(salt), expires_at: expiresAt, server_time: now, signature: b64u(signature) },
  }
}

/**
 * HMAC-SHA256 of `head` followed by `data`, base64url. The two are fed apart: joined, the kilobyte of
 * data would be copied into a new string per request only to be hashed.
 */
const sign = (key: Buffer, head: string, data = '') => crypto.createHmac('sha256', key).update(head).update(data).digest('base64url')

/**
 * Whether `given` is the sign `expected`, written the one way base64url writes it. The last letter of
 * 43 carries two unused bits, so the same 32 bytes can be written four ways; the replay store
 * remembers the text, and a copy of a request with another spelling of its sign would pass as new.
 * The texts' UTF-8 bytes are compared (equal bytes, equal texts), so the other spellings fail too.
 */
function sameSign(expected: string, given: string): boolean {
  const e = Buffer.from(expected)
  const g = Buffer.from(given)
  return g.length === e.length && crypto.timingSafeEqual(g, e)
}

/**
 * Each handshake's additional data, as bytes, made once: every sealed request and answer passes one
 * to AES-GCM. Keyed by the keys' object, which the handshake store keeps for as long as it is used.
 */
const aadCache = new WeakMap<HandshakeKeys, { handshake: string; request: Buffer; answer: Buffer }>()
function aadOf(keys: HandshakeKeys, direction: 'request' | 'answer'): Buffer {
  let aad = aadCache.get(keys)
  if (!aad || keys.handshake !== aad.handshake) {
    aad = { handshake: keys.handshake, request: Buffer.from(sealAad('request', keys.handshake)), answer: Buffer.from(sealAad('answer', keys.handshake)) }
    aadCache.set(keys, aad)
  }
  return aad[direction]
}

export interface RequestContext {
  method: string
  path: string
  idempotencyKey: string
}

/** The plaintext of a sealed request; 'sign' when its sign does not match, 'data' when it does not decrypt. */
export function openRequest(keys: HandshakeKeys, c: RequestContext, s: SealedRequest): Buffer | 'sign' | 'data' {
  const expected = sign(keys.mac, requestSignHead({ method: c.method, path: c.path, timestamp: s.timestamp, handshake: s.handshake, idempotencyKey: c.idempotencyKey }), s.data)
  if (!sameSign(expected, s.sign)) return 'sign'
  const raw = Buffer.from(s.data, 'base64url')
  if (raw.length < 28) return 'data'
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', keys.enc, raw.subarray(0, 12))
    d.setAAD(aadOf(keys, 'request'))
    d.setAuthTag(raw.subarray(raw.length - 16))
    const plain = d.update(raw.subarray(12, raw.length - 16))
    // GCM is a stream mode: final() only checks the tag, and its output is empty.
    const rest = d.final()
    return rest.length === 0 ? plain : Buffer.concat([plain, rest])
  } catch {
    return 'data'
  }
}

export interface AnswerContext {
  method: string
  path: string
  requestSign: string
  status: number
  type: string
}

// Every sealed answer needs a random 96-bit IV, and a 12-byte randomBytes call costs more than the
// AES-GCM it feeds: the CSPRNG fills 4,096 at once. Each IV is used at once (copied into the cipher
// and the output) before the pool can be refilled.
const IV_BYTES = 12
const ivPool = Buffer.alloc(IV_BYTES * 4096)
let ivAt = ivPool.length
function freshIv(): Buffer {
  if (ivAt === ivPool.length) {
    crypto.randomFillSync(ivPool)
    ivAt = 0
  }
  ivAt += IV_BYTES
  return ivPool.subarray(ivAt - IV_BYTES, ivAt)
}

/** Seals an answer (its bytes, or its text as UTF-8) to a request opened under these keys; `iv` is for test vectors only. */
export function sealAnswer(keys: HandshakeKeys, c: AnswerContext, plain: Buffer | string, now: number, iv: Buffer = freshIv()): SealedAnswer {
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.enc, iv)
  cipher.setAAD(aadOf(keys, 'answer'))
  const data = b64u(Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]))
  const head = answerSignHead({ method: c.method, path: c.path, requestSign: c.requestSign, status: c.status, type: c.type, timestamp: now, handshake: keys.handshake })
  return { handshake: keys.handshake, timestamp: now, sign: sign(keys.mac, head, data), data, type: c.type }
}

/**
 * A sealed answer as JSON text, the same as JSON.stringify gives. Its handshake, sign and data are
 * base64url and its timestamp an integer, none with anything to escape: JSON.stringify would scan
 * the kilobyte of data for escapes all the same, which costs more than the rest of the answer's JSON.
 */
export function sealedAnswerText(a: SealedAnswer): string {
  return `{"handshake":"${a.handshake}","timestamp":${a.timestamp},"sign":"${a.sign}","data":"${a.data}","type":${JSON.stringify(a.type)}}`
}

/** Whether a socket's sign proves its token travels with this handshake. */
export function socketSigned(keys: HandshakeKeys, timestamp: number, token: string, given: string): boolean {
  return sameSign(sign(keys.mac, socketSignText({ timestamp, handshake: keys.handshake, token })), given)
}

/**
 * Handshake keys rest in the database (every api process must find them) wrapped under a key derived
 * from the long-term signing key: a copy of the database alone does not open anyone's traffic.
 */
export function wrapKeyOf(signing: KeyObject): Buffer {
  const d = signing.export({ format: 'jwk' }).d
  if (!d) throw new Error('the envelope signing key has no private part')
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(d, 'base64url'), Buffer.alloc(0), 'nadi/1 handshake keys at rest', 32))
}

export function wrapKeys(wrapKey: Buffer, keys: HandshakeKeys): string {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', wrapKey, iv)
  cipher.setAAD(Buffer.from(keys.handshake))
  return b64u(Buffer.concat([iv, cipher.update(Buffer.concat([keys.enc, keys.mac])), cipher.final(), cipher.getAuthTag()]))
}

/** The keys a row holds; null when the row was not wrapped by this server's key (another key, or altered). */
export function unwrapKeys(wrapKey: Buffer, handshake: string, wrapped: string, expiresAt: number): HandshakeKeys | null {
  const raw = Buffer.from(wrapped, 'base64url')
  if (raw.length !== 12 + 64 + 16) return null
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', wrapKey, raw.subarray(0, 12))
    d.setAAD(Buffer.from(handshake))
    d.setAuthTag(raw.subarray(76))
    const plain = Buffer.concat([d.update(raw.subarray(12, 76)), d.final()])
    return { handshake, enc: plain.subarray(0, 32), mac: plain.subarray(32, 64), expiresAt }
  } catch {
    return null
  }
}
