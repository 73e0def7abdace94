// The production envelope on the server (issue 20, docs/envelope.md): every /api/ request but a few
// arrives sealed under a handshake bound to the caller's session, and its answer leaves sealed under the
// same keys. A preValidation hook opens the request — after Fastify has parsed the envelope (a body in
// the app's spelling read by readSealedBody, any other by JSON.parse) and before the route's schema sees
// the real body or query — so validation, idempotency and the handler run as for a plain request; an
// onSend hook seals whatever the route answered, errors and files included.
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { Compile } from 'typebox/compile'
import { CODE, CONFIG_PATH, HANDSHAKE_PATH, sealedNever } from '../../contract/constants.ts'
import { Envelope } from '../../contract/envelope.ts'
import { HandshakeAnswer, HandshakeBody, SEAL_CODE, SEAL_WINDOW_MS, SealedRequest } from '../../contract/seal.ts'
import type { Ctx } from '../context.ts'
import { builtEnvelopeKey, readEnvelopeKey, type EnvelopeKey } from '../envelopeKey.ts'
import { translate } from '../i18n.ts'
import type { AuthService } from '../modules/auth/service.ts'
import { BODY_DEPTH_MAX, bodyProblem } from './body.ts'
import { invalidField, tooMany, unauthorized } from './errors.ts'
import { StoredLimiter } from './rateLimit.ts'
import { ok } from './reply.ts'
import { openRequest, sealAnswer, sealedAnswerText, socketSigned, type HandshakeKeys } from './sealCrypto.ts'
import { handshakeStore, memoryReplayStore, tableReplayStore, type HandshakeStore, type ReplayStore } from './sealStore.ts'
import type { EnvelopeSettings } from './settings.ts'
import type { App } from './types.ts'

/** Routes that take either: the app learns the switch from common/config before sealing anything, and a handshake is made plain or renewed sealed. */
const PLAIN_OR_SEALED = new Set([`GET ${CONFIG_PATH}`, `POST ${HANDSHAKE_PATH}`])

const sealedRequest = Compile(SealedRequest)

const JSON_TYPE = 'application/json; charset=utf-8'
/** Headers that describe a plain body: a sealed answer is another body. */
const PLAIN_ONLY_HEADERS = ['content-length', 'etag', 'last-modified', 'content-disposition', 'vary']

/** A start refused for the envelope's key: said in one line (server/main.ts), not as a crash. */
export class EnvelopeRefused extends Error {}

/**
 * The server's signing key, with the envelope on: in production it must exist (the app was built with
 * its public half); elsewhere one is made when missing. A built app beside the server that carries
 * another key (or none) could make no handshake: the server refuses to start, naming both.
 */
export function openEnvelopeKey(settings: EnvelopeSettings, opts: { production: boolean; distDir: string }): EnvelopeKey {
  let key: EnvelopeKey
  try {
    key = readEnvelopeKey(settings.keyFile, { create: !opts.production })
  } catch (e) {
    throw new EnvelopeRefused((e as Error).message)
  }
  if (fs.existsSync(path.join(opts.distDir, 'index.html'))) {
    const built = builtEnvelopeKey(opts.distDir)
    if (built !== key.publicKey) {
      throw new EnvelopeRefused(
        `the app in ${opts.distDir} was built with envelope key ${built ?? '(none)'} but this server signs with ${key.publicKey} (${settings.keyFile}): build the app with the same NADI_ENVELOPE_KEY_FILE`,
      )
    }
  }
  return key
}

export interface Envelope {
  handshakes: HandshakeStore
  replays: ReplayStore
}

/** Why the hook refuses a request: plain until it is opened (nothing to seal it under), sealed once req.seal is set. */
interface Refusal {
  status: number
  code: number
  key: string
  data?: unknown
  params?: Record<string, string | number>
}

/** What opening a request comes to: passed (null) or refused, at once or after the database. */
type Opened = Refusal | null | Promise<Refusal | null>

/** A sealed request read, about to be opened under its handshake's keys. */
interface Unopened {
  req: FastifyRequest
  /** `METHOD /route` */
  id: string
  get: boolean
  sealed: SealedRequest
  now: number
}

const refusal = (status: number, code: number, key: string, o: Omit<Refusal, 'status' | 'code' | 'key'> = {}): Refusal => ({ status, code, key, ...o })

/** A GET's four envelope params as the schema wants them: the timestamp arrives as text. */
function envelopeOfQuery(q: Record<string, unknown>): unknown {
  const ts = q.timestamp
  return typeof ts === 'string' && /^\d{1,16}$/.test(ts) ? { ...q, timestamp: Number(ts) } : q
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A sealed body as the app writes it (JSON.stringify of a SealedRequest): its fields in their order, no spaces, the timestamp without a sign, fraction, exponent or leading zero. */
const SEALED_BODY = /^\{"handshake":"([A-Za-z0-9_-]{22})","timestamp":(0|[1-9][0-9]{0,15}),"sign":"([A-Za-z0-9_-]{43})","data":"([A-Za-z0-9_-]+)"\}$/

/** A request body read by readSealedBody: one SealedRequest's schema passes by construction. */
class ReadSealedBody implements SealedRequest {
  constructor(
    readonly handshake: string,
    readonly timestamp: number,
    readonly sign: string,
    readonly data: string,
  ) {}
}

/**
 * Every sealed request's body, read without JSON.parse, JSON.parse's own output checked by the schema,
 * in one pass of a pattern that is that schema for this one spelling: the same object either way, at a
 * fraction of the cost (docs/envelope.md, "What it costs"). Anything else (another order, spaces, an
 * escape, a timestamp past 2⁵³ − 1) is null and goes the general way, JSON.parse and the schema.
 */
export function readSealedBody(text: string): SealedRequest | null {
  const m = SEALED_BODY.exec(text)
  if (!m) return null
  const timestamp = Number(m[2])
  return Number.isSafeInteger(timestamp) ? new ReadSealedBody(m[1]!, timestamp, m[3]!, m[4]!) : null
}

/**
 * Seals the API (steps 2–4 and 7 of docs/envelope.md). Call after idempotency(): the sealing onSend
 * runs after the one that stores an answer, so the stored answer is the plain one and a replay of it
 * is sealed afresh for the request that asked.
 */
export function envelope(app: App, ctx: Ctx, auth: AuthService, key: EnvelopeKey): Envelope {
  const { config } = ctx
  const handshakes = handshakeStore(ctx.sql, key.signing, config.envelope.handshakeTtlMs)
  // --role all is the only process answering: its memory sees every request. Role processes share a table.
  const replays = config.role === 'all' ? memoryReplayStore() : tableReplayStore(ctx.sql)
  const perIp = new StoredLimiter(ctx.sql, 'handshake-ip', config.envelope.handshakePerIp, 60_000)
  app.decorateRequest('seal', null)

  /** The route of a request that may come sealed: an API route the envelope does not leave plain. */
  const sealable = (req: FastifyRequest): string | null => {
    const route = req.routeOptions.url
    return route !== undefined && route.startsWith('/api/') && !sealedNever(req.method, route) ? route : null
  }

  /**
   * Opens a sealed request to `route` in place (req.body or req.query, req.seal); a refusal when it may
   * not pass. At once when this process holds the handshake's keys and remembers signs itself; after
   * the database otherwise (a handshake made on another process or before a restart, a role process's
   * shared table of signs), when the request is opened outside its batch.
   */
  const open = (req: FastifyRequest, route: string): Opened => {
    const id = `${req.method} ${route}`
    const get = req.method === 'GET' || req.method === 'HEAD'
    const carried: unknown = get ? req.query : req.body
    const present = isObject(carried) && 'handshake' in carried && 'sign' in carried
    if (!present) return PLAIN_OR_SEALED.has(id) ? null : refusal(400, SEAL_CODE.REQUIRED, 'errors.sealRequired')
    const candidate = get ? envelopeOfQuery(carried) : carried
    if (!(candidate instanceof ReadSealedBody) && !sealedRequest.Check(candidate)) return refusal(400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    const request: Unopened = { req, id, get, sealed: candidate, now: ctx.now() }
    const cached = handshakes.cached(candidate.handshake)
    return cached !== undefined ? openWith(request, cached) : handshakes.keysOf(candidate.handshake).then((keys) => openWith(request, keys))
  }

  const openWith = ({ req, id, get, sealed, now }: Unopened, keys: HandshakeKeys | null): Opened => {
    // A renewal is the one request an expired handshake may still seal, for a session bound to it.
    const renewal = id === `POST ${HANDSHAKE_PATH}` && req.user !== null
    if (!keys || (keys.expiresAt <= now && !renewal)) return refusal(400, SEAL_CODE.RENEW, 'errors.sealRenew')
    if (Math.abs(sealed.timestamp - now) > SEAL_WINDOW_MS) return refusal(400, SEAL_CODE.CLOCK, 'errors.sealClock', { data: { server_time: now } })
    const idem = req.headers['idempotency-key']
    const path = req.url.split('?', 1)[0]!
    const plain = openRequest(keys, { method: req.method, path, idempotencyKey: typeof idem === 'string' ? idem : '' }, sealed)
    if (typeof plain === 'string') return refusal(400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    // Only a sign that matched is remembered: made-up ones cannot fill the store.
    const fresh = replays.fresh(sealed.sign, now)
    const admit = (unseen: boolean): Refusal | null => {
      if (!unseen) return refusal(400, SEAL_CODE.REPLAY, 'errors.sealReplay')
      // A token lifted from a log, sent under the thief's own handshake, is refused as "sign in again".
      if (req.user && !renewal && req.user.handshakeId !== sealed.handshake) return refusal(401, CODE.UNAUTHORIZED, 'errors.sealSession')
      // Opened: from here every answer, a refusal of what was inside included, goes sealed.
      req.seal = { keys, sign: sealed.sign, method: req.method, path }
      return readOpened(req, get, plain)
    }
    return typeof fresh === 'boolean' ? admit(fresh) : fresh.then(admit)
  }

  /** The opened plain text in place of the envelope: the same refusals as a plain body or query (server/http/body.ts). */
  const readOpened = (req: FastifyRequest, get: boolean, plain: Buffer): Refusal | null => {
    if (plain.length > config.bodyLimit) return refusal(413, 413, 'errors.bodyTooLarge')
    let opened: unknown
    try {
      opened = JSON.parse(plain.toString('utf8'))
    } catch {
      return refusal(400, CODE.INVALID, 'errors.malformedBody')
    }
    const problem = bodyProblem(opened)
    if (problem?.kind === 'forbiddenKey') return refusal(400, CODE.INVALID, 'errors.bodyForbiddenKey', { params: { key: problem.key } })
    if (problem?.kind === 'tooDeep') return refusal(400, CODE.INVALID, 'errors.bodyTooDeep', { params: { max: BODY_DEPTH_MAX } })
    if (get) {
      // A query is a flat object of strings, numbers and booleans, read as a query string's text would be.
      if (!isObject(opened) || Object.values(opened).some((v) => !['string', 'number', 'boolean'].includes(typeof v))) {
        return refusal(400, CODE.INVALID, 'errors.malformedBody')
      }
      req.query = Object.fromEntries(Object.entries(opened).map(([k, v]) => [k, String(v)]))
    } else req.body = opened ?? undefined
    return null
  }

  /** The answer as it leaves: sealed under the request's keys, with the headers of a sealed answer. */
  const sealed = (req: FastifyRequest, reply: FastifyReply, seal: NonNullable<FastifyRequest['seal']>, plain: Buffer | string): string => {
    const type = reply.getHeader('content-type')
    const answer = sealAnswer(seal.keys, { method: seal.method, path: seal.path, requestSign: seal.sign, status: reply.statusCode, type: typeof type === 'string' ? type : JSON_TYPE }, plain, ctx.now())
    // What described the plain body would mislead about the sealed one; a JSON answer carries none of them.
    for (const h of PLAIN_ONLY_HEADERS) if (reply.hasHeader(h)) reply.removeHeader(h)
    reply.header('content-type', JSON_TYPE)
    reply.header('cache-control', 'no-store')
    return sealedAnswerText(answer)
  }

  // Callback hooks, not async ones: every sealed request passes both, and a promise per hook per
  // request is time the event loop spends on no one's order (docs/envelope.md, "What it costs").
  // The crypto runs in batches: the answers to seal and the requests to open that one turn of the
  // event loop queued, all back to back, then each goes on. Between two orders the crypto's code and
  // OpenSSL's tables leave the caches: the first seal of a batch took ~150 µs under load, the first
  // open after it ~95, the others 15-25. One batch for both lanes pays that once a turn instead of
  // twice, and a small batch waits a few turns for company (cryptoTurn's gatherBelow).
  const turn = cryptoTurn<Opening, Sealing>({
    seal: (batch) => {
      const answers = batch.map(({ req, reply, seal, plain }) => attempt(() => sealed(req, reply, seal, plain)))
      return () =>
        batch.forEach(({ done }, i) => {
          const answer = answers[i]!
          if (answer instanceof Error) done(answer as FastifyError)
          else done(null, answer)
        })
    },
    open: (batch) => {
      const outcomes = batch.map(({ req, route }) => attempt(() => open(req, route)))
      const goOn = ({ req, reply, done }: Opening, refused: Refusal | null | Error) => {
        if (refused === null) return done()
        if (refused instanceof Error) return done(refused as FastifyError)
        void reply.status(refused.status).send({ code: refused.code, msg: translate(req.lang, refused.key, refused.params), data: refused.data ?? null })
      }
      return () =>
        batch.forEach((item, i) => {
          const outcome = outcomes[i]!
          if (outcome instanceof Promise) outcome.then((o) => goOn(item, o), (e: unknown) => goOn(item, asError(e)))
          else goOn(item, outcome)
        })
    },
  })
  app.addHook('preValidation', (req, reply, done) => {
    const route = sealable(req)
    if (route === null) return done()
    turn.open({ req, reply, route, done })
  })

  app.addHook('onSend', (req, reply, payload, done) => {
    const seal = req.seal
    if (!seal) return done(null, payload)
    req.seal = null
    if (payload === null || payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload)) {
      return turn.seal({ req, reply, seal, plain: payload ?? '', done })
    }
    // A file: read whole, then sealed (answers the envelope covers are small: uploads are previews).
    streamBytes(payload as Readable).then(
      (plain) => turn.seal({ req, reply, seal, plain, done }),
      (err: Error) => done(err),
    )
  })

  // Plain to begin with; sealed under the old handshake with the token to renew (docs/envelope.md step 1).
  app.post(
    HANDSHAKE_PATH,
    {
      config: { idempotent: false },
      schema: {
        tags: ['common'],
        summary: 'An envelope handshake (plain), or its renewal (sealed under the old one, with the token)',
        body: HandshakeBody,
        response: { 200: Envelope(HandshakeAnswer) },
      },
    },
    async (req) => {
      const now = ctx.now()
      if (!(await perIp.take(req.ip, now))) throw tooMany()
      const old = req.seal?.keys.handshake
      const user = req.user
      const renewing = old !== undefined && user !== null
      if (renewing && user.handshakeId !== old && user.previousHandshakeId !== old) throw unauthorized('errors.sealSession')
      const answer = await handshakes.make(req.body.key, now)
      if (!answer) throw invalidField('key')
      // Checked again in the statement that binds: a concurrent renewal or sign-out may have moved the session.
      if (renewing && !(await auth.renewHandshake(user.sessionId, old, answer.handshake))) throw unauthorized('errors.sealSession')
      return ok(req, answer)
    },
  )

  return { handshakes, replays }
}

/** A request waiting for its turn to be opened, and what goes on with it. */
interface Opening {
  req: FastifyRequest
  reply: FastifyReply
  route: string
  done: (err?: FastifyError) => void
}

/** An answer waiting for its turn to be sealed, and where it goes. */
interface Sealing {
  req: FastifyRequest
  reply: FastifyReply
  seal: NonNullable<FastifyRequest['seal']>
  plain: Buffer | string
  done: (err: FastifyError | null, payload?: string) => void
}

/**
 * Fewer items than this in both lanes together, and the batch waits another turn of the event loop
 * before it is worked on, up to GATHER_TURNS turns, and only while each turn brought more. The first
 * item of each batch pays for the crypto's cold caches (~250 µs a batch under load, timed inside the
 * server); at 64 orders in flight a turn brought ~15. Measured with two servers with the envelope on in
 * one paired run, waiting and not (docs/envelope.md, "What it costs"): waiting once below 32 placed
 * 3-4 % more orders per CPU-second at 64 in flight and ~10 % more at 16, at the same or lower median
 * latency, and neither more nor less at 128; up to three turns, ~4 % more again at 16 and at 64.
 * Below 16 paid more, below 48 and up to eight turns no less. A lone request on an idle server waits
 * one empty turn: 3 µs more at the median, in a loop of 2,000.
 */
export const GATHER_BELOW = 32
export const GATHER_TURNS = 3

/**
 * Two queues taken together in the turn of the event loop after the first item was queued
 * (setImmediate: after every socket read in this turn has been handled), or up to `waitTurns` turns
 * later while fewer than `gatherBelow` are queued and each turn brings more. Each lane does its
 * batch's work and returns what sends each item on: both lanes' work first, back to back, then the
 * answers leave, then the opened requests go to their routes.
 */
export function cryptoTurn<O, S>(
  lanes: { open: (batch: O[]) => () => void; seal: (batch: S[]) => () => void },
  { gatherBelow = GATHER_BELOW, waitTurns = GATHER_TURNS }: { gatherBelow?: number; waitTurns?: number } = {},
): { open(item: O): void; seal(item: S): void } {
  let opens: O[] = []
  let seals: S[] = []
  let queued = false
  let waited = 0
  let queuedBefore = 0
  const flush = () => {
    const queuedNow = opens.length + seals.length
    // Waiting is worth another turn only while turns still bring company.
    if (queuedNow < gatherBelow && waited < waitTurns && (waited === 0 || queuedNow > queuedBefore)) {
      waited++
      queuedBefore = queuedNow
      setImmediate(flush)
      return
    }
    waited = 0
    const o = opens
    const s = seals
    opens = []
    seals = []
    queued = false
    const sealed = s.length > 0 ? lanes.seal(s) : null
    const opened = o.length > 0 ? lanes.open(o) : null
    // An answer that failed to go must not leave the opened requests waiting.
    try {
      sealed?.()
    } finally {
      opened?.()
    }
  }
  const schedule = () => {
    if (queued) return
    queued = true
    setImmediate(flush)
  }
  return {
    open(item) {
      opens.push(item)
      schedule()
    },
    seal(item) {
      seals.push(item)
      schedule()
    },
  }
}

/** What `f` returns, or what it threw: one item of a batch failing must not leave the others unanswered. */
function attempt<R>(f: () => R): R | Error {
  try {
    return f()
  } catch (e) {
    return asError(e)
  }
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)))

async function streamBytes(payload: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of payload) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks)
}

/**
 * Whether a socket's token may count (step 7): its handshake known and unexpired, the timestamp inside
 * the window, the sign its own and unseen, and the token's session bound to that handshake.
 */
export async function socketProof(env: Envelope, auth: AuthService, now: number, q: Record<string, unknown>) {
  const { token, handshake, timestamp, sign } = q
  if (typeof token !== 'string' || typeof handshake !== 'string' || typeof timestamp !== 'string' || typeof sign !== 'string') return null
  const ts = Number(timestamp)
  if (!/^\d{1,16}$/.test(timestamp) || Math.abs(ts - now) > SEAL_WINDOW_MS) return null
  const keys = env.handshakes.cached(handshake) ?? (await env.handshakes.keysOf(handshake))
  if (!keys || keys.expiresAt <= now || !socketSigned(keys, ts, token, sign) || !(await env.replays.fresh(sign, now))) return null
  const user = await auth.authenticate(token)
  return user && user.handshakeId === handshake ? user : null
}
