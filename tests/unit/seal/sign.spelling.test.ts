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
})
