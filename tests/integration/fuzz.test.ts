// The hostile fuzz of the whole API: every route the server describes at /api/docs/json gets a few
// dozen hostile requests (support/fuzz.ts), anonymous and signed in, with valid ones mixed in.
// Whatever comes in:
//   - no answer is a 5xx;
//   - every answer is the {code, msg, data} envelope, and a refusal's msg is a real, translated text;
//   - a refusal (and any GET) changes nothing: the fuzzing user's balances and the ledger's postings
//     are as they were before it, and so is a replayed Idempotency-Key's answer;
//   - another user, funded, whom no request names by token, ends exactly as they began: balances,
//     address book, session;
//   - the books end clean: the ledger audit and the node, settlement and ranking checks.

import type { Wallet } from 'ethers'
import { describe, expect, it } from 'vitest'
import { CONFIG_PATH, sealedNever } from '../../contract/constants.ts'
import { audit, balances, custody, fund, trade, transfer, type Asset } from '../../server/ledger/index.ts'
import { auditNodeGrants } from '../../server/modules/node/service.ts'
import { auditRanking } from '../../server/modules/ranking/service.ts'
import { auditSettlement } from '../../server/modules/settlement/service.ts'
import { isSealedAnswer, openAnswer, sealRequest, type SealKeys } from '../../src/api/sealCrypto.ts'
import {
  envelopeProblem,
  FuzzState,
  hostileEnvelope,
  hostileQueryText,
  hostileRequest,
  routesOf,
  sameBytesOtherText,
  seeded,
  type EnvelopeFields,
  type Hostile,
  type OpenApiDoc,
  type Rng,
  type Route,
} from './support/fuzz.ts'
import { sealedClientOf, type SealedClient } from './support/sealed.ts'
import { freshWallet, useServers, type SignedIn, type TestServer } from './support/server.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS } }, { audited: true, checks: [auditNodeGrants, auditSettlement, auditRanking] })

const SEED = 0x5eed2026
/** Requests per route: anonymous, then signed in. ~100 routes → ~3,800 requests. */
const ANONYMOUS = 12
const SIGNED_IN = 26
/** With the envelope on, after the walk: spoiled and replayed envelopes. */
const ENVELOPES = 1_500

let refs = 0
async function deposit(s: TestServer, userId: number, asset: Asset, units: bigint) {
  const chain = asset === 'NADI' ? 'nadi' : 'bsc'
  await transfer(s.ctx.sql, { ref: `test:fuzz:${++refs}`, reason: 'deposit', from: custody(chain), to: fund(userId), asset, amount: units })
  await transfer(s.ctx.sql, { ref: `test:fuzz:${++refs}`, reason: 'deposit', from: custody(chain), to: trade(userId), asset, amount: units })
}

/** A user's balances, every account, as text. */
const balancesText = async (s: TestServer, userId: number) => JSON.stringify(await balances(s.ctx.sql, userId), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
/** What a refusal must not change: the user's balances and the ledger's postings. */
const books = async (s: TestServer, userId: number) => `${await s.count('SELECT COUNT(*) FROM ledger_postings')} postings, ${await balancesText(s, userId)}`

/** An answer as the fuzz reads it: plain, whichever way it travelled. */
interface Answer {
  statusCode: number
  headers: Record<string, unknown>
  body: string
  /** What the way it travelled found wrong with it (with the envelope on: a seal that does not open, a 200 not sealed). */
  problem?: string
}

/** One request sent and its answer, for the checks. */
interface Sent {
  describe: string
  method: string
  path: string
  answer: Answer
  signedIn: boolean
  /** A request that must be refused whatever it carries (a spoiled or replayed envelope). */
  mustRefuse?: boolean
}

/** How a run talks to the server: plain, or through the envelope. */
interface Api {
  signIn(wallet?: Wallet): Promise<SignedIn>
  get(path: string, token: string): Promise<Answer>
  post(path: string, body: unknown, token: string): Promise<Answer>
  /** Sends one hostile request as `token`'s (or anonymously). */
  send(h: Hostile, token: string | undefined, r: Rng): Promise<Answer>
  /** Requests of this way of talking's own to send after the walk, each judged like the walk's. */
  extra?(o: { routes: Route[]; r: Rng; state: FuzzState; actor: () => SignedIn; dead: string }): AsyncIterable<Sent>
}

interface Failure {
  request: string
  status: number
  problem: string
  body: string
}

const describeRequest = (h: Hostile, who: string) => `${who} ${h.method} ${h.url.slice(0, 160)} [${h.kinds.join(' ')}]${h.payload === undefined ? '' : ` ${h.payload.slice(0, 160)}`}`
const userIdOf = (s: TestServer, address: string) => s.count('SELECT id FROM users WHERE wallet_address = ?', address.toLowerCase())
const textOf = (res: { statusCode: number; headers: Record<string, unknown>; body: string }): Answer => ({ statusCode: res.statusCode, headers: res.headers, body: res.body })

/**
 * Runs the fuzz on a server: a funded user who sends the signed-in requests, a funded bystander no
 * request names by token, a signed-out session; every route's hostile requests, shuffled, then the
 * way of talking's own; then the checks of the file's header. Returns the figures of the run.
 */
async function fuzzApi(s: TestServer, api: Api, seed: number, perRoute: { anonymous: number; signedIn: number }) {
  const doc = await s.get('/api/docs/json')
  const routes: Route[] = routesOf(JSON.parse(doc.body) as OpenApiDoc)
  // The walk is of the real table: a server describing far fewer routes would make this test hollow.
  expect(routes.length).toBeGreaterThan(90)

  let actor = await api.signIn()
  const bystander = await api.signIn()
  const signedOut = await api.signIn()
  expect((await api.post('/api/v1/auth/logout', undefined, signedOut.token)).statusCode).toBe(200)
  for (const who of [actor, bystander]) {
    await deposit(s, who.userId, 'USDT', 10_000_000_000_000n)
    await deposit(s, who.userId, 'NADI', 10_000_000_000_000n)
  }
  const added = await api.post('/api/v1/address/addAddress', { name: 'Bystander', phone: '+886 912 345 678', area: 'Taipei', address: 'No. 1 Road' }, bystander.token)
  expect(added.statusCode).toBe(200)
  const bystanderBalances = await balancesText(s, bystander.userId)
  const bystanderAddresses = (await api.get('/api/v1/address/addressList', bystander.token)).body

  const r = seeded(seed)
  const state = new FuzzState()
  const plan: { route: Route; signedIn: boolean }[] = []
  for (const route of routes) {
    for (let i = 0; i < perRoute.anonymous; i++) plan.push({ route, signedIn: false })
    for (let i = 0; i < perRoute.signedIn; i++) plan.push({ route, signedIn: true })
  }
  // Shuffled, so that what valid requests make (orders, addresses, sessions ended) meets the rest.
  for (let i = plan.length - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[plan[i], plan[j]] = [plan[j]!, plan[i]!]
  }

  const failures: Failure[] = []
  const statuses = new Map<number, number>()
  let requests = 0
  let moved = 0
  let signIns = 0
  /** The checks every answer gets; `before` is the fuzzing user's books before it was sent. */
  const judge = async (sent: Sent, before: string) => {
    const res = sent.answer
    requests++
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    const fail = (problem: string) => failures.push({ request: sent.describe, status: res.statusCode, problem, body: res.body.slice(0, 300) })
    if (res.statusCode >= 500) fail('a 5xx')
    if (res.problem) fail(res.problem)
    // Outside /api/ the app shell answers whatever the query holds.
    if (sent.mustRefuse && res.statusCode === 200 && sent.path.startsWith('/api/')) fail('accepted')
    const json = /^application\/json/.test(String(res.headers['content-type'] ?? ''))
    // HEAD answers have no body; a 200 of a file (an upload read back, the docs' page) is not JSON.
    if (sent.method !== 'HEAD' && (res.statusCode !== 200 || json)) {
      const problem = envelopeProblem(res.statusCode, res.body)
      if (problem) fail(problem)
      else if (sent.signedIn && res.statusCode === 200) state.harvest((JSON.parse(res.body) as { data?: unknown }).data)
    }
    const acted = sent.signedIn && !sent.mustRefuse && sent.method === 'POST' && res.statusCode === 200 && res.headers['idempotent-replayed'] !== 'true'
    const after = await books(s, actor.userId)
    if (after !== before) {
      if (acted) moved++
      else fail(`the books moved: ${before} → ${after}`)
    }
  }
  /** A sign-out (or a handshake renewal) that got through ends the fuzzing user's session: they sign in again, as the app would. */
  const stillSignedIn = async () => {
    if ((await api.get('/api/v1/user/info', actor.token)).statusCode !== 401) return
    actor = await api.signIn(actor.wallet)
    signIns++
  }

  let valid = 0
  for (const { route, signedIn } of plan) {
    const h = hostileRequest(route, r, { ...(signedIn ? { token: actor.token } : {}), dead: [signedOut.token] }, state)
    if (h.valid) valid++
    const before = await books(s, actor.userId)
    const answer = await api.send(h, signedIn ? actor.token : undefined, r)
    await judge({ describe: describeRequest(h, signedIn ? 'user' : 'anonymous'), method: h.method, path: h.url.split('?', 1)[0]!, answer, signedIn }, before)
    if (signedIn && answer.statusCode === 200 && (route.path === '/api/v1/auth/logout' || route.path === '/api/v1/common/handshake')) await stillSignedIn()
  }
  const walked = requests
  if (api.extra) {
    let before = await books(s, actor.userId)
    for await (const sent of api.extra({ routes, r, state, actor: () => actor, dead: signedOut.token })) {
      await judge(sent, before)
      if (sent.signedIn && sent.answer.statusCode === 401) await stillSignedIn()
      before = await books(s, actor.userId)
    }
  }

  expect(failures.slice(0, 12), `${failures.length} failures of ${requests} requests`).toEqual([])
  // Valid requests were mixed in, and some of them acted: the checks above saw money move, and allowed it.
  expect(moved).toBeGreaterThan(0)
  expect((await audit(s.ctx.sql)).violations).toEqual([])
  expect(await balancesText(s, bystander.userId)).toBe(bystanderBalances)
  const bystanderNow = await api.get('/api/v1/address/addressList', bystander.token)
  expect(bystanderNow.statusCode).toBe(200)
  expect(bystanderNow.body).toBe(bystanderAddresses)
  expect((await api.get('/api/v1/user/info', signedOut.token)).statusCode).toBe(401)
  return { requests, walked, valid, moved, signIns, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)) }
}

/** Plain HTTP, as with the envelope off. */
function plainApi(s: TestServer): Api {
  return {
    async signIn(wallet = freshWallet()) {
      return s.signIn(undefined, wallet)
    },
    get: async (path, token) => textOf(await s.get(path, { token })),
    post: async (path, body, token) => textOf(await s.post(path, body, { token })),
    send: async (h) => textOf(await s.inject({ method: h.method as 'GET', url: h.url, headers: h.headers, ...(h.payload === undefined ? {} : { payload: h.payload }) })),
  }
}

/** Routes that take plain requests with the envelope on (server/http/seal.ts): their answers may be plain. */
const decoder = new TextDecoder()

/** A query string as the object a GET's envelope seals; a repeated name becomes an array (which the server must refuse). */
function queryObject(qs: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of new URLSearchParams(qs)) {
    const prior = out[k]
    out[k] = prior === undefined ? v : Array.isArray(prior) ? [...(prior as unknown[]), v] : [prior, v]
  }
  return out
}

interface Outgoing {
  method: string
  url: string
  headers: Record<string, string | string[]>
  payload?: string
}

/**
 * Through the envelope, with the app's own sealing code (support/sealed.ts): each identity signs in
 * under a handshake of its own; a hostile request's body (as text, JSON or not) or query is sealed in
 * a valid envelope, under the handshake of the user it is sent as. Its answer must come sealed and
 * open, or be a plain refusal. After the walk: hostile envelopes themselves, and replays.
 */
async function sealedApi(s: TestServer, envelopes: number): Promise<Api> {
  const anonymous = await sealedClientOf(s)
  await anonymous.handshake()
  const clients = new Map<string, SealedClient>()
  const clientOf = (token: string | undefined) => (token === undefined ? anonymous : (clients.get(token) ?? anonymous))
  const other = await sealedClientOf(s)
  await other.handshake()

  /** Sends, then reads the answer: opened when sealed (its sign checked), as is when plain. */
  async function exchange(o: Outgoing, keys: SealKeys, sign: string): Promise<Answer> {
    const res = await s.inject({ method: o.method as 'GET', url: o.url, headers: o.headers, ...(o.payload === undefined ? {} : { payload: o.payload }) })
    const path = o.url.split('?', 1)[0]!
    let parsed: unknown = null
    try {
      parsed = JSON.parse(res.body)
    } catch {
      // Not JSON: judged as it is.
    }
    if (!isSealedAnswer(parsed)) {
      // Outside /api/ (an odd path such as //api//v1/… or /API/V1/…) the app shell answers, as it should.
      const unsealed = res.statusCode === 200 && o.method !== 'HEAD' && path.startsWith('/api/') && !sealedNever(o.method, path)
      return { ...textOf(res), ...(unsealed ? { problem: 'a 200 that is not sealed' } : {}) }
    }
    try {
      const bytes = await openAnswer(keys, { method: o.method, path, requestSign: sign, status: res.statusCode }, parsed)
      return { statusCode: res.statusCode, headers: { ...res.headers, 'content-type': parsed.type }, body: decoder.decode(bytes) }
    } catch (e) {
      return { ...textOf(res), problem: `a sealed answer that does not open: ${(e as Error).message}` }
    }
  }

  /** A hostile request sealed, validly, under `keys`: what goes on the wire, and the envelope. */
  async function sealed(h: Hostile, keys: SealKeys, r: Rng): Promise<{ out: Outgoing; envelope: EnvelopeFields }> {
    const cut = h.url.indexOf('?')
    const path = cut < 0 ? h.url : h.url.slice(0, cut)
    const get = h.method === 'GET' || h.method === 'HEAD'
    const json = get ? (r.chance(0.15) ? hostileQueryText(r) : JSON.stringify(queryObject(cut < 0 ? '' : h.url.slice(cut + 1)))) : (h.payload ?? '')
    const idem = h.headers['idempotency-key']
    const envelope = await sealRequest(keys, { method: h.method, path, timestamp: s.clock.now(), idempotencyKey: typeof idem === 'string' ? idem : (idem?.join(', ') ?? ''), json })
    const headers = { ...h.headers }
    if (get) return { out: { method: h.method, url: `${path}?${new URLSearchParams(Object.entries(envelope).map(([k, v]) => [k, String(v)]))}`, headers, ...(h.payload === undefined ? {} : { payload: h.payload }) }, envelope }
    headers['content-type'] ??= 'application/json'
    return { out: { method: h.method, url: path, headers, payload: JSON.stringify(envelope) }, envelope }
  }

  const api: Api = {
    async signIn(wallet = freshWallet()) {
      const client = await sealedClientOf(s)
      await client.handshake()
      const { token } = await client.signIn(s.rootInviteCode, wallet)
      clients.set(token, client)
      return { token, wallet, address: wallet.address, userId: await userIdOf(s, wallet.address) }
    },
    async get(path, token) {
      const a = await clientOf(token).request('GET', path, { token })
      return { statusCode: a.status, headers: a.headers, body: decoder.decode(a.bytes) }
    },
    async post(path, body, token) {
      const a = await clientOf(token).request('POST', path, { token, body })
      return { statusCode: a.status, headers: a.headers, body: decoder.decode(a.bytes) }
    },
    async send(h, token, r) {
      const keys = clientOf(token).keys
      const { out, envelope } = await sealed(h, keys, r)
      return exchange(out, keys, envelope.sign)
    },
    async *extra({ routes, r, state, actor, dead }) {
      // Common/config answers a request without an envelope too: a spoiled one that lost its sign is just plain.
      const sealedRoutes = routes.filter((route) => !sealedNever(route.method, route.path) && route.path !== CONFIG_PATH)
      /** Requests sent whole, for replays: exactly, or with a sign of other text but the same bytes. */
      const sentLog: { out: Outgoing; envelope: EnvelopeFields; keys: SealKeys; signedIn: boolean }[] = []
      // Envelopes of other requests to take a field from: one under a handshake no session is bound to among them.
      const others: EnvelopeFields[] = [await other.seal('POST', '/api/v1/wallet/transfer', { body: {} })]
      for (let i = 0; i < envelopes; i++) {
        const route = r.pick(sealedRoutes)
        const signedIn = r.chance(0.7)
        const token = signedIn ? actor().token : undefined
        const h = hostileRequest(route, r, { ...(token ? { token } : {}), dead: [dead] }, state)
        const keys = clientOf(token).keys
        const { out, envelope } = await sealed(h, keys, r)
        const replay = sentLog.length > 0 && r.chance(0.2) ? r.pick(sentLog) : null
        if (replay) {
          const sign = r.chance(0.5) ? replay.envelope.sign : sameBytesOtherText(replay.envelope.sign)
          const again = { ...replay.out, ...(replay.out.payload === undefined ? { url: replay.out.url.replace(replay.envelope.sign, sign) } : { payload: replay.out.payload.replace(replay.envelope.sign, sign) }) }
          const answer = await exchange(again, replay.keys, sign)
          yield { describe: `replay${sign === replay.envelope.sign ? '' : ' (sign of other text, same bytes)'} of ${again.method} ${again.url.slice(0, 120)}`, method: again.method, path: again.url.split('?', 1)[0]!, answer, signedIn: replay.signedIn, mustRefuse: true }
          continue
        }
        // A valid envelope now and then, sent and kept for replays; the rest spoiled.
        if (r.chance(0.25)) {
          const answer = await exchange(out, keys, envelope.sign)
          sentLog.push({ out, envelope, keys, signedIn })
          if (sentLog.length > 64) sentLog.shift()
          yield { describe: describeRequest(h, signedIn ? 'user' : 'anonymous'), method: h.method, path: out.url.split('?', 1)[0]!, answer, signedIn }
          continue
        }
        // The user's token in a valid envelope under a handshake their session is not bound to.
        if (signedIn && r.chance(0.1)) {
          const foreign = await sealed({ ...h, headers: { ...h.headers, authorization: `Bearer ${token}` } }, other.keys, r)
          const answer = await exchange(foreign.out, other.keys, foreign.envelope.sign)
          yield { describe: `user's token under another handshake ${h.method} ${h.url.slice(0, 120)}`, method: h.method, path: foreign.out.url.split('?', 1)[0]!, answer, signedIn, mustRefuse: true }
          continue
        }
        const spoiled = hostileEnvelope(envelope, others, s.clock.now(), r)
        others.push(envelope)
        if (others.length > 16) others.splice(1, 1)
        const get = out.method === 'GET' || out.method === 'HEAD'
        const path = out.url.split('?', 1)[0]!
        const spoiledOut: Outgoing = get
          ? { ...out, url: `${path}?${spoiled.envelope !== null && typeof spoiled.envelope === 'object' && !Array.isArray(spoiled.envelope) ? new URLSearchParams(Object.entries(spoiled.envelope).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : `envelope=${encodeURIComponent(JSON.stringify(spoiled.envelope))}`}` }
          : { ...out, payload: JSON.stringify(spoiled.envelope) }
        const answer = await exchange(spoiledOut, keys, envelope.sign)
        yield { describe: `${signedIn ? 'user' : 'anonymous'} ${spoiled.kind} ${spoiledOut.method} ${spoiledOut.url.slice(0, 120)}`, method: out.method, path, answer, signedIn, mustRefuse: true }
      }
    },
  }
  return api
}

const backend = process.env.NADI_TEST_BACKEND ?? 'sqlite'

describe('the hostile fuzz of the API', () => {
  it('answers every hostile request of every route with an envelope, never a 5xx, and leaves the books as only valid actions moved them', async () => {
    const s = await start()
    const figures = await fuzzApi(s, plainApi(s), SEED, { anonymous: ANONYMOUS, signedIn: SIGNED_IN })
    console.log(`fuzz, envelope off (${backend}): ${JSON.stringify(figures)}`)
  }, 180_000)

  it('with the envelope on: hostile requests inside valid envelopes, and hostile or replayed envelopes, get no 5xx, only sealed answers or plain refusals, and move nothing', async () => {
    const s = await start({ envelope: true })
    const figures = await fuzzApi(s, await sealedApi(s, ENVELOPES), SEED ^ 0xe0e0, { anonymous: ANONYMOUS, signedIn: SIGNED_IN })
    console.log(`fuzz, envelope on (${backend}): ${JSON.stringify(figures)}`)
  }, 240_000)
})
