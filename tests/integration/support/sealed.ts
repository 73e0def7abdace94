// A sealed client of the API for tests, the fuzz and the bench (issue 20): the app's own envelope code
// (src/api/sealCrypto.ts, WebCrypto in Node) over the server in process (inject) or over HTTP (fetch).
// It makes and renews handshakes, seals requests and opens answers, and can hand a test the pieces
// (seal, send, the keys) to tamper with.
import { Wallet } from 'ethers'
import type { FastifyInstance } from 'fastify'
import { HANDSHAKE_PATH } from '../../../contract/constants.ts'
import type { HandshakeAnswer, SealedRequest } from '../../../contract/seal.ts'
import { beginHandshake, importServerKey, isSealedAnswer, openAnswer, sealRequest, signSocket, type SealKeys } from '../../../src/api/sealCrypto.ts'
import { readEnvelopeKey } from '../../../server/envelopeKey.ts'
import type { Config } from '../../../server/config.ts'
import type { TestServer } from './server.ts'


export interface Answer<T = unknown> {
  status: number
  /** The answer's JSON: opened when it came sealed; as sent when plain (a refusal). Null for a file. */
  body: { code: number; msg: string; data: T }
  headers: Record<string, string>
  /** Whether the answer came sealed (and its sign checked). */
  sealed: boolean
  /** The opened bytes (a file's content for uploadFile), or the plain text. */
  bytes: Uint8Array
  /** The content type inside the envelope (or of the plain answer). */
  type: string
}

export interface RequestOpts {
  query?: Record<string, string | number | boolean>
  body?: unknown
  token?: string
  idempotencyKey?: string
  lang?: string
  /** Seal under these keys instead of the client's current ones. */
  keys?: SealKeys
  /** Instead of the clock's. */
  timestamp?: number
}

/** One HTTP exchange: in process or over the network. */
export type Transport = (method: string, url: string, headers: Record<string, string>, payload?: string) => Promise<{ status: number; headers: Record<string, string>; text: string }>

export function injectTransport(app: FastifyInstance | { inject: FastifyInstance['inject'] }): Transport {
  return async (method, url, headers, payload) => {
    const res = await app.inject({ method: method as 'GET', url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload }) })
    return { status: res.statusCode, headers: res.headers as Record<string, string>, text: res.body }
  }
}

export function fetchTransport(base: string): Transport {
  return async (method, url, headers, payload) => {
    const res = await fetch(`${base}${url}`, { method, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(payload === undefined ? {} : { body: payload }) })
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() }
  }
}

/** The public key a server signs handshakes with, read from its key file as the build reads it. */
export const serverPublicKey = (config: Config) => readEnvelopeKey(config.envelope.keyFile, { create: false }).publicKey

export interface SealedClient {
  /** The current handshake's keys (after handshake() or renew()). */
  readonly keys: SealKeys
  /** A fresh handshake, plain; it becomes the current one. */
  handshake(): Promise<SealKeys>
  /** A renewal sealed under the current (or given) keys with the token; the new keys become current. */
  renew(token: string, from?: SealKeys): Promise<Answer<HandshakeAnswer> & { keys: SealKeys | null }>
  /** A sealed request; its answer opened (a plain answer is returned as is, `sealed: false`). */
  request<T = unknown>(method: 'GET' | 'POST', path: string, o?: RequestOpts): Promise<Answer<T>>
  /** The envelope a request would carry, for tests that change it before sending. */
  seal(method: 'GET' | 'POST', path: string, o?: RequestOpts): Promise<SealedRequest>
  /** Sends an envelope as given (the body of a POST, the query of a GET); opens a sealed answer under `o.keys` or the current keys. */
  send<T = unknown>(method: 'GET' | 'POST', path: string, envelope: Record<string, unknown>, o?: RequestOpts): Promise<Answer<T>>
  /** The /ws query proving the token travels with the current handshake: `token=…&handshake=…&timestamp=…&sign=…`. */
  socketQuery(token: string, timestamp?: number): Promise<string>
  /** Signs a wallet in through sealed loginMessage and login; the token is bound to the current handshake. */
  signIn(code: string, wallet?: Wallet, chainId?: number): Promise<{ token: string; wallet: Wallet }>
}

export interface SealedClientOptions {
  transport: Transport
  /** The server's public key (serverPublicKey(config)). */
  publicKey: string
  /** The clock timestamps are taken from (a test server's clock). */
  now?: () => number
  /** For signIn: the chain sign-in messages name (config.login.chainId). */
  chainId?: number
}

const text = new TextDecoder()

export async function sealedClient(o: SealedClientOptions): Promise<SealedClient> {
  const now = o.now ?? Date.now
  const serverKey = await importServerKey(o.publicKey)
  let current: SealKeys | null = null
  const keys = () => {
    if (!current) throw new Error('no handshake yet: call handshake() first')
    return current
  }

  function headersOf(r: RequestOpts): Record<string, string> {
    const h: Record<string, string> = {}
    if (r.token !== undefined) h.authorization = `Bearer ${r.token}`
    if (r.lang !== undefined) h.lang = r.lang
    if (r.idempotencyKey !== undefined) h['idempotency-key'] = r.idempotencyKey
    return h
  }

  async function seal(method: 'GET' | 'POST', path: string, r: RequestOpts = {}): Promise<SealedRequest> {
    const json = JSON.stringify(method === 'GET' ? (r.query ?? {}) : (r.body ?? null))
    return sealRequest(r.keys ?? keys(), { method, path, timestamp: r.timestamp ?? now(), idempotencyKey: r.idempotencyKey ?? '', json })
  }

  async function send<T>(method: 'GET' | 'POST', path: string, envelope: Record<string, unknown>, r: RequestOpts = {}): Promise<Answer<T>> {
    const url = method === 'GET' ? `${path}?${new URLSearchParams(Object.entries(envelope).map(([k, v]) => [k, String(v)]))}` : path
    const res = await o.transport(method, url, headersOf(r), method === 'GET' ? undefined : JSON.stringify(envelope))
    let parsed: unknown = null
    try {
      parsed = JSON.parse(res.text)
    } catch {
      // Not JSON: neither sealed nor one of ours; the test reads `bytes`.
    }
    if (!isSealedAnswer(parsed)) {
      return { status: res.status, body: parsed as Answer<T>['body'], headers: res.headers, sealed: false, bytes: new TextEncoder().encode(res.text), type: res.headers['content-type'] ?? '' }
    }
    const k = r.keys ?? keys()
    const bytes = await openAnswer(k, { method, path, requestSign: String(envelope.sign), status: res.status }, parsed)
    const isJson = parsed.type.startsWith('application/json')
    return { status: res.status, body: (isJson ? JSON.parse(text.decode(bytes)) : null) as Answer<T>['body'], headers: res.headers, sealed: true, bytes, type: parsed.type }
  }

  const client: SealedClient = {
    get keys() {
      return keys()
    },
    async handshake() {
      const pending = await beginHandshake()
      const res = await o.transport('POST', HANDSHAKE_PATH, { 'content-type': 'application/json' }, JSON.stringify(pending.body))
      if (res.status !== 200) throw new Error(`handshake answered ${res.status}: ${res.text}`)
      current = await pending.finish((JSON.parse(res.text) as { data: HandshakeAnswer }).data, serverKey)
      return current
    },
    async renew(token, from) {
      const pending = await beginHandshake()
      const r: RequestOpts = { body: pending.body, token, keys: from ?? keys() }
      const answer = await send<HandshakeAnswer>('POST', HANDSHAKE_PATH, { ...(await seal('POST', HANDSHAKE_PATH, r)) }, r)
      if (answer.status !== 200 || !answer.sealed) return { ...answer, keys: null }
      current = await pending.finish(answer.body.data, serverKey)
      return { ...answer, keys: current }
    },
    async request(method, path, r = {}) {
      return send(method, path, { ...(await seal(method, path, r)) }, r)
    },
    seal,
    send,
    async socketQuery(token, timestamp = now()) {
      const k = keys()
      const sign = await signSocket(k, timestamp, token)
      return new URLSearchParams({ token, handshake: k.handshake, timestamp: String(timestamp), sign }).toString()
    },
    async signIn(code, wallet = new Wallet(Wallet.createRandom().privateKey), chainId = o.chainId) {
      if (chainId === undefined) throw new Error('signIn needs the chain id (config.login.chainId)')
      const issued = await client.request<{ message: string }>('GET', '/api/v1/auth/loginMessage', { query: { address: wallet.address, chainId, code } })
      if (issued.status !== 200) throw new Error(`loginMessage answered ${issued.status}: ${JSON.stringify(issued.body)}`)
      const { message } = issued.body.data
      const res = await client.request<{ token: string }>('POST', '/api/v1/auth/login', { body: { address: wallet.address, message, sign_message: await wallet.signMessage(message), code } })
      if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`)
      return { token: res.body.data.token, wallet }
    },
  }
  return client
}

/** A sealed client of a test server started with `envelope: true`, on its clock, in process. */
export function sealedClientOf(s: TestServer): Promise<SealedClient> {
  return sealedClient({ transport: injectTransport(s.app), publicKey: serverPublicKey(s.config), now: s.clock.now, chainId: s.config.login.chainId })
}
