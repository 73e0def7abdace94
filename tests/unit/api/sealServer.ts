// A fake API server for the app's transport tests, sealing as the real one does (docs/envelope.md
// steps 1–4) on the server's own crypto (server/http/sealCrypto.ts), answering through an injected
// fetch. It keeps its own clock, records every request as it arrived, and can be told to refuse, tamper
// or answer plain, so each rule of the app's side can be driven.
import crypto from 'node:crypto'
import { CODE } from '../../../contract/constants.ts'
import { SEAL_CODE, SEAL_WINDOW_MS, type SealedRequest } from '../../../contract/seal.ts'
import { acceptHandshake, openRequest, publicKeyOf, sealAnswer, type HandshakeKeys } from '../../../server/http/sealCrypto.ts'

export interface Arrival {
  method: string
  path: string
  /** The envelope's four fields, when it came sealed. */
  envelope: SealedRequest | null
  token: string | null
  idempotencyKey: string
  /** What the route saw: the opened body or query, or the plain one. */
  opened: unknown
}

interface Answer {
  status: number
  type: string
  body: Buffer
}

const json = (status: number, code: number, msg: string, data: unknown = null): Answer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: Buffer.from(JSON.stringify({ code, msg, data })),
})
const ok = (data: unknown) => json(200, CODE.OK, '', data)

/** The bytes a file route answers with (a PNG's signature and some). */
export const FILE_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 0, 255])

export function sealServer(o: { on?: boolean; now?: number; ttlMs?: number } = {}) {
  const signing = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
  const handshakes = new Map<string, HandshakeKeys>()
  const signs = new Set<string>()
  let tokens = 0

  const server = {
    publicKey: publicKeyOf(signing),
    on: o.on ?? true,
    /** The server's clock. */
    now: o.now ?? 1_700_000_000_000,
    ttlMs: o.ttlMs ?? 600_000,
    /** token → the handshake its session is bound to. */
    sessions: new Map<string, string>(),
    arrivals: [] as Arrival[],
    /** Envelope refusals sent, in order, in place of the next sealed requests' answers. */
    refuseNext: [] as number[],
    /** The next answer's data is altered after sealing. */
    tamperNext: false,
    /** The next answer is sent plain, as a proxy that dropped the envelope would. */
    plainNext: false,
    handshakesMade: () => handshakes.size,
    keysOf: (handshake: string) => handshakes.get(handshake),
    fetch,
  }

  function route(method: string, path: string, input: unknown, token: string | null, handshake: string | null): Answer {
    const key = `${method} ${path}`
    if (key === 'GET /api/v1/common/config') return ok({ demo: false, envelope: server.on })
    if (key === 'GET /api/v1/echo' || key === 'POST /api/v1/echo') return ok({ seen: input, user: token ? 'signed-in' : 'visitor' })
    if (key === 'POST /api/v1/login') {
      const token = `t${++tokens}`
      if (handshake) server.sessions.set(token, handshake)
      return ok({ token })
    }
    if (key === 'POST /api/v1/refuse') return json(400, CODE.INVALID, 'Amount is too small')
    if (key === 'GET /api/v1/common/uploadFile') return { status: 200, type: 'image/png', body: FILE_BYTES }
    return json(404, CODE.NOT_FOUND, 'Not found')
  }

  function handshakeAnswer(clientKey: unknown): { keys: HandshakeKeys; answer: Answer } | null {
    const made = typeof clientKey === 'string' ? acceptHandshake(signing, clientKey, server.now, server.ttlMs) : null
    if (!made) return null
    handshakes.set(made.keys.handshake, made.keys)
    return { keys: made.keys, answer: ok(made.answer) }
  }

  function answerOf(method: string, url: URL, headers: Headers, bodyText: string | null): Answer {
    const path = url.pathname
    const auth = headers.get('authorization')
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null
    const idempotencyKey = headers.get('idempotency-key') ?? ''
    const carried: Record<string, unknown> = method === 'GET' ? Object.fromEntries(url.searchParams) : (JSON.parse(bodyText ?? '{}') as Record<string, unknown>)
    const sealed = typeof carried.handshake === 'string' && typeof carried.sign === 'string'
    const arrival: Arrival = { method, path, envelope: null, token, idempotencyKey, opened: carried }
    server.arrivals.push(arrival)
    const handshakePath = path === '/api/v1/common/handshake'

    if (!sealed) {
      if (handshakePath) return handshakeAnswer(carried.key)?.answer ?? json(400, CODE.INVALID, 'Invalid key')
      if (server.on && path !== '/api/v1/common/config') return json(400, SEAL_CODE.REQUIRED, 'Please try again (sealed)')
      return route(method, path, carried, token, null)
    }
    const envelope: SealedRequest = { handshake: String(carried.handshake), timestamp: Number(carried.timestamp), sign: String(carried.sign), data: String(carried.data) }
    arrival.envelope = envelope
    const refusal = server.refuseNext.shift()
    if (refusal === SEAL_CODE.CLOCK) return json(400, refusal, 'Set your clock', { server_time: server.now })
    if (refusal !== undefined) return json(400, refusal, `Refused ${refusal}`)
    const renewal = handshakePath && token !== null && server.sessions.get(token) === envelope.handshake
    const keys = handshakes.get(envelope.handshake)
    if (!keys || (keys.expiresAt <= server.now && !renewal)) return json(400, SEAL_CODE.RENEW, 'Renew')
    if (Math.abs(envelope.timestamp - server.now) > SEAL_WINDOW_MS) return json(400, SEAL_CODE.CLOCK, 'Set your clock', { server_time: server.now })
    const plain = openRequest(keys, { method, path, idempotencyKey }, envelope)
    if (typeof plain === 'string') return json(400, SEAL_CODE.INVALID, 'Changed on the way')
    if (signs.has(envelope.sign)) return json(400, SEAL_CODE.REPLAY, 'Seen before')
    signs.add(envelope.sign)
    if (token && !renewal && server.sessions.get(token) !== envelope.handshake) return json(401, CODE.UNAUTHORIZED, 'Sign in again (another handshake)')
    const opened: unknown = JSON.parse(plain.toString('utf8'))
    arrival.opened = opened
    let answer: Answer
    if (handshakePath) {
      const made = handshakeAnswer((opened as { key?: unknown }).key)
      if (!made) answer = json(400, CODE.INVALID, 'Invalid key')
      else {
        if (token) server.sessions.set(token, made.keys.handshake)
        answer = made.answer
      }
    } else answer = route(method, path, opened, token, envelope.handshake)
    if (server.plainNext) {
      server.plainNext = false
      return answer
    }
    const out = sealAnswer(keys, { method, path, requestSign: envelope.sign, status: answer.status, type: answer.type }, answer.body, server.now)
    if (server.tamperNext) {
      server.tamperNext = false
      const bytes = Buffer.from(out.data, 'base64url')
      bytes[20]! ^= 1
      out.data = bytes.toString('base64url')
    }
    return { status: answer.status, type: 'application/json; charset=utf-8', body: Buffer.from(JSON.stringify(out)) }
  }

  async function fetch(input: URL, init: RequestInit): Promise<Response> {
    await Promise.resolve() // an answer never comes back in the same turn
    const a = answerOf(init.method ?? 'GET', new URL(input), new Headers(init.headers), typeof init.body === 'string' ? init.body : null)
    return new Response(new Uint8Array(a.body), { status: a.status, headers: { 'content-type': a.type } })
  }

  return server
}
