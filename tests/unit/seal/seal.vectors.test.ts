// The envelope both ways against fixed vectors: the server's side (node:crypto) and the app's side
// (WebCrypto) must agree byte for byte on the keys a handshake derives, on what a request and an
// answer seal to, and each must refuse what the other did not send.
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { acceptHandshake, openRequest, publicKeyOf, sealAnswer, socketSigned, unwrapKeys, wrapKeyOf, wrapKeys } from '../../../server/http/sealCrypto.ts'
import { beginHandshake, importKeys, importServerKey, openAnswer, SealBroken, sealRequest, signSocket } from '../../../src/api/sealCrypto.ts'
import { fromBase64Url, toBase64Url } from '../../../contract/seal.ts'

const sha = (s: string) => crypto.createHash('sha256').update(s).digest()
function jwkOf(priv: Buffer) {
  const e = crypto.createECDH('prime256v1')
  e.setPrivateKey(priv)
  const p = e.getPublicKey()
  return { kty: 'EC', crv: 'P-256', d: priv.toString('base64url'), x: p.subarray(1, 33).toString('base64url'), y: p.subarray(33).toString('base64url') }
}

const signing = crypto.createPrivateKey({ key: jwkOf(sha('nadi vector long-term')), format: 'jwk' })
const clientJwk = jwkOf(sha('nadi vector client'))
const NOW = 1_800_000_000_000
const randomness = { ephemeral: sha('nadi vector server ephemeral'), handshake: sha('hs').subarray(0, 16), salt: sha('salt') }

/** Computed once from the definitions in contract/seal.ts; a change to either side that alters a byte fails here. */
const V = {
  publicKey: 'BCh3EUbEgFx-v1te0O0NUj0fLy4C8OkdoO8C1I-KBC1PuC9jxnIrg_tD5xY5pYHQmKNjLiGfIegdm01HpS3dy2Q',
  clientKey: 'BFnAfDsSSoTwOIioTOb-Fx2rBX-2RaO-46HuUwSmfreu9V6SO5Kk6lvU9B4CrLWGjFkeFslkQ2RGCj2wNJVNbGU',
  handshake: 'eA-GdFdGk0x7SwQhzrnSvg',
  serverKey: 'BBBaKnz6a2iQMUm1W2wev8vhnzmrUIhO9hIG-olrI-x6ZdmA4DJchNDJjGmwfwXeHOB1XYaC-GbLAvghQon4u_o',
  enc: '0ea7024df3df138bce9f87d08588e815520370f9b42510bc36d3ee7f77e746bf',
  mac: '3b3e8a7c34a9a6a3691c91273c3665e911ada2024138084a23b9bcefdbcde6eb',
  request: {
    json: '{"symbol":"NADI-USDT"}',
    data: 'CrMGgjA1Zhu426IcWtqM0vez1hv06LmHOntIF_DZm-os0Ww_Fs8wpRXACU14DSy4fVQ',
    sign: 'DPloNuFiz0sijU6krSFouHi1CJcVq_NdZaeJIUqNqYU',
  },
  answer: {
    json: '{"code":200,"msg":"ok","data":null}',
    data: 'wThnW9N8fkkxgmSrcT9qG6CqhF-Es2WEiMMxH3x515-ivF55-U4ZAUciNAC2BTpWfEP2EZ23bjsdjWhEExKU',
    sign: '7q6bTupIK0TCKOjEzehU3x7l6BAU2iJI46QYoB5n4Ug',
  },
}
const IV_REQUEST = sha('iv').subarray(0, 12)
const IV_ANSWER = sha('iv2').subarray(0, 12)
const PLACE = { method: 'POST', path: '/api/v1/trade/placeOrder', idempotencyKey: 'key-12345678' }

// The app's key pair, made with the global WebCrypto as a page makes it (node:crypto's `subtle` types
// its keys as Node's own CryptoKey, which the app's DOM-typed code does not take).
async function clientPair(): Promise<CryptoKeyPair> {
  const { subtle } = globalThis.crypto
  const privateKey = await subtle.importKey('jwk', clientJwk, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])
  const { d: _d, ...pub } = clientJwk
  const publicKey = await subtle.importKey('jwk', pub, { name: 'ECDH', namedCurve: 'P-256' }, true, [])
  return { privateKey, publicKey }
}

async function handshakeBothWays() {
  const pending = await beginHandshake(await clientPair())
  const accepted = acceptHandshake(signing, pending.body.key, NOW, 600_000, randomness)!
  const keys = await pending.finish(accepted.answer, await importServerKey(publicKeyOf(signing)))
  return { pending, accepted, keys }
}

describe('the handshake', () => {
  it('derives the same keys on both sides, and the vectors', async () => {
    const { pending, accepted, keys } = await handshakeBothWays()
    expect(publicKeyOf(signing)).toBe(V.publicKey)
    expect(pending.body.key).toBe(V.clientKey)
    expect(accepted.answer).toMatchObject({ handshake: V.handshake, key: V.serverKey, expires_at: NOW + 600_000, server_time: NOW })
    expect(accepted.keys.enc.toString('hex')).toBe(V.enc)
    expect(accepted.keys.mac.toString('hex')).toBe(V.mac)
    expect(Buffer.from(keys.raw).toString('hex')).toBe(V.enc + V.mac)
    expect(keys.handshake).toBe(V.handshake)
  })

  it('the app refuses an answer not signed by the key built into it, or changed after signing', async () => {
    const pending = await beginHandshake(await clientPair())
    const { answer } = acceptHandshake(signing, pending.body.key, NOW, 600_000)!
    const other = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    await expect(pending.finish(answer, await importServerKey(publicKeyOf(other)))).rejects.toBeInstanceOf(SealBroken)
    const server = await importServerKey(publicKeyOf(signing))
    // A man in the middle swapping in his own ephemeral key, or stretching the expiry, breaks the signature.
    const mitm = acceptHandshake(other, pending.body.key, NOW, 600_000)!.answer
    await expect(pending.finish({ ...answer, key: mitm.key }, server)).rejects.toBeInstanceOf(SealBroken)
    await expect(pending.finish({ ...answer, expires_at: answer.expires_at + 1 }, server)).rejects.toBeInstanceOf(SealBroken)
    await expect(pending.finish(answer, server)).resolves.toMatchObject({ handshake: answer.handshake })
  })

  it('the server refuses a client key that is not a P-256 point', () => {
    for (const key of ['', 'AAAA', toBase64Url(new Uint8Array(65)), toBase64Url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 7)))]) {
      expect(acceptHandshake(signing, key, NOW, 600_000), key).toBeNull()
    }
  })
})

describe('a request', () => {
  it('seals to the vector in the app and opens on the server', async () => {
    const { accepted, keys } = await handshakeBothWays()
    const sealed = await sealRequest(keys, { ...PLACE, timestamp: NOW + 1000, json: V.request.json }, IV_REQUEST)
    expect(sealed).toEqual({ handshake: V.handshake, timestamp: NOW + 1000, sign: V.request.sign, data: V.request.data })
    expect(openRequest(accepted.keys, PLACE, sealed)).toEqual(Buffer.from(V.request.json))
  })

  it('is refused by the server when anything signed is changed: data, sign, method, path, timestamp, key', async () => {
    const { accepted, keys } = await handshakeBothWays()
    const sealed = await sealRequest(keys, { ...PLACE, timestamp: NOW + 1000, json: V.request.json })
    const flip = (s: string) => (s[5] === 'A' ? s.slice(0, 5) + 'B' + s.slice(6) : s.slice(0, 5) + 'A' + s.slice(6))
    expect(openRequest(accepted.keys, PLACE, { ...sealed, data: flip(sealed.data) })).toBe('sign')
    expect(openRequest(accepted.keys, PLACE, { ...sealed, sign: flip(sealed.sign) })).toBe('sign')
    expect(openRequest(accepted.keys, PLACE, { ...sealed, timestamp: sealed.timestamp + 1 })).toBe('sign')
    expect(openRequest(accepted.keys, { ...PLACE, method: 'GET' }, sealed)).toBe('sign')
    expect(openRequest(accepted.keys, { ...PLACE, path: '/api/v1/trade/cancelOrder' }, sealed)).toBe('sign')
    expect(openRequest(accepted.keys, { ...PLACE, idempotencyKey: 'key-99999999' }, sealed)).toBe('sign')
    // Signed correctly but not by these keys' ciphertext: a MAC key holder cannot forge the AES-GCM tag.
    const wrongEnc = { ...accepted.keys, enc: Buffer.alloc(32, 1) }
    expect(openRequest(wrongEnc, PLACE, sealed)).toBe('data')
  })
})

describe('an answer', () => {
  it('seals to the vector on the server and opens in the app', async () => {
    const { accepted, keys } = await handshakeBothWays()
    const c = { method: 'POST', path: PLACE.path, requestSign: V.request.sign, status: 200 }
    const sealed = sealAnswer(accepted.keys, { ...c, type: 'application/json' }, Buffer.from(V.answer.json), NOW + 1500, IV_ANSWER)
    expect(sealed).toEqual({ handshake: V.handshake, timestamp: NOW + 1500, sign: V.answer.sign, data: V.answer.data, type: 'application/json' })
    expect(new TextDecoder().decode(await openAnswer(keys, c, sealed))).toBe(V.answer.json)
  })

  it('is refused by the app when moved to another request, given another status, or changed', async () => {
    const { accepted, keys } = await handshakeBothWays()
    const c = { method: 'POST', path: PLACE.path, requestSign: V.request.sign, status: 200 }
    const sealed = sealAnswer(accepted.keys, { ...c, type: 'application/json' }, Buffer.from(V.answer.json), NOW)
    await expect(openAnswer(keys, { ...c, requestSign: V.answer.sign }, sealed)).rejects.toBeInstanceOf(SealBroken)
    await expect(openAnswer(keys, { ...c, status: 401 }, sealed)).rejects.toBeInstanceOf(SealBroken)
    await expect(openAnswer(keys, c, { ...sealed, type: 'text/html' })).rejects.toBeInstanceOf(SealBroken)
    await expect(openAnswer(keys, c, { ...sealed, data: sealed.data.slice(0, -2) + 'AA' })).rejects.toBeInstanceOf(SealBroken)
    await expect(openAnswer(keys, c, { ...sealed, handshake: 'AAAAAAAAAAAAAAAAAAAAAA' })).rejects.toBeInstanceOf(SealBroken)
    // A request's own ciphertext reflected back as the answer does not decrypt (other additional data).
    const req = await sealRequest(keys, { ...PLACE, timestamp: NOW, json: V.answer.json })
    const reflected = sealAnswer(accepted.keys, { ...c, type: 'application/json' }, Buffer.alloc(0), NOW)
    await expect(openAnswer(keys, c, { ...reflected, data: req.data })).rejects.toBeInstanceOf(SealBroken)
  })
})

describe('keys at rest and the socket', () => {
  it('wrapped keys open only under the same signing key and handshake id', () => {
    const keys = acceptHandshake(signing, V.clientKey, NOW, 1000, randomness)!.keys
    const wrapped = wrapKeys(wrapKeyOf(signing), keys)
    expect(unwrapKeys(wrapKeyOf(signing), keys.handshake, wrapped, keys.expiresAt)).toEqual(keys)
    expect(unwrapKeys(wrapKeyOf(signing), 'BBBBBBBBBBBBBBBBBBBBBB', wrapped, keys.expiresAt)).toBeNull()
    const other = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    expect(unwrapKeys(wrapKeyOf(other), keys.handshake, wrapped, keys.expiresAt)).toBeNull()
  })

  it("a socket's sign holds for its own token and timestamp only", async () => {
    const { accepted, keys } = await handshakeBothWays()
    const sign = await signSocket(keys, NOW, 'token-abcdefghijklmnopqrstuvwxyz')
    expect(socketSigned(accepted.keys, NOW, 'token-abcdefghijklmnopqrstuvwxyz', sign)).toBe(true)
    expect(socketSigned(accepted.keys, NOW, 'token-of-someone-else-entirely', sign)).toBe(false)
    expect(socketSigned(accepted.keys, NOW + 1, 'token-abcdefghijklmnopqrstuvwxyz', sign)).toBe(false)
  })

  it('keys restored from their raw bytes seal the same', async () => {
    const { keys } = await handshakeBothWays()
    const again = await importKeys(keys.handshake, keys.raw, keys.expiresAt)
    const a = await sealRequest(keys, { ...PLACE, timestamp: NOW, json: '{}' }, IV_REQUEST)
    const b = await sealRequest(again, { ...PLACE, timestamp: NOW, json: '{}' }, IV_REQUEST)
    expect(b).toEqual(a)
  })
})

describe('base64url', () => {
  it('round-trips every length and refuses what is not base64url', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = crypto.randomBytes(n)
      const t = toBase64Url(bytes)
      expect(t).toBe(bytes.toString('base64url'))
      expect(Buffer.from(fromBase64Url(t)!)).toEqual(bytes)
    }
    expect(fromBase64Url('ab+c')).toBeNull()
    expect(fromBase64Url('abcde')).toBeNull()
    expect(fromBase64Url('ab=c')).toBeNull()
  })
})
