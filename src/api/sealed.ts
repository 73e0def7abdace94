// The sealing half of the transport (transport.ts), loaded only with the envelope on: the handshake
// and its renewal, the clock offset, sealing each request and opening each answer (docs/envelope.md,
// design step 9). Fetch, storage, clock and the server's key are injected: the same code runs in the
// browser and in Node.
import { CODE, HANDSHAKE_PATH, SEAL_CODE } from '../../contract/constants.ts'
import { fromBase64Url, toBase64Url, type HandshakeAnswer } from '../../contract/seal.ts'
import { beginHandshake, importKeys, importServerKey, isSealedAnswer, openAnswer, SealBroken, sealRequest, signSocket, type SealKeys } from './sealCrypto.ts'
import { answerJson, fetchAnswer, refusalCode, requestHeaders, type ApiAnswer, type ApiRequest, type Fetch, type KeyValueStore, type SealedSender, type SocketProof } from './transport.ts'

/** A handshake this close to its end is replaced before use, so no request arrives just after it ran out. */
export const RENEW_BEFORE_MS = 30_000
/** Beside the token in session storage: the handshake the token's session is bound to. */
export const HANDSHAKE_KEY = 'handshake'

export interface SealedOptions {
  origin: string
  fetch: Fetch
  storage: KeyValueStore
  now: () => number
  /** The server's long-term public key, base64url (`__NADI_SERVER_KEY__` in the app). */
  serverKey: string
}

interface Stored {
  handshake: string
  keys: string
  expiresAt: number
  offset: number
}

/** A refusal met while making a handshake: it is the answer to the request that needed one. */
class Refused extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(`handshake refused with ${answer.status}`)
  }
}

function handshakeAnswer(v: unknown): HandshakeAnswer {
  const a = v as Partial<Record<keyof HandshakeAnswer, unknown>> | null
  const texts = a && [a.handshake, a.key, a.salt, a.signature].every((x) => typeof x === 'string')
  if (!texts || typeof a.expires_at !== 'number' || typeof a.server_time !== 'number') throw new SealBroken('handshake answer malformed')
  return a as HandshakeAnswer
}

/** The codes after which a request is sent once more, each at most once: a second one is the answer. */
const SEND_AGAIN: readonly number[] = [SEAL_CODE.RENEW, SEAL_CODE.CLOCK]

export function createSealedSender(o: SealedOptions): SealedSender {
  let serverKey: Promise<CryptoKey> | null = null
  let keys: SealKeys | null = null
  let restoring: Promise<SealKeys | null> | null = null
  let making: Promise<SealKeys> | null = null
  /** Server time minus ours, from the handshake's server_time, each answer's timestamp and CLOCK refusals. */
  let offset = 0

  const serverNow = () => o.now() + offset

  function restore(): Promise<SealKeys | null> {
    restoring ??= (async () => {
      const raw = o.storage.get(HANDSHAKE_KEY)
      if (!raw) return null
      try {
        const s = JSON.parse(raw) as Stored
        const bytes = typeof s.keys === 'string' ? fromBase64Url(s.keys) : null
        if (!bytes || bytes.length !== 64 || typeof s.handshake !== 'string' || typeof s.expiresAt !== 'number') throw new Error('corrupt')
        if (typeof s.offset === 'number') offset = s.offset
        keys = await importKeys(s.handshake, bytes, s.expiresAt)
        return keys
      } catch {
        // A corrupt entry is the same as none: a fresh handshake follows.
        o.storage.remove(HANDSHAKE_KEY)
        return null
      }
    })()
    return restoring
  }

  function keep(k: SealKeys) {
    keys = k
    o.storage.set(HANDSHAKE_KEY, JSON.stringify({ handshake: k.handshake, keys: toBase64Url(k.raw), expiresAt: k.expiresAt, offset } satisfies Stored))
  }

  async function finish(pending: Awaited<ReturnType<typeof beginHandshake>>, data: unknown): Promise<SealKeys> {
    const answer = handshakeAnswer(data)
    serverKey ??= importServerKey(o.serverKey)
    const k = await pending.finish(answer, await serverKey)
    offset = answer.server_time - o.now()
    return k
  }

  async function fresh(): Promise<SealKeys> {
    const pending = await beginHandshake()
    const a = await fetchAnswer(o.fetch, new URL(HANDSHAKE_PATH, o.origin), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(pending.body) })
    const body = answerJson(a) as { code?: unknown; data?: unknown } | null
    if (a.status !== 200 || body?.code !== CODE.OK) throw new Refused(a)
    return finish(pending, body.data)
  }

  /** The next handshake asked under the old one with the token bound to it; null when the server will not renew (a fresh one then). */
  async function renew(old: SealKeys, token: string): Promise<SealKeys | null> {
    const pending = await beginHandshake()
    const renewal: ApiRequest = { method: 'POST', path: HANDSHAKE_PATH, body: pending.body, token }
    let a = await exchange(old, renewal)
    // A clock that moved since the last answer: corrected, or the fresh handshake that follows would cost the session.
    if (refusalCode(a) === SEAL_CODE.CLOCK && correctClock(a)) a = await exchange(old, renewal)
    const body = answerJson(a) as { code?: unknown; data?: unknown } | null
    if (a.status !== 200 || body?.code !== CODE.OK) return null
    return finish(pending, body.data)
  }

  /** Keys in place of `stale`: one handshake at a time, shared by every request that needs it. */
  function replace(stale: SealKeys | null, token: string | null): Promise<SealKeys> {
    if (making) return making
    // Another request already replaced them while this one was on the way.
    if (keys && keys !== stale) return Promise.resolve(keys)
    const made = (async () => {
      try {
        const next = (stale && token ? await renew(stale, token) : null) ?? (await fresh())
        keep(next)
        return next
      } finally {
        making = null
      }
    })()
    making = made
    return made
  }

  async function current(token: string | null): Promise<SealKeys> {
    if (making) return making
    const k = keys ?? (await restore())
    if (k && k.expiresAt - serverNow() > RENEW_BEFORE_MS) return k
    return replace(k, token)
  }

  /** Takes the server's time from a CLOCK refusal; false when it holds none. */
  function correctClock(a: ApiAnswer): boolean {
    const serverTime = (answerJson(a) as { data?: { server_time?: unknown } } | null)?.data?.server_time
    if (typeof serverTime !== 'number') return false
    offset = serverTime - o.now()
    return true
  }

  /** One request sealed under `k` and its answer opened; a plain answer passes only as a refusal. */
  async function exchange(k: SealKeys, r: ApiRequest): Promise<ApiAnswer> {
    const sealed = await sealRequest(k, {
      method: r.method,
      path: r.path,
      timestamp: Math.round(serverNow()),
      idempotencyKey: r.idempotencyKey ?? '',
      json: JSON.stringify(r.method === 'POST' ? (r.body ?? {}) : (r.query ?? {})),
    })
    const url = new URL(r.path, o.origin)
    if (r.method === 'GET') for (const [name, value] of Object.entries(sealed)) url.searchParams.set(name, String(value))
    const a = await fetchAnswer(o.fetch, url, { method: r.method, headers: requestHeaders(r), body: r.method === 'POST' ? JSON.stringify(sealed) : null, signal: r.signal ?? null })
    const body = answerJson(a)
    if (!isSealedAnswer(body)) {
      // Refusals come plain (nothing to seal them under yet); a plain 200 is not the server's answer.
      if (a.status === 200) throw new SealBroken('a 200 answer that is not sealed')
      return a
    }
    const bytes = await openAnswer(k, { method: r.method, path: r.path, requestSign: sealed.sign, status: a.status }, body)
    offset = body.timestamp - o.now()
    return { status: a.status, type: body.type, bytes }
  }

  async function send(r: ApiRequest): Promise<ApiAnswer> {
    const token = r.token ?? null
    const tried = new Set<number>()
    try {
      let k = await current(token)
      for (;;) {
        const a = await exchange(k, r)
        const code = refusalCode(a)
        if (code === null || !SEND_AGAIN.includes(code) || tried.has(code)) return a
        tried.add(code)
        if (code === SEAL_CODE.RENEW) k = await replace(k, token)
        else if (!correctClock(a)) return a
      }
    } catch (e) {
      if (e instanceof Refused) return e.answer
      throw e
    }
  }

  async function socketProof(token: string): Promise<SocketProof> {
    // A refused handshake rejects: the socket backs off and tries again.
    const k = await current(token)
    const timestamp = Math.round(serverNow())
    return { handshake: k.handshake, timestamp: String(timestamp), sign: await signSocket(k, timestamp, token) }
  }

  return { send, socketProof }
}
