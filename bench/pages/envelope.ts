// Bench page: the app's side of the envelope (src/api/sealCrypto.ts, WebCrypto) in Chromium, driven
// by bench/rows/envelope.ts through window.nadiEnvelopeBench. Each timed step is what the app does
// around one placeOrder: seal the request, then check and open the server's sealed answer.

import { fromBase64Url, type SealedAnswer, type SealedRequest } from '../../contract/seal.ts'
import { importKeys, openAnswer, sealRequest, type SealKeys } from '../../src/api/sealCrypto.ts'

export interface EnvelopeInput {
  handshake: string
  /** The 64 derived key bytes (enc ‖ mac), base64url, as the app keeps them across a reload. */
  raw: string
  expiresAt: number
  method: string
  path: string
  idempotencyKey: string
  /** The placeOrder body's JSON. */
  json: string
  /** A sealed answer to the request whose sign is `requestSign`. */
  answer: SealedAnswer
  requestSign: string
}

export interface EnvelopeResult {
  /** Per iteration, µs: sealRequest + openAnswer. */
  micros: number[]
  /** The last request sealed, for the row to open on the server's side (a check the work was real). */
  sealed: SealedRequest
  /** The last answer opened, as text. */
  opened: string
  crossOriginIsolated: boolean
}

let keys: SealKeys | null = null

const bench = {
  async run(input: EnvelopeInput, iterations: number): Promise<EnvelopeResult> {
    keys ??= await importKeys(input.handshake, fromBase64Url(input.raw) as Uint8Array, input.expiresAt)
    const micros: number[] = []
    let sealed: SealedRequest | null = null
    let opened: Uint8Array = new Uint8Array()
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now()
      sealed = await sealRequest(keys, { method: input.method, path: input.path, timestamp: Date.now(), idempotencyKey: input.idempotencyKey, json: input.json })
      opened = await openAnswer(keys, { method: input.method, path: input.path, requestSign: input.requestSign, status: 200 }, input.answer)
      micros.push((performance.now() - t0) * 1000)
    }
    return { micros, sealed: sealed as SealedRequest, opened: new TextDecoder().decode(opened), crossOriginIsolated: globalThis.crossOriginIsolated }
  },
}

declare global {
  interface Window {
    nadiEnvelopeBench?: typeof bench
  }
}

window.nadiEnvelopeBench = bench
document.documentElement.dataset.ready = '1'
