// A sign has one spelling: base64url of 32 bytes ends in a letter with two unused bits, so the same
// bytes can be written four ways. The server's replay store remembers a sign's text, so a request copied
// with its sign spelt another way must be refused as a wrong sign, not taken for a new request.
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openRequest, socketSigned, type HandshakeKeys } from '../../../server/http/sealCrypto.ts'
import { importKeys, sealRequest, signSocket } from '../../../src/api/sealCrypto.ts'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
/** The other spellings of a 43-letter base64url text: the last letter's two low bits set otherwise. */
const respellings = (sign: string) => {
  const last = LETTERS.indexOf(sign[42]!)
  return [1, 2, 3].map((bits) => sign.slice(0, 42) + LETTERS[last ^ bits])
}

const raw = crypto.createHash('sha512').update('nadi sign spelling').digest()
const server: HandshakeKeys = { handshake: 'AAAAAAAAAAAAAAAAAAAAAA', enc: raw.subarray(0, 32), mac: raw.subarray(32), expiresAt: Number.MAX_SAFE_INTEGER }
const context = { method: 'POST', path: '/api/v1/trade/placeOrder', idempotencyKey: '' }

describe('a sign is accepted in its one spelling only', () => {
  it('a request whose sign is respelt with the same bytes is refused as a wrong sign', async () => {
    const app = await importKeys(server.handshake, raw, server.expiresAt)
    const sealed = await sealRequest(app, { ...context, timestamp: 1, json: '{"side":"buy"}' })
    expect(Buffer.isBuffer(openRequest(server, context, sealed))).toBe(true)
    for (const sign of respellings(sealed.sign)) {
      expect(Buffer.from(sign, 'base64url')).toEqual(Buffer.from(sealed.sign, 'base64url'))
      expect(openRequest(server, context, { ...sealed, sign })).toBe('sign')
    }
  })

  it("a socket's proof respelt with the same bytes is refused", async () => {
    const app = await importKeys(server.handshake, raw, server.expiresAt)
    const sign = await signSocket(app, 1, 'token')
    expect(socketSigned(server, 1, 'token', sign)).toBe(true)
    for (const other of respellings(sign)) expect(socketSigned(server, 1, 'token', other)).toBe(false)
  })

  it("a socket's proof in base64's letters ('+', '/') or with a stray letter, which the decoder takes or skips, is refused", async () => {
    const app = await importKeys(server.handshake, raw, server.expiresAt)
    // A proof whose text has a '-' or '_' to respell: found among the first timestamps.
    let timestamp = 1
    let sign = await signSocket(app, timestamp, 'token')
    while (!/[-_]/.test(sign)) sign = await signSocket(app, ++timestamp, 'token')
    expect(socketSigned(server, timestamp, 'token', sign)).toBe(true)
    const base64 = sign.replace(/-/g, '+').replace(/_/g, '/')
    expect(Buffer.from(base64, 'base64url')).toEqual(Buffer.from(sign, 'base64url'))
    for (const other of [base64, `${sign.slice(0, 20)}!${sign.slice(20)}`, `${sign}=`, ` ${sign}`]) expect(socketSigned(server, timestamp, 'token', other)).toBe(false)
  })
})
