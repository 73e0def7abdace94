// How an API request leaves and its answer comes back: plain, or in the production envelope
// (contract/seal.ts, docs/envelope.md) once the server says it is on. This half is in the first load
// and holds no crypto: the sealing half (sealed.ts: WebCrypto and the contract's schemas) is made
// only when the envelope is on. Everything outside is injected, so tests, the fuzz and the bench in
// Node send exactly as the app does.
import { CODE, CONFIG_PATH, SEAL_CODE, sealedNever } from '../../contract/constants.ts'

export type Query = Record<string, string | number | boolean>

export interface ApiRequest {
  method: 'GET' | 'POST'
  /** The URL's path, `/api/v1/…`, without a query. */
  path: string
  /** A flat object: with the envelope on it travels sealed, as JSON. */
  query?: Query
  /** POST only. */
  body?: unknown
  token?: string | null
  lang?: string
  /** POST only; a retried request keeps its key, so the action applies once. */
  idempotencyKey?: string
  signal?: AbortSignal
}

/** An answer as the caller reads it: opened when it came sealed, so its type is the one the server sent. */
export interface ApiAnswer {
  status: number
  type: string
  bytes: Uint8Array
}

/** The socket URL's proof that its token travels with the token's own handshake (contract/seal.ts socketSignText). */
export interface SocketProof {
  handshake: string
  timestamp: string
  sign: string
}

/** The sealing half (sealed.ts). */
export interface SealedSender {
  send(r: ApiRequest): Promise<ApiAnswer>
  socketProof(token: string): Promise<SocketProof>
}

export type Fetch = (input: URL, init: RequestInit) => Promise<Response>

export interface KeyValueStore {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
}

/** Headers stay plain either way: the envelope signs the Idempotency-Key, and the token is checked against its handshake. */
export function requestHeaders(r: ApiRequest): Record<string, string> {
  const h: Record<string, string> = {}
  if (r.lang) h.LANG = r.lang
  if (r.token) h.Authorization = `Bearer ${r.token}`
  if (r.method === 'POST') {
    h['Content-Type'] = 'application/json'
    if (r.idempotencyKey) h['Idempotency-Key'] = r.idempotencyKey
  }
  return h
}

export async function fetchAnswer(fetch: Fetch, url: URL, init: RequestInit): Promise<ApiAnswer> {
  const res = await fetch(url, init)
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) }
}

const utf8 = new TextDecoder()
/** The answer's JSON; null when it is not JSON. */
export function answerJson(a: ApiAnswer): unknown {
  try {
    return JSON.parse(utf8.decode(a.bytes))
  } catch {
    return null
  }
}

/** The `{code}` of a refusal (a 400 every envelope refusal comes with); null for any other answer. */
export function refusalCode(a: ApiAnswer): number | null {
  if (a.status !== 400) return null
  const code = (answerJson(a) as { code?: unknown } | null)?.code
  return typeof code === 'number' ? code : null
}

function sendPlain(fetch: Fetch, origin: string, r: ApiRequest): Promise<ApiAnswer> {
  const url = new URL(r.path, origin)
  for (const [k, v] of Object.entries(r.query ?? {})) url.searchParams.set(k, String(v))
  return fetchAnswer(fetch, url, { method: r.method, headers: requestHeaders(r), body: r.method === 'POST' ? JSON.stringify(r.body ?? {}) : null, signal: r.signal ?? null })
}

/**
 * Sent plain even with the envelope on, as the server takes them (docs/envelope.md): the switch itself
 * (so an app that believes the envelope on still learns it was turned off), and what is never sealed.
 */
const sentPlain = (r: ApiRequest) => r.path === CONFIG_PATH || sealedNever(r.method, r.path)

const MODE_KEY = 'envelope'

export interface TransportOptions {
  /** Where `/api/…` lives: the page's origin in the app. */
  origin: string
  fetch: Fetch
  /** Keeps the server's last word on the switch, so a new tab need not ask before its first request. */
  storage?: Pick<KeyValueStore, 'get' | 'set'>
  /** Made on first use with the envelope on (the app loads its code then). */
  sealed: () => SealedSender | Promise<SealedSender>
}

export interface Transport {
  /** Whether the envelope is on; null until the server has said. */
  readonly on: boolean | null
  send(r: ApiRequest): Promise<ApiAnswer>
  sealed(): Promise<SealedSender>
}

/**
 * Learns the switch from common/config's `envelope` (asked first when not yet known, so nothing leaves
 * plain to a server that wants it sealed) or from a REQUIRED refusal, after which the request is sealed
 * and sent once more.
 */
export function createTransport(o: TransportOptions): Transport {
  const stored = o.storage?.get(MODE_KEY)
  let on: boolean | null = stored === 'on' ? true : stored === 'off' ? false : null
  let sender: Promise<SealedSender> | null = null
  let learning: Promise<void> | null = null

  const turn = (value: boolean) => {
    on = value
    o.storage?.set(MODE_KEY, value ? 'on' : 'off')
  }

  function sealed(): Promise<SealedSender> {
    // A failed load (a chunk missed offline) is tried again by the next request.
    sender ??= Promise.resolve()
      .then(o.sealed)
      .catch((e: unknown) => {
        sender = null
        throw e
      })
    return sender
  }

  async function plain(r: ApiRequest): Promise<ApiAnswer> {
    const a = await sendPlain(o.fetch, o.origin, r)
    if (r.path === CONFIG_PATH && a.status === 200) {
      const body = answerJson(a) as { code?: unknown; data?: { envelope?: unknown } } | null
      // A server from before the envelope does not name it: off.
      if (body?.code === CODE.OK) turn(body.data?.envelope === true)
    }
    return a
  }

  function learn(): Promise<void> {
    learning ??= plain({ method: 'GET', path: CONFIG_PATH })
      .then(() => undefined)
      .finally(() => {
        learning = null
      })
    return learning
  }

  async function send(r: ApiRequest): Promise<ApiAnswer> {
    if (sentPlain(r)) return plain(r)
    if (on === null) await learn()
    if (!on) {
      const a = await plain(r)
      if (refusalCode(a) !== SEAL_CODE.REQUIRED) return a
      turn(true)
    }
    return (await sealed()).send(r)
  }

  return {
    get on() {
      return on
    },
    send,
    sealed,
  }
}
