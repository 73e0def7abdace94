// The server in process for integration tests: a real SQLite file in a fresh temp folder, a built
// app shell to serve, a clock the test moves by hand, and a sign-in helper that goes through the
// real SIWE flow with an ethers wallet.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import { afterEach, expect } from 'vitest'
import { Wallet } from 'ethers'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type Built } from '../../../server/app.ts'
import { loadConfig, type Config } from '../../../server/config.ts'
import { BUILT_KEY_FILE, readEnvelopeKey } from '../../../server/envelopeKey.ts'
import { audit } from '../../../server/ledger/index.ts'
import type { Sql } from '../../../server/db/query/types.ts'
import type { ApiEnvelope } from '../../../contract/envelope.ts'
import type { LoginMessage, LoginResult } from '../../../contract/auth.ts'
import type { LangCode } from '../../../contract/constants.ts'
import { statement } from '../../../server/db/query/types.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../../support/pg.ts'

export const ROOT_CODE = 'ROOT0001'
/** 2026-03-10 12:00 UTC: inside a UTC day with room on both sides, before the configured chain notice. */
export const T0 = Date.UTC(2026, 2, 10, 12, 0, 0)
export const INDEX_HTML = '<!doctype html><html><head><title>NADI test shell</title></head><body><div id="root"></div></body></html>'
export const ASSET_JS = 'export const x = "abc";\n'

export interface Clock {
  now(): number
  /** Moves time forward (or back with a negative ms). */
  advance(ms: number): void
  set(t: number): void
}

export function movableClock(start = T0): Clock {
  let t = start
  return {
    now: () => t,
    advance: (ms) => void (t += ms),
    set: (v) => void (t = v),
  }
}

export interface StartOptions {
  /** Extra environment, merged over the test defaults (e.g. NADI_LOGIN_PER_ADDRESS). */
  env?: Record<string, string>
  /** Start of the movable clock. */
  start?: number
  /** On SQLite whatever the run's backend (a test of SQLite's own backup, or of the move from it). */
  sqlite?: boolean
  /**
   * The production envelope on (issue 20): a signing key in the temp folder (or NADI_ENVELOPE_KEY_FILE's),
   * and the shell in dist/ built with it. Talk to it with tests/integration/support/sealed.ts.
   */
  envelope?: boolean
}

export interface RequestOptions {
  token?: string
  lang?: LangCode | string
  idempotencyKey?: string
  headers?: Record<string, string>
  /** Source address of the request, for per-IP limits. */
  ip?: string
}

export interface SignedIn {
  token: string
  wallet: Wallet
  /** Checksummed. */
  address: string
  userId: number
}

export type Res<T = unknown> = LightMyRequestResponse & { body_: ApiEnvelope<T> }

export interface TestServer extends Built {
  clock: Clock
  config: Config
  /** The temp folder holding the database and the app shell. */
  dir: string
  distDir: string
  get<T = unknown>(url: string, opts?: RequestOptions): Promise<Res<T>>
  post<T = unknown>(url: string, body?: unknown, opts?: RequestOptions): Promise<Res<T>>
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>
  /** GET /api/v1/auth/loginMessage for a wallet, with an optional invite code. */
  loginMessage(wallet: Wallet | string, code?: string, opts?: RequestOptions): Promise<Res<LoginMessage>>
  /** POST /api/v1/auth/login with an arbitrary body. */
  login(body: unknown, opts?: RequestOptions): Promise<Res<LoginResult>>
  /** Registers (or signs in) a wallet through the whole SIWE flow; a fresh wallet when none is given. */
  signIn(code?: string, wallet?: Wallet): Promise<SignedIn>
  /** One number from SQL, e.g. count('SELECT COUNT(*) FROM users WHERE inviter_id = ?', 1). */
  count(sqlText: string, ...params: unknown[]): Promise<number>
  /** Listens on a random local port (once; later calls reuse it); returns the base URL (http://127.0.0.1:port). */
  listen(): Promise<string>
  close(): Promise<void>
}

export const freshWallet = () => new Wallet(`0x${crypto.randomBytes(32).toString('hex')}`)
export const idemKey = () => crypto.randomUUID()

function headersOf(opts: RequestOptions = {}): Record<string, string> {
  const h: Record<string, string> = { ...opts.headers }
  if (opts.token !== undefined) h.authorization = `Bearer ${opts.token}`
  if (opts.lang !== undefined) h.lang = opts.lang
  if (opts.idempotencyKey !== undefined) h['idempotency-key'] = opts.idempotencyKey
  return h
}

function withBody<T>(res: LightMyRequestResponse): Res<T> {
  let parsed: ApiEnvelope<T> | undefined
  return Object.defineProperty(res, 'body_', {
    get() {
      parsed ??= JSON.parse(res.body) as ApiEnvelope<T>
      return parsed
    },
  }) as Res<T>
}

/** Builds the app on a temp folder. Prefer `useServers()` in tests so every server is closed. */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-it-'))
  const distDir = path.join(dir, 'dist')
  fs.mkdirSync(path.join(distDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(distDir, 'index.html'), INDEX_HTML)
  fs.writeFileSync(path.join(distDir, 'assets', 'x-abc.js'), ASSET_JS)
  const envelopeEnv: Record<string, string> = {}
  if (opts.envelope) {
    envelopeEnv.NADI_ENVELOPE = 'on'
    envelopeEnv.NADI_ENVELOPE_KEY_FILE = opts.env?.NADI_ENVELOPE_KEY_FILE ?? path.join(dir, 'envelope-key.pem')
    fs.writeFileSync(path.join(distDir, BUILT_KEY_FILE), readEnvelopeKey(envelopeEnv.NADI_ENVELOPE_KEY_FILE, { create: true }).publicKey)
  }
  // On the PostgreSQL run every server gets a database of its own, dropped when it closes.
  const pg: TestDatabase | null = testBackend() === 'postgres' && !opts.sqlite && !opts.env?.NADI_DATABASE_URL ? freshDatabase() : null

  const config = loadConfig(
    {
      NADI_ENV: 'test',
      NADI_DATA_DIR: path.join(dir, 'data'),
      NADI_ROOT_INVITE_CODE: ROOT_CODE,
      NADI_DIST_DIR: distDir,
      // Tests sign many wallets in from one address; the per-IP limit has its own tests.
      NADI_LOGIN_PER_IP: '100000',
      NADI_LOGIN_PER_ADDRESS: '1000',
      ...(pg ? { NADI_DATABASE_URL: pg.url } : {}),
      ...envelopeEnv,
      ...opts.env,
    },
    process.cwd(),
  )
  const clock = movableClock(opts.start)
  let built: Built
  try {
    built = await buildApp({ config, now: clock.now })
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true })
    pg?.drop()
    throw err
  }
  const { app, ctx, rootInviteCode } = built
  let closed = false
  let baseUrl: Promise<string> | undefined

  const server: TestServer = {
    ...built,
    clock,
    config,
    dir,
    distDir,
    inject: (o) => app.inject(o),
    async get<T>(url: string, o: RequestOptions = {}) {
      const res = await app.inject({ method: 'GET', url, headers: headersOf(o), ...(o.ip ? { remoteAddress: o.ip } : {}) })
      return withBody<T>(res)
    },
    async post<T>(url: string, body?: unknown, o: RequestOptions = {}) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: headersOf(o),
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
        ...(o.ip ? { remoteAddress: o.ip } : {}),
      })
      return withBody<T>(res)
    },
    loginMessage(wallet, code, o) {
      const address = typeof wallet === 'string' ? wallet : wallet.address
      const qs = new URLSearchParams({ address, chainId: String(config.login.chainId) })
      if (code !== undefined) qs.set('code', code)
      return server.get<LoginMessage>(`/api/v1/auth/loginMessage?${qs}`, o)
    },
    login(body, o) {
      return server.post<LoginResult>('/api/v1/auth/login', body, o)
    },
    async signIn(code = rootInviteCode, wallet = freshWallet()) {
      const issued = await server.loginMessage(wallet, code)
      if (issued.statusCode !== 200) throw new Error(`loginMessage answered ${issued.statusCode}: ${issued.body}`)
      const { message } = issued.body_.data
      const res = await server.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message), code })
      if (res.statusCode !== 200) throw new Error(`login answered ${res.statusCode}: ${res.body}`)
      const userId = await server.count('SELECT id FROM users WHERE wallet_address = ?', wallet.address.toLowerCase())
      return { token: res.body_.data.token, wallet, address: wallet.address, userId }
    },
    async count(sqlText, ...params) {
      // The first column of the first row, whatever it is named.
      const row = await ctx.sql.get(statement<Record<string, unknown>>(sqlText), ...params)
      const v = row === undefined ? undefined : Object.values(row)[0]
      return v === undefined || v === null ? 0 : Number(v)
    },
    async listen() {
      baseUrl ??= app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
        const addr = app.server.address()
        if (!addr || typeof addr === 'string') throw new Error('no TCP address')
        return `http://127.0.0.1:${addr.port}`
      })
      return baseUrl
    },
    async close() {
      if (closed) return
      closed = true
      try {
        await app.close()
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
        pg?.drop()
      }
    },
  }
  return server
}

/** A start function whose servers are all closed (and their folders removed) after each test. */
/** A check of a server's books when its test ends: the problems it finds (none expected). */
export type BooksCheck = (q: Sql) => Promise<readonly unknown[]>

/**
 * Starts servers for a file's tests and closes them after each test. With `audited`, each server's
 * books are checked first — the ledger audit (every asset sums to zero, nothing negative, frozen =
 * holders) and any feature's own checks (settlement, ranking) — so every test ends on clean books.
 */
export function useServers(defaults: StartOptions = {}, opts: { audited?: boolean; checks?: BooksCheck[] } = {}) {
  const open: TestServer[] = []
  afterEach(async () => {
    const servers = open.splice(0)
    try {
      if (opts.audited) {
        for (const s of servers) {
          expect((await audit(s.ctx.sql)).violations).toEqual([])
          for (const check of opts.checks ?? []) expect(await check(s.ctx.sql)).toEqual([])
        }
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()))
    }
  })
  return async (opts: StartOptions = {}): Promise<TestServer> => {
    const s = await startServer({ ...defaults, ...opts, env: { ...defaults.env, ...opts.env } })
    open.push(s)
    return s
  }
}

/** The text of a locale key in a locale file, read from disk the way the server reads it. */
export function localeText(file: string, key: string): string {
  const tree = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../locales', `${file}.json`), 'utf8')) as Record<string, unknown>
  let node: unknown = tree
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part]
  if (typeof node !== 'string') throw new Error(`no ${key} in locales/${file}.json`)
  return node
}
