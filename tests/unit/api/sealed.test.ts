import { describe, expect, it } from 'vitest'
import { HANDSHAKE_PATH, SEAL_CODE } from '../../../contract/constants.ts'
import { socketSigned } from '../../../server/http/sealCrypto.ts'
import { createSealedSender, HANDSHAKE_KEY, RENEW_BEFORE_MS } from '../../../src/api/sealed.ts'
import { SealBroken } from '../../../src/api/sealErrors.ts'
import { answerJson, createTransport, type ApiAnswer, type ApiRequest } from '../../../src/api/transport.ts'
import { MemoryStorage } from '../lib/memoryStorage.ts'
import { FILE_BYTES, sealServer } from './sealServer.ts'

const ORIGIN = 'http://nadi.test'

/** An app's transport against a fake server; `skew` is how far the app's clock is off the server's. */
function setup(o: { on?: boolean; skew?: number; session?: MemoryStorage; local?: MemoryStorage } = {}) {
  const server = sealServer({ on: o.on ?? true })
  const clock = { skew: o.skew ?? 0 }
  const session = o.session ?? new MemoryStorage()
  const local = o.local ?? new MemoryStorage()
  let made = 0
  const transport = createTransport({
    origin: ORIGIN,
    fetch: server.fetch,
    storage: { get: (k) => local.getItem(k), set: (k, v) => local.setItem(k, v) },
    sealed: () => {
      made++
      return createSealedSender({
        origin: ORIGIN,
        fetch: server.fetch,
        storage: { get: (k) => session.getItem(k), set: (k, v) => session.setItem(k, v), remove: (k) => session.removeItem(k) },
        now: () => server.now + clock.skew,
        serverKey: server.publicKey,
      })
    },
  })
  const arrivalsAt = (path: string) => server.arrivals.filter((a) => a.path === path)
  return { server, clock, transport, session, local, arrivalsAt, sendersMade: () => made }
}

const body = (a: ApiAnswer) => answerJson(a) as { code: number; msg: string; data: Record<string, unknown> }
const echoGet = (query: ApiRequest['query'], token?: string): ApiRequest => ({ method: 'GET', path: '/api/v1/echo', query, ...(token ? { token } : {}) })
const echoPost = (payload: unknown, idempotencyKey = 'key-0001-aaaa', token?: string): ApiRequest => ({ method: 'POST', path: '/api/v1/echo', body: payload, idempotencyKey, ...(token ? { token } : {}) })

/** Signs in through the transport: the session is bound to the handshake it was asked under. */
async function signIn(t: ReturnType<typeof setup>): Promise<string> {
  const a = await t.transport.send({ method: 'POST', path: '/api/v1/login', body: {}, idempotencyKey: 'login-key-0001' })
  return body(a).data.token as string
}

describe('the sealed transport (issue 20, design step 9)', () => {
  it('a GET travels as handshake, timestamp, sign and data only, and its sealed answer is opened before anyone reads it', async () => {
    const t = setup()
    const a = await t.transport.send(echoGet({ page: 2, q: 'a b', all: true }))
    expect(a.status).toBe(200)
    expect(body(a).data.seen).toEqual({ page: 2, q: 'a b', all: true })
    const [echo] = t.arrivalsAt('/api/v1/echo')
    expect(echo!.envelope).not.toBeNull()
    expect(Object.keys(echo!.envelope!)).toEqual(['handshake', 'timestamp', 'sign', 'data'])
    expect(echo!.envelope!.data).not.toContain('page')
  })

  it('a POST body is sealed, and its Idempotency-Key travels plain and signed', async () => {
    const t = setup()
    const a = await t.transport.send(echoPost({ amount: '12.5', note: 'rent' }, 'idem-key-1234'))
    expect(body(a).data.seen).toEqual({ amount: '12.5', note: 'rent' })
    const [echo] = t.arrivalsAt('/api/v1/echo')
    expect(echo!.idempotencyKey).toBe('idem-key-1234')
    expect(echo!.envelope).not.toBeNull()
  })

  it('asks common/config before the first request, so nothing leaves plain to a server that wants it sealed', async () => {
    const t = setup()
    expect(t.transport.on).toBeNull()
    await t.transport.send(echoPost({ secret: 1 }))
    expect(t.server.arrivals.map((a) => `${a.method} ${a.path} ${a.envelope ? 'sealed' : 'plain'}`)).toEqual([
      'GET /api/v1/common/config plain',
      `POST ${HANDSHAKE_PATH} plain`,
      'POST /api/v1/echo sealed',
    ])
    expect(t.transport.on).toBe(true)
    expect(t.local.getItem('envelope')).toBe('on')
  })

  it('with the envelope off, requests go plain and the sealing half is never made', async () => {
    const t = setup({ on: false })
    const a = await t.transport.send(echoGet({ page: 1 }))
    expect(body(a).data.seen).toEqual({ page: '1' })
    expect(t.sendersMade()).toBe(0)
    expect(t.arrivalsAt('/api/v1/echo')[0]!.envelope).toBeNull()
  })

  it('a REQUIRED refusal turns the envelope on and the request is sealed and sent once more with its Idempotency-Key', async () => {
    const local = new MemoryStorage()
    local.setItem('envelope', 'off')
    const t = setup({ local })
    const a = await t.transport.send(echoPost({ n: 1 }, 'idem-required-1'))
    expect(a.status).toBe(200)
    const echoes = t.arrivalsAt('/api/v1/echo')
    expect(echoes.map((e) => e.envelope !== null)).toEqual([false, true])
    expect(echoes.map((e) => e.idempotencyKey)).toEqual(['idem-required-1', 'idem-required-1'])
    expect(t.transport.on).toBe(true)
    expect(local.getItem('envelope')).toBe('on')
  })

  it("common/config saying off turns the envelope off (the server's switch was turned)", async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.on = false
    await t.transport.send({ method: 'GET', path: '/api/v1/common/config' })
    expect(t.transport.on).toBe(false)
    await t.transport.send(echoGet({ x: 1 }))
    expect(t.arrivalsAt('/api/v1/echo').at(-1)!.envelope).toBeNull()
  })

  it('concurrent requests share one handshake', async () => {
    const t = setup()
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => t.transport.send(echoGet({ n }))))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(t.arrivalsAt(HANDSHAKE_PATH)).toHaveLength(1)
    expect(new Set(t.arrivalsAt('/api/v1/echo').map((e) => e.envelope!.handshake)).size).toBe(1)
  })

  it('the handshake is kept in session storage: a reloaded tab seals with it and makes none', async () => {
    const session = new MemoryStorage()
    const first = setup({ session })
    await first.transport.send(echoGet({}))
    const stored = JSON.parse(session.getItem(HANDSHAKE_KEY)!) as { handshake: string; keys: string; expiresAt: number }
    expect(stored.keys).toMatch(/^[A-Za-z0-9_-]{86}$/)
    // The same server, a new app (a reload): its storage is all it keeps.
    const sender = createSealedSender({
      origin: ORIGIN,
      fetch: first.server.fetch,
      storage: { get: (k) => session.getItem(k), set: (k, v) => session.setItem(k, v), remove: (k) => session.removeItem(k) },
      now: () => first.server.now,
      serverKey: first.server.publicKey,
    })
    const a = await sender.send(echoGet({ again: true }))
    expect(body(a).data.seen).toEqual({ again: true })
    expect(first.arrivalsAt(HANDSHAKE_PATH)).toHaveLength(1)
    expect(first.arrivalsAt('/api/v1/echo').at(-1)!.envelope!.handshake).toBe(stored.handshake)
  })

  it('RENEW: a new handshake is made and the request sent once more with the same Idempotency-Key', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.refuseNext.push(SEAL_CODE.RENEW)
    const a = await t.transport.send(echoPost({ n: 2 }, 'idem-renew-0001'))
    expect(a.status).toBe(200)
    const posts = t.arrivalsAt('/api/v1/echo').filter((e) => e.method === 'POST')
    expect(posts.map((e) => e.idempotencyKey)).toEqual(['idem-renew-0001', 'idem-renew-0001'])
    expect(posts[0]!.envelope!.handshake).not.toBe(posts[1]!.envelope!.handshake)
    expect(posts[0]!.envelope!.sign).not.toBe(posts[1]!.envelope!.sign)
    expect(t.arrivalsAt(HANDSHAKE_PATH)).toHaveLength(2)
  })

  it('a second RENEW for the same request is its answer, not a loop', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.refuseNext.push(SEAL_CODE.RENEW, SEAL_CODE.RENEW)
    const a = await t.transport.send(echoGet({ n: 3 }))
    expect(a.status).toBe(400)
    expect(body(a).code).toBe(SEAL_CODE.RENEW)
    expect(t.arrivalsAt('/api/v1/echo')).toHaveLength(3)
  })

  it("the handshake's server_time corrects a phone whose clock is ten minutes slow", async () => {
    const t = setup({ skew: -600_000 })
    const a = await t.transport.send(echoGet({}))
    expect(a.status).toBe(200)
    const [echo] = t.arrivalsAt('/api/v1/echo')
    expect(Math.abs(echo!.envelope!.timestamp - t.server.now)).toBeLessThan(1000)
  })

  it("a CLOCK refusal's server_time corrects the clock and the request is sent once more, once", async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    // The phone's clock is set back two minutes after the handshake measured it.
    t.clock.skew = -120_000
    const a = await t.transport.send(echoPost({ n: 4 }, 'idem-clock-0001'))
    expect(a.status).toBe(200)
    const posts = t.arrivalsAt('/api/v1/echo').filter((e) => e.method === 'POST')
    expect(posts).toHaveLength(2)
    expect(posts[1]!.envelope!.timestamp).toBeGreaterThan(posts[0]!.envelope!.timestamp + 100_000)
    expect(posts.map((e) => e.idempotencyKey)).toEqual(['idem-clock-0001', 'idem-clock-0001'])
  })

  it('a handshake about to expire is renewed under itself with the token, and the session follows it', async () => {
    const t = setup()
    const token = await signIn(t)
    const old = t.server.sessions.get(token)!
    t.server.now = t.server.keysOf(old)!.expiresAt - RENEW_BEFORE_MS + 5_000
    const a = await t.transport.send(echoGet({}, token))
    expect(body(a).data.user).toBe('signed-in')
    const renewal = t.arrivalsAt(HANDSHAKE_PATH).at(-1)!
    expect(renewal.envelope!.handshake).toBe(old)
    expect(renewal.token).toBe(token)
    expect(t.server.sessions.get(token)).not.toBe(old)
    expect(t.arrivalsAt('/api/v1/echo').at(-1)!.envelope!.handshake).toBe(t.server.sessions.get(token))
  })

  it('an expired handshake is still renewed under itself for the session bound to it', async () => {
    const t = setup()
    const token = await signIn(t)
    const old = t.server.sessions.get(token)!
    t.server.now = t.server.keysOf(old)!.expiresAt + 60_000
    const a = await t.transport.send(echoPost({ late: true }, 'idem-late-0001', token))
    expect(a.status).toBe(200)
    expect(t.arrivalsAt(HANDSHAKE_PATH).at(-1)!.envelope!.handshake).toBe(old)
  })

  it('a renewal refused for the clock is corrected and asked again under the old handshake, so the session is kept', async () => {
    const t = setup()
    const token = await signIn(t)
    const old = t.server.sessions.get(token)!
    // The phone's clock jumps two minutes ahead: to the app its handshake looks expired, to the server it is not yet.
    t.server.now = t.server.keysOf(old)!.expiresAt - 60_000
    t.clock.skew = 120_000
    const a = await t.transport.send(echoGet({}, token))
    expect(body(a).data.user).toBe('signed-in')
    const renewals = t.arrivalsAt(HANDSHAKE_PATH).filter((h) => h.envelope)
    expect(renewals.map((h) => h.envelope!.handshake)).toEqual([old, old])
    expect(t.arrivalsAt('/api/v1/echo').at(-1)!.envelope!.handshake).toBe(t.server.sessions.get(token))
  })

  it('without a token an expiring handshake is replaced by a fresh plain one', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    const first = t.arrivalsAt('/api/v1/echo')[0]!.envelope!.handshake
    t.server.now = t.server.keysOf(first)!.expiresAt - 1_000
    await t.transport.send(echoGet({}))
    const handshakes = t.arrivalsAt(HANDSHAKE_PATH)
    expect(handshakes).toHaveLength(2)
    expect(handshakes[1]!.envelope).toBeNull()
  })

  it('a token used under a handshake its session is not bound to is answered 401 (the app signs out)', async () => {
    const t = setup()
    const token = await signIn(t)
    t.server.sessions.set(token, 'AAAAAAAAAAAAAAAAAAAAAA')
    const a = await t.transport.send(echoGet({}, token))
    expect(a.status).toBe(401)
  })

  it('a tampered answer is SealBroken, never data', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.tamperNext = true
    await expect(t.transport.send(echoGet({ n: 5 }))).rejects.toBeInstanceOf(SealBroken)
  })

  it('a 200 that is not sealed is SealBroken', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.plainNext = true
    await expect(t.transport.send(echoGet({ n: 6 }))).rejects.toBeInstanceOf(SealBroken)
  })

  it('a plain refusal (changed on the way) is the answer, with its message, and not sent again', async () => {
    const t = setup()
    await t.transport.send(echoGet({}))
    t.server.refuseNext.push(SEAL_CODE.INVALID)
    const a = await t.transport.send(echoPost({ n: 7 }))
    expect(a.status).toBe(400)
    expect(body(a)).toMatchObject({ code: SEAL_CODE.INVALID, msg: `Refused ${SEAL_CODE.INVALID}` })
    expect(t.arrivalsAt('/api/v1/echo').filter((e) => e.method === 'POST')).toHaveLength(1)
  })

  it("a route's refusal comes sealed and is opened like any answer", async () => {
    const t = setup()
    const a = await t.transport.send({ method: 'POST', path: '/api/v1/refuse', body: { amount: '0' }, idempotencyKey: 'idem-refuse-01' })
    expect(a.status).toBe(400)
    expect(body(a).msg).toBe('Amount is too small')
    expect(t.arrivalsAt('/api/v1/refuse')[0]!.envelope).not.toBeNull()
  })

  it("a sealed file opens to the file's bytes and type", async () => {
    const t = setup()
    const a = await t.transport.send({ method: 'GET', path: '/api/v1/common/uploadFile', query: { key: 'u/1/a.png' } })
    expect(a.type).toBe('image/png')
    expect(Buffer.from(a.bytes)).toEqual(FILE_BYTES)
  })

  it("the socket's proof signs the token with its session's handshake at the server's time", async () => {
    const t = setup({ skew: 90_000 })
    const token = await signIn(t)
    const sender = await t.transport.sealed()
    const proof = await sender.socketProof(token)
    expect(proof.handshake).toBe(t.server.sessions.get(token))
    expect(Math.abs(Number(proof.timestamp) - t.server.now)).toBeLessThan(1000)
    expect(socketSigned(t.server.keysOf(proof.handshake)!, Number(proof.timestamp), token, proof.sign)).toBe(true)
    expect(socketSigned(t.server.keysOf(proof.handshake)!, Number(proof.timestamp), `${token}x`, proof.sign)).toBe(false)
  })
})
