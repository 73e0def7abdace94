// The server reads a sealed request's body and writes a sealed answer's text without the generic JSON
// functions (server/http/seal.ts, sealCrypto.ts): what it reads must be exactly what JSON.parse and the
// schema would let through, and what it writes exactly what JSON.stringify writes.
import crypto from 'node:crypto'
import { Compile } from 'typebox/compile'
import { describe, expect, it } from 'vitest'
import { SealedRequest } from '../../../contract/seal.ts'
import { readSealedBody } from '../../../server/http/seal.ts'
import { sealAnswer, sealedAnswerText, type HandshakeKeys } from '../../../server/http/sealCrypto.ts'
import { importKeys, sealRequest } from '../../../src/api/sealCrypto.ts'

const raw = crypto.createHash('sha512').update('nadi sealed text').digest()
const keys: HandshakeKeys = { handshake: 'AAAAAAAAAAAAAAAAAAAAAA', enc: raw.subarray(0, 32), mac: raw.subarray(32), expiresAt: Number.MAX_SAFE_INTEGER }
const context = { method: 'POST', path: '/api/v1/trade/placeOrder', idempotencyKey: 'key-12345678' }
const schema = Compile(SealedRequest)

async function sealedBody(timestamp: number): Promise<string> {
  const app = await importKeys(keys.handshake, raw, keys.expiresAt)
  return JSON.stringify(await sealRequest(app, { ...context, timestamp, json: '{"side":"buy","size":"1.5"}' }))
}

describe('a sealed request body read without JSON.parse', () => {
  it('is, for every body the app writes, the object JSON.parse gives, and passes the schema', async () => {
    for (const timestamp of [0, 1, 1_800_000_000_000, Number.MAX_SAFE_INTEGER]) {
      const text = await sealedBody(timestamp)
      const read = readSealedBody(text)
      expect(read).not.toBeNull()
      expect({ ...read }).toEqual(JSON.parse(text))
      expect(schema.Check(read)).toBe(true)
    }
  })

  it('leaves every other spelling to JSON.parse and the schema', async () => {
    const text = await sealedBody(1_800_000_000_000)
    const o = JSON.parse(text) as SealedRequest
    const others = [
      JSON.stringify(o, null, 1),
      JSON.stringify({ timestamp: o.timestamp, handshake: o.handshake, sign: o.sign, data: o.data }),
      JSON.stringify({ ...o, extra: 1 }),
      JSON.stringify({ handshake: o.handshake, timestamp: o.timestamp, sign: o.sign }),
      text.replace(`"handshake":"${o.handshake[0]}`, `"handshake":"\\u00${o.handshake.charCodeAt(0).toString(16)}`),
      text.replace(`"timestamp":${o.timestamp}`, `"timestamp":0${o.timestamp}`),
      text.replace(`"timestamp":${o.timestamp}`, `"timestamp":${o.timestamp}.0`),
      text.replace(`"timestamp":${o.timestamp}`, `"timestamp":-${o.timestamp}`),
      text.replace(`"timestamp":${o.timestamp}`, `"timestamp":${2 ** 53}`),
      text.replace(`"sign":"${o.sign}`, `"sign":"${o.sign}A`),
      text.replace(`"data":"`, `"data":"+`),
      `${text} `,
    ]
    for (const other of others) expect(readSealedBody(other)).toBeNull()
  })
})

describe('a sealed answer written without JSON.stringify', () => {
  it('is the text JSON.stringify gives, whatever its content type', () => {
    for (const type of ['application/json; charset=utf-8', 'image/webp', 'text/plain; name="a\\"b"', 'x/ü\u2028']) {
      const answer = sealAnswer(keys, { ...context, requestSign: 'A'.repeat(43), status: 200, type }, '{"code":200,"msg":"OK","data":null}', 1_800_000_000_000)
      expect(sealedAnswerText(answer)).toBe(JSON.stringify(answer))
    }
  })
})
