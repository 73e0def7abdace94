// The production envelope end to end (issue 20, docs/envelope.md): with it on, every API request but a
// few comes sealed under a handshake bound to the session and every answer leaves sealed; each refusal
// the app acts on (REQUIRED, INVALID, RENEW, CLOCK, REPLAY, 401 sealSession) is plain and localized.
// The client is the app's own envelope code (src/api/sealCrypto.ts) in Node: tests/integration/support/sealed.ts.

import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CODE } from '../../contract/constants.ts'
import { SEAL_CODE, SEAL_WINDOW_MS } from '../../contract/seal.ts'
import { cleanup } from '../../server/jobs/cleanup.ts'
import { BUILT_KEY_FILE } from '../../server/envelopeKey.ts'
import { translate } from '../../server/i18n.ts'
import { ROOT_CODE, freshWallet, idemKey, startServer, useServers, type TestServer } from './support/server.ts'
import { sealedClientOf, type Answer } from './support/sealed.ts'
import { beginHandshake } from '../../src/api/sealCrypto.ts'
import { PNG, fetchOrInject } from './support/uploads.ts'
import { Client } from './support/wsClient.ts'
import { startRefused } from './support/child.ts'
import { testBackend } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers({ envelope: true })
// One server for the tests that neither need a clean database nor change its settings: each starts a server in about a second.
let shared: TestServer
beforeAll(async () => {
  shared = await startServer({ envelope: true })
})
afterAll(() => shared.close())

const MAIN_INFO = '/api/v1/common/mainInfo'
const LOGIN_MESSAGE = '/api/v1/auth/loginMessage'
const IS_REGISTER = '/api/v1/auth/isRegister'

/** A plain refusal with its code and message in the request's language. */
function refused(a: Answer, status: number, code: number, key: string) {
  expect(a.sealed).toBe(false)
  expect(a.status).toBe(status)
  expect(a.body).toMatchObject({ code, msg: translate('EN', key) })
}

async function signedIn(s: TestServer) {
  const c = await sealedClientOf(s)
  await c.handshake()
  const { token, wallet } = await c.signIn(ROOT_CODE)
  return { c, token, wallet }
}

/** A handshake made and a loginMessage request sealed under it, not sent: its one effect is a nonce for `wallet`. */
async function sealedLoginMessage(s: TestServer) {
  const c = await sealedClientOf(s)
  await c.handshake()
  const wallet = freshWallet()
  const sealed = await c.seal('GET', LOGIN_MESSAGE, { query: { address: wallet.address, chainId: s.config.login.chainId, code: ROOT_CODE } })
  return { c, wallet, sealed }
}

describe('envelope on', () => {
  it('the app is told; a plain request is refused REQUIRED, while health, config and the handshake stay plain', async () => {
    const s = shared
    const config = await s.get<{ envelope: boolean }>('/api/v1/common/config')
    expect(config.statusCode).toBe(200)
    expect(config.body_.data.envelope).toBe(true)
    expect((await s.get('/api/v1/common/health')).statusCode).toBe(200)
    const plain = await s.get(MAIN_INFO, { lang: 'EN' })
    expect(plain.statusCode).toBe(400)
    expect(plain.body_).toEqual({ code: SEAL_CODE.REQUIRED, msg: translate('EN', 'errors.sealRequired'), data: null })
    const post = await s.post(IS_REGISTER, { address: freshWallet().address }, { lang: 'EN' })
    expect(post.body_.code).toBe(SEAL_CODE.REQUIRED)
    // Not a point on P-256: the field's own message.
    const bad = await s.post('/api/v1/common/handshake', { key: 'A'.repeat(87) }, { lang: 'EN' })
    expect(bad.statusCode).toBe(400)
    expect(bad.body_.code).toBe(CODE.INVALID)
  })

  it('a sealed GET carries its query and a sealed POST its body; answers come sealed, no-store, errors after opening included', async () => {
    const s = shared
    const c = await sealedClientOf(s)
    await c.handshake()
    const info = await c.request<{ server_time: number }>('GET', MAIN_INFO)
    expect(info).toMatchObject({ status: 200, sealed: true })
    expect(info.body.data.server_time).toBe(s.clock.now())
    expect(info.headers['cache-control']).toBe('no-store')
    expect(info.headers.etag).toBeUndefined()
    const wallet = freshWallet()
    const message = await c.request<{ message: string }>('GET', LOGIN_MESSAGE, { query: { address: wallet.address, chainId: s.config.login.chainId, code: ROOT_CODE } })
    expect(message.status).toBe(200)
    expect(message.body.data.message).toContain(wallet.address)
    const registered = await c.request<{ registered: boolean }>('POST', IS_REGISTER, { body: { address: wallet.address } })
    expect(registered).toMatchObject({ status: 200, sealed: true, body: { data: { registered: false } } })
    // The route's schema sees the opened body: its refusal is sealed, in the caller's language.
    const invalid = await c.request('POST', IS_REGISTER, { body: { address: 'nope' }, lang: 'EN' })
    expect(invalid).toMatchObject({ status: 400, sealed: true, body: { code: CODE.INVALID } })
    // config may be asked sealed too (an app that knows the switch), and then answers sealed.
    expect(await c.request('GET', '/api/v1/common/config')).toMatchObject({ status: 200, sealed: true, body: { data: { envelope: true } } })
    // A query with a key no query of ours has is refused as a plain one would be, sealed.
    const forbidden = await c.request('POST', IS_REGISTER, { body: JSON.parse('{"__proto__": {"x": 1}, "address": "0x"}') as unknown, lang: 'EN' })
    expect(forbidden).toMatchObject({ status: 400, sealed: true })
    // The body limit holds for the opened body (the sealed one is a third larger and is let in for it).
    const large = await c.request('POST', IS_REGISTER, { body: { address: 'x'.repeat(s.config.bodyLimit + 100) }, lang: 'EN' })
    expect(large).toMatchObject({ status: 413, sealed: true, body: { msg: translate('EN', 'errors.bodyTooLarge') } })
  })

  it('changed data or sign is INVALID, an unknown handshake is RENEW, an envelope of the wrong shape is INVALID', async () => {
    const s = shared
    const c = await sealedClientOf(s)
    await c.handshake()
    const body = { address: freshWallet().address }
    const sealed = await c.seal('POST', IS_REGISTER, { body })
    const flip = (t: string) => (t[5] === 'A' ? 'B' : 'A')
    const at = (t: string) => t.slice(0, 5) + flip(t) + t.slice(6)
    refused(await c.send('POST', IS_REGISTER, { ...sealed, data: at(sealed.data) }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    refused(await c.send('POST', IS_REGISTER, { ...sealed, sign: at(sealed.sign) }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    // The same envelope sent to another path: the sign covers the path.
    refused(await c.send('POST', '/api/v1/auth/login', { ...sealed }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    // Sent with an Idempotency-Key it was not sealed with.
    refused(await c.send('POST', IS_REGISTER, { ...sealed }, { lang: 'EN', idempotencyKey: idemKey() }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    refused(await c.send('POST', IS_REGISTER, { ...sealed, handshake: 'AAAAAAAAAAAAAAAAAAAAAA' }, { lang: 'EN' }), 400, SEAL_CODE.RENEW, 'errors.sealRenew')
    refused(await c.send('POST', IS_REGISTER, { ...sealed, timestamp: 'now' }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    refused(await c.send('POST', IS_REGISTER, { ...sealed, extra: 1 }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    // Under another client's handshake with this one's sign: the keys differ.
    const other = await sealedClientOf(s)
    await other.handshake()
    refused(await c.send('POST', IS_REGISTER, { ...sealed, handshake: other.keys.handshake }, { lang: 'EN' }), 400, SEAL_CODE.INVALID, 'errors.sealInvalid')
    // None of the above spent the envelope: sent as sealed, it is answered.
    expect(await c.send('POST', IS_REGISTER, { ...sealed })).toMatchObject({ status: 200, sealed: true })
  })

  it('a timestamp outside ±60 s is CLOCK with the server’s time; at the edge it is taken', async () => {
    const s = shared
    const c = await sealedClientOf(s)
    await c.handshake()
    const now = s.clock.now()
    for (const timestamp of [now - SEAL_WINDOW_MS - 1, now + SEAL_WINDOW_MS + 1]) {
      const a = await c.request('GET', MAIN_INFO, { timestamp, lang: 'EN' })
      refused(a, 400, SEAL_CODE.CLOCK, 'errors.sealClock')
      expect(a.body.data).toEqual({ server_time: now })
    }
    for (const timestamp of [now - SEAL_WINDOW_MS, now + SEAL_WINDOW_MS]) expect((await c.request('GET', MAIN_INFO, { timestamp })).status).toBe(200)
  })

  it('the same sign twice is REPLAY and applies nothing twice; an hour on the copy is refused by its clock', async () => {
    const s = shared
    const { c, wallet, sealed } = await sealedLoginMessage(s)
    expect((await c.send('GET', LOGIN_MESSAGE, { ...sealed })).status).toBe(200)
    refused(await c.send('GET', LOGIN_MESSAGE, { ...sealed }, { lang: 'EN' }), 400, SEAL_CODE.REPLAY, 'errors.sealReplay')
    expect(await s.count('SELECT count(*) FROM login_nonces WHERE address = ?', wallet.address.toLowerCase())).toBe(1)
    s.clock.advance(3 * SEAL_WINDOW_MS)
    expect((await c.send('GET', LOGIN_MESSAGE, { ...sealed })).body.code).toBe(SEAL_CODE.CLOCK)
  })

  it('the same sealed request sent twice at once: one is answered, the copy is REPLAY, applied once', async () => {
    const s = shared
    const { c, wallet, sealed } = await sealedLoginMessage(s)
    const answers = await Promise.all([c.send('GET', LOGIN_MESSAGE, { ...sealed }, { lang: 'EN' }), c.send('GET', LOGIN_MESSAGE, { ...sealed }, { lang: 'EN' })])
    const ok = answers.filter((a) => a.status === 200)
    expect(ok).toHaveLength(1)
    expect(ok[0]!.sealed).toBe(true)
    refused(answers.find((a) => a.status !== 200)!, 400, SEAL_CODE.REPLAY, 'errors.sealReplay')
    expect(await s.count('SELECT count(*) FROM login_nonces WHERE address = ?', wallet.address.toLowerCase())).toBe(1)
  })

  it('an expired handshake is RENEW; renewed with the token it works again, the old one only renews, and the one a lost renewal made is dead', async () => {
    // A handshake shorter than the session's idle time, as the app renews it while the session lives.
    const s = await start({ env: { NADI_HANDSHAKE_TTL_MS: '60000' } })
    const { c, token } = await signedIn(s)
    const first = c.keys
    s.clock.advance(s.config.envelope.handshakeTtlMs + 1)
    refused(await c.request('GET', MAIN_INFO, { token, lang: 'EN' }), 400, SEAL_CODE.RENEW, 'errors.sealRenew')
    // Without a token an expired handshake renews nothing.
    refused(await c.send('POST', '/api/v1/common/handshake', { ...(await c.seal('POST', '/api/v1/common/handshake', { body: { key: 'x' } })) }, { lang: 'EN' }), 400, SEAL_CODE.RENEW, 'errors.sealRenew')
    const lost = await c.renew(token)
    expect(lost).toMatchObject({ status: 200, sealed: true })
    const lostKeys = lost.keys!
    // The answer "was lost": the app renews again from the first handshake, now the session's previous.
    const again = await c.renew(token, first)
    expect(again.status).toBe(200)
    expect((await c.request('GET', '/api/v1/user/info', { token })).status).toBe(200)
    // The first handshake renews but seals nothing else; the one whose answer was lost is no longer the session's.
    const old = await c.request('GET', '/api/v1/user/info', { token, keys: first, lang: 'EN' })
    expect(old.status).toBe(400)
    refused(await c.request('GET', '/api/v1/user/info', { token, keys: lostKeys, lang: 'EN' }), 401, CODE.UNAUTHORIZED, 'errors.sealSession')
    const fromLost = await c.renew(token, lostKeys)
    expect(fromLost).toMatchObject({ status: 401, sealed: true, body: { code: CODE.UNAUTHORIZED } })
    // Handshakes no session could renew from any longer are swept, with the signs past their window.
    expect(await s.count('SELECT count(*) FROM handshakes')).toBe(3)
    s.clock.advance(s.config.session.maxAgeMs + s.config.envelope.handshakeTtlMs + 1)
    expect((await cleanup(s.ctx)).handshakes).toBe(3)
  })

  it('an expired handshake no live session is bound to is swept at once; a live session keeps its current and previous ones until it ends', async () => {
    const s = await start({ env: { NADI_HANDSHAKE_TTL_MS: '60000' } })
    // Anyone can make handshakes without signing in: those must not outlive their minute.
    await (await sealedClientOf(s)).handshake()
    await (await sealedClientOf(s)).handshake()
    const { c, token } = await signedIn(s)
    s.clock.advance(s.config.envelope.handshakeTtlMs + 1)
    expect((await cleanup(s.ctx)).handshakes).toBe(2)
    expect(await s.count('SELECT count(*) FROM handshakes')).toBe(1)
    // Renewed: the session holds the new one as current and the old as previous, both kept while it lives.
    expect((await c.renew(token)).status).toBe(200)
    s.clock.advance(s.config.envelope.handshakeTtlMs + 1)
    expect((await cleanup(s.ctx)).handshakes).toBe(0)
    expect(await s.count('SELECT count(*) FROM handshakes')).toBe(2)
    // The session idles out: nothing can renew from either any more.
    s.clock.advance(s.config.session.idleMs + 1)
    expect((await cleanup(s.ctx)).handshakes).toBe(2)
  })

  it('a token sent under another handshake, another user’s included, or from a session made with the envelope off, is 401 sealSession ("sign in again")', async () => {
    const s = shared
    const alice = await signedIn(s)
    const bob = await signedIn(s)
    // Bob's token under Alice's handshake (a token lifted from a log, sealed by the thief's own keys).
    refused(await alice.c.request('GET', '/api/v1/user/info', { token: bob.token, lang: 'EN' }), 401, CODE.UNAUTHORIZED, 'errors.sealSession')
    const thief = await sealedClientOf(s)
    await thief.handshake()
    refused(await thief.request('GET', '/api/v1/user/info', { token: alice.token, lang: 'EN' }), 401, CODE.UNAUTHORIZED, 'errors.sealSession')
    // A thief cannot renew with it either.
    expect((await thief.renew(alice.token)).status).toBe(401)
    expect((await alice.c.request('GET', '/api/v1/user/info', { token: alice.token })).status).toBe(200)
    // A session made while the envelope was off is bound to no handshake: sign in again.
    await s.ctx.sql.run(statement('UPDATE sessions SET handshake_id = NULL WHERE user_id = ?'), await s.count('SELECT id FROM users WHERE wallet_address = ?', alice.wallet.address.toLowerCase()))
    refused(await alice.c.request('GET', '/api/v1/user/info', { token: alice.token, lang: 'EN' }), 401, CODE.UNAUTHORIZED, 'errors.sealSession')
  })

  it('a login message asked under one handshake cannot be used under another, and a token from a login under A is dead under B', async () => {
    const s = shared
    const a = await sealedClientOf(s)
    await a.handshake()
    const b = await sealedClientOf(s)
    await b.handshake()
    const wallet = freshWallet()
    const issued = await a.request<{ message: string }>('GET', LOGIN_MESSAGE, { query: { address: wallet.address, chainId: s.config.login.chainId, code: ROOT_CODE } })
    const { message } = issued.body.data
    const login = { address: wallet.address, message, sign_message: await wallet.signMessage(message), code: ROOT_CODE }
    const underB = await b.request('POST', '/api/v1/auth/login', { body: login, lang: 'EN' })
    expect(underB).toMatchObject({ status: 400, sealed: true, body: { msg: translate('EN', 'errors.loginMessageInvalid') } })
    const { token } = await a.signIn(ROOT_CODE, wallet)
    refused(await b.request('GET', '/api/v1/user/info', { token, lang: 'EN' }), 401, CODE.UNAUTHORIZED, 'errors.sealSession')
    expect((await a.request('GET', '/api/v1/user/info', { token })).status).toBe(200)
  })

  it('a repeated Idempotency-Key is answered from the stored answer, sealed afresh for the request that asked', async () => {
    const s = shared
    const { c, token } = await signedIn(s)
    const key = idemKey()
    const body = { purpose: 'car_apply', content_type: 'image/png', size: PNG.length }
    const first = await c.request<{ key: string; url: string; headers: Record<string, string> }>('POST', '/api/v1/common/generateR2PresignedUrl', { body, token, idempotencyKey: key })
    expect(first).toMatchObject({ status: 200, sealed: true })
    const second = await c.request<{ key: string }>('POST', '/api/v1/common/generateR2PresignedUrl', { body, token, idempotencyKey: key })
    expect(second).toMatchObject({ status: 200, sealed: true })
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.body.data.key).toBe(first.body.data.key)
    // The PUT is signed by its URL and stays plain; the file comes back sealed, its bytes and type inside.
    const put = await fetchOrInject(s, first.body.data.url, PNG, first.body.data.headers['content-type']!)
    expect(put.status).toBe(200)
    const file = await c.request('GET', '/api/v1/common/uploadFile', { query: { key: first.body.data.key }, token })
    expect(file).toMatchObject({ status: 200, sealed: true, type: 'image/png' })
    expect(Buffer.from(file.bytes).equals(PNG)).toBe(true)
  })

  it('a socket’s token counts only with its handshake’s proof: without one, with a stale or copied one, it is as no token', async () => {
    const s = shared
    const { c, token } = await signedIn(s)
    s.hub.register({ matches: (stream) => stream === 'user@test', private: true })
    const subscribed = async (client: Client) => {
      client.send({ method: 'SUBSCRIBE', params: ['user@test'], id: 1 })
      const answer = await client.next<{ error?: { code: number } }>()
      client.close()
      return answer.error === undefined
    }
    const proof = await c.socketQuery(token)
    expect(await subscribed(await Client.open(s, token, proof))).toBe(true)
    expect(await subscribed(await Client.open(s, token, proof))).toBe(false)
    expect(await subscribed(await Client.open(s, token))).toBe(false)
    expect(await subscribed(await Client.open(s, token, await c.socketQuery(token, s.clock.now() - SEAL_WINDOW_MS - 1)))).toBe(false)
    const thief = await sealedClientOf(s)
    await thief.handshake()
    expect(await subscribed(await Client.open(s, token, await thief.socketQuery(token)))).toBe(false)
  })
})

describe('handshakes per IP', () => {
  it('an IP gets NADI_HANDSHAKE_PER_IP handshakes a minute, then 429; another IP is not held up, and the next minute it may again', async () => {
    const s = await start({ env: { NADI_HANDSHAKE_PER_IP: '2' } })
    const key = (await beginHandshake()).body
    const make = (ip: string) => s.post('/api/v1/common/handshake', key, { ip, lang: 'EN' })
    expect((await make('203.0.113.7')).statusCode).toBe(200)
    expect((await make('203.0.113.7')).statusCode).toBe(200)
    expect((await make('203.0.113.7')).body_).toMatchObject({ code: CODE.RATE_LIMITED })
    expect((await make('203.0.113.8')).statusCode).toBe(200)
    s.clock.advance(60_000)
    expect((await make('203.0.113.7')).statusCode).toBe(200)
  })
})

describe('switch and key', () => {
  it('off: no handshake route and the app is told so', async () => {
    const s = await start({ envelope: false, env: { NADI_ENVELOPE: 'off' } })
    expect((await s.get<{ envelope: boolean }>('/api/v1/common/config')).body_.data.envelope).toBe(false)
    expect((await s.post('/api/v1/common/handshake', { key: 'x' })).statusCode).toBe(404)
    expect((await s.get(MAIN_INFO)).statusCode).toBe(200)
  })

  it('a server refuses to start beside an app built with another envelope key, or with none, naming both', async () => {
    const s = shared
    const other = path.join(s.dir, 'other-key.pem')
    const distDir = s.distDir
    const built = fs.readFileSync(path.join(distDir, BUILT_KEY_FILE), 'utf8')
    await expect(startServer({ envelope: true, env: { NADI_ENVELOPE_KEY_FILE: other, NADI_DIST_DIR: distDir } })).rejects.toThrow(new RegExp(`built with envelope key ${built} but this server signs with [A-Za-z0-9_-]{87} \\(${other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`))
  })

  it.runIf(testBackend() === 'sqlite')('the refusal is one line of a server that does not start', { timeout: 60_000 }, async () => {
    const dir = path.join(shared.dir, 'refused')
    fs.mkdirSync(dir)
    const refusedStart = await startRefused(dir, { NADI_ENVELOPE: 'on', NADI_DIST_DIR: shared.distDir })
    expect(refusedStart.code).toBe(1)
    expect(refusedStart.out.trim().split('\n')).toEqual([expect.stringMatching(/^NADI did not start: the app in .* was built with envelope key [A-Za-z0-9_-]{87} but this server signs with [A-Za-z0-9_-]{87} \(.*envelope-key\.pem\): build the app with the same NADI_ENVELOPE_KEY_FILE$/)])
  })
})
