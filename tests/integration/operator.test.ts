// The operator console's server side (issue 35): sign-in apart from the app's, short sessions ended at
// once, operator routes that take no user token (and user routes that take no operator's), a role
// guard whose refusal is a 403 in the operator's language that changes nothing, and the first routes
// on operators and the operator log.
import { describe, expect, it } from 'vitest'
import { getAddress } from 'ethers'
import { ROOT_CODE, freshWallet, idemKey, localeText, useServers, type TestServer } from './support/server.ts'
import { OP, operatorNonce, operatorOf, operatorSignIn, operatorVerify, removeOperatorHttp } from './support/operators.ts'
import type { Operator, OplogEntry } from '../../contract/operator.ts'
import type { PagedList } from '../../contract/envelope.ts'
import { parseOperatorMessage } from '../../server/modules/operator/message.ts'
import { testBackend } from '../support/pg.ts'

const start = useServers({ env: { NADI_DEMO: '0' } })
const MIN = 60_000
const HOUR = 60 * MIN

const oplog = (s: TestServer, token: string, query = '', lang = 'EN') => s.get<PagedList<OplogEntry>>(`${OP}/oplog${query}`, { token, lang })
const operators = (s: TestServer, token: string, lang = 'EN') => s.get<Operator[]>(`${OP}/operators`, { token, lang })
const fill = (text: string, params: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '')

describe('operator sign-in', () => {
  it("an operator signs in with a message naming the console's origin, a nonce and an expiry, and reads the log", async () => {
    const s = await start({ env: { NADI_OPERATOR_ORIGIN: 'https://console.nadi.test' } })
    const admin = await operatorOf(s, 'admin')
    const issued = await operatorNonce(s, admin)
    expect(issued.statusCode).toBe(200)
    const fields = parseOperatorMessage(issued.body_.data.message)
    expect(fields).toMatchObject({ origin: 'https://console.nadi.test', address: admin.address, nonce: issued.body_.data.nonce, issuedAt: s.clock.now(), expiresAt: s.clock.now() + 5 * MIN })
    const session = await operatorSignIn(s, admin)
    expect(session).toMatchObject({ address: admin.address, role: 'admin', idle_ms: 15 * MIN, expires_at: s.clock.now() + 8 * HOUR })
    expect(session.token).toMatch(/^nadiop_/)
    const log = await oplog(s, session.token)
    expect(log.statusCode).toBe(200)
    expect(log.body_.data.list.map((e) => [e.action, e.object_id])).toEqual([['operator.add', admin.address]])
  })

  it('a replayed signature is refused: the nonce was spent by the first verify', async () => {
    const s = await start()
    const admin = await operatorOf(s, 'admin')
    const { message } = (await operatorNonce(s, admin)).body_.data
    const body = { address: admin.address, message, sign_message: await admin.signMessage(message) }
    expect((await operatorVerify(s, body)).statusCode).toBe(200)
    const again = await operatorVerify(s, body, { lang: 'EN' })
    expect(again.statusCode).toBe(400)
    expect(again.body_).toEqual({ code: 400, msg: localeText('en', 'errors.loginMessageInvalid'), data: null })
    expect(await s.count('SELECT count(*) FROM operator_sessions')).toBe(1)
  })

  it('an expired message is refused, and its nonce is spent', async () => {
    const s = await start()
    const admin = await operatorOf(s, 'admin')
    const { message } = (await operatorNonce(s, admin)).body_.data
    s.clock.advance(5 * MIN)
    const res = await operatorVerify(s, { address: admin.address, message, sign_message: await admin.signMessage(message) }, { lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(localeText('en', 'errors.loginMessageExpired'))
    expect(await s.count('SELECT count(*) FROM operator_nonces')).toBe(0)
    expect(await s.count('SELECT count(*) FROM operator_sessions')).toBe(0)
  })

  it('a page of another origin is refused, and so is a message issued for another origin than the one signing in', async () => {
    const s = await start({ env: { NADI_OPERATOR_ORIGIN: 'https://console.nadi.test' } })
    const admin = await operatorOf(s, 'admin')
    const evil = { headers: { origin: 'https://console-nadi.evil.example' }, lang: 'EN' }
    const nonce = await operatorNonce(s, admin, evil)
    expect(nonce.statusCode).toBe(403)
    expect(nonce.body_.msg).toBe(fill(localeText('en', 'operator.errors.wrongOrigin'), { origin: 'https://console.nadi.test' }))
    const { message } = (await operatorNonce(s, admin, { headers: { origin: 'https://console.nadi.test' } })).body_.data
    const verify = await operatorVerify(s, { address: admin.address, message, sign_message: await admin.signMessage(message) }, evil)
    expect(verify.statusCode).toBe(403)

    // Without the setting the console's origin is the request's: a message asked for under one host
    // does not sign in under another.
    const plain = await start()
    const other = await operatorOf(plain, 'admin')
    const forged = (await operatorNonce(plain, other, { headers: { host: 'console-nadi.evil.example' } })).body_.data.message
    expect(parseOperatorMessage(forged)?.origin).toBe('http://console-nadi.evil.example')
    const res = await operatorVerify(plain, { address: other.address, message: forged, sign_message: await other.signMessage(forged) }, { lang: 'EN' })
    expect(res.statusCode).toBe(403)
    expect(res.body_.msg).toBe(fill(localeText('en', 'operator.errors.wrongOrigin'), { origin: 'http://localhost' }))
    expect(await plain.count('SELECT count(*) FROM operator_sessions')).toBe(0)
  })

  it('an address that is not a current operator is refused after signing, a user of the app included', async () => {
    const s = await start()
    const user = await s.signIn(ROOT_CODE)
    for (const wallet of [freshWallet(), user.wallet]) {
      const { message } = (await operatorNonce(s, wallet)).body_.data
      const res = await operatorVerify(s, { address: wallet.address, message, sign_message: await wallet.signMessage(message) }, { lang: 'EN' })
      expect(res.statusCode).toBe(403)
      expect(res.body_.msg).toBe(localeText('en', 'operator.errors.notOperatorSignIn'))
    }
    // Signed by another wallet than the address named: refused as a bad signature.
    const admin = await operatorOf(s, 'admin')
    const { message } = (await operatorNonce(s, admin)).body_.data
    const stolen = await operatorVerify(s, { address: admin.address, message, sign_message: await freshWallet().signMessage(message) })
    expect(stolen.statusCode).toBe(400)
    expect(await s.count('SELECT count(*) FROM operator_sessions')).toBe(0)
  })
})

describe('operator sessions', () => {
  it('a session ends after 15 minutes unused (the clock injected), and lives no longer than 8 hours however used', async () => {
    const s = await start()
    const viewer = await operatorOf(s, 'viewer')
    const { token } = await operatorSignIn(s, viewer)
    s.clock.advance(15 * MIN - 1000)
    expect((await oplog(s, token)).statusCode).toBe(200)
    s.clock.advance(15 * MIN - 1000)
    expect((await oplog(s, token)).statusCode).toBe(200)
    s.clock.advance(15 * MIN + 1)
    const idle = await oplog(s, token)
    expect(idle.statusCode).toBe(401)
    expect(idle.body_).toEqual({ code: 401, msg: localeText('en', 'operator.errors.sessionEnded'), data: null })

    const busy = (await operatorSignIn(s, viewer)).token
    for (let used = 0; used < 8 * HOUR - 10 * MIN; used += 10 * MIN) {
      s.clock.advance(10 * MIN)
      expect((await oplog(s, busy)).statusCode, `${used / MIN} min`).toBe(200)
    }
    s.clock.advance(10 * MIN)
    expect((await oplog(s, busy)).statusCode).toBe(401)
  })

  it('sign-out ends the session at once', async () => {
    const s = await start()
    const { token } = await operatorSignIn(s, await operatorOf(s, 'support'))
    expect((await s.post(`${OP}/auth/signOut`, undefined, { token })).statusCode).toBe(200)
    expect((await oplog(s, token)).statusCode).toBe(401)
  })

  it("a removed operator's token is refused at once", async () => {
    const s = await start()
    const admin = await operatorSignIn(s, await operatorOf(s, 'admin'))
    const finance = await operatorOf(s, 'finance')
    const { token } = await operatorSignIn(s, finance)
    expect((await oplog(s, token)).statusCode).toBe(200)
    const removed = await removeOperatorHttp(s, finance.address, { reason: 'left the company' }, { token: admin.token })
    expect(removed.statusCode).toBe(200)
    expect((await oplog(s, token)).statusCode).toBe(401)
    expect(await s.count('SELECT count(*) FROM operator_sessions WHERE revoked_at IS NULL')).toBe(1)
  })

  it("a user's token on an operator route and an operator's token on a user route are refused", async () => {
    const s = await start()
    const user = await s.signIn(ROOT_CODE)
    const op = await operatorSignIn(s, await operatorOf(s, 'admin'))
    const onOperator = await oplog(s, user.token)
    expect(onOperator.statusCode).toBe(401)
    expect(onOperator.body_.msg).toBe(localeText('en', 'operator.errors.sessionEnded'))
    const onUser = await s.get('/api/v1/user/info', { token: op.token, lang: 'EN' })
    expect(onUser.statusCode).toBe(401)
    expect(onUser.body_).toEqual({ code: 401, msg: localeText('en', 'errors.loginExpired'), data: null })
    // Neither token was spent by the refusal: each still works where it belongs.
    expect((await s.get('/api/v1/user/info', { token: user.token })).statusCode).toBe(200)
    expect((await oplog(s, op.token)).statusCode).toBe(200)
    const none = await oplog(s, '', '', 'EN')
    expect(none.statusCode).toBe(401)
  })
})

describe('roles', () => {
  it('a support operator adding an operator hears a 403 in their language, and nothing changes', async () => {
    const s = await start()
    const support = await operatorSignIn(s, await operatorOf(s, 'support'))
    const before = { operators: await s.count('SELECT count(*) FROM operators'), oplog: await s.count('SELECT count(*) FROM oplog') }
    const target = freshWallet().address
    for (const lang of ['JP', 'TH', 'EN'] as const) {
      const res = await s.post(`${OP}/operators`, { address: target, role: 'admin', reason: 'promote' }, { token: support.token, lang, idempotencyKey: idemKey() })
      expect(res.statusCode, lang).toBe(403)
      const file = lang.toLowerCase()
      const role = (r: string) => localeText(file, `operator.roles.${r}`)
      expect(res.body_, lang).toEqual({ code: 403, msg: fill(localeText(file, 'operator.errors.forbidden'), { role: role('support'), need: role('admin') }), data: null })
    }
    expect((await operators(s, support.token)).statusCode).toBe(403)
    expect((await removeOperatorHttp(s, support.address, { reason: 'x' }, { token: support.token })).statusCode).toBe(403)
    expect({ operators: await s.count('SELECT count(*) FROM operators'), oplog: await s.count('SELECT count(*) FROM oplog') }).toEqual(before)
    expect(await s.count('SELECT count(*) FROM operators WHERE removed_at IS NULL')).toBe(1)
    expect(await s.count('SELECT count(*) FROM idempotency_keys')).toBe(0)
  })

  it('an admin adds and removes operators through the same functions as the CLI, each with its reason on the log', async () => {
    const s = await start()
    const admin = await operatorSignIn(s, await operatorOf(s, 'admin'))
    const newcomer = freshWallet()
    const lower = newcomer.address.toLowerCase()
    const added = await s.post<Operator>(`${OP}/operators`, { address: lower, role: 'finance', reason: 'new finance lead' }, { token: admin.token, idempotencyKey: idemKey() })
    expect(added.statusCode).toBe(200)
    expect(added.body_.data).toEqual({ address: newcomer.address, role: 'finance', added_at: s.clock.now(), added_by: admin.address })
    expect((await operators(s, admin.token)).body_.data.map((o) => [o.address, o.role])).toEqual([
      [admin.address, 'admin'],
      [newcomer.address, 'finance'],
    ])
    const twice = await s.post(`${OP}/operators`, { address: newcomer.address, role: 'admin', reason: 'again' }, { token: admin.token, idempotencyKey: idemKey(), lang: 'EN' })
    expect(twice.statusCode).toBe(409)
    expect(twice.body_.msg).toBe(fill(localeText('en', 'operator.errors.alreadyOperator'), { address: newcomer.address, role: 'finance' }))

    // A reason is required, and named in the operator's language.
    const noReason = await s.post(`${OP}/operators`, { address: freshWallet().address, role: 'viewer' }, { token: admin.token, idempotencyKey: idemKey(), lang: 'KO' })
    expect(noReason.statusCode).toBe(400)
    expect(noReason.body_.msg).toBe(fill(localeText('ko', 'errors.invalidField'), { field: localeText('ko', 'fields.reason') }))
    const badRole = await s.post(`${OP}/operators`, { address: freshWallet().address, role: 'root', reason: 'x' }, { token: admin.token, idempotencyKey: idemKey() })
    expect(badRole.statusCode).toBe(400)

    const removed = await removeOperatorHttp(s, newcomer.address, { reason: 'moved to support' }, { token: admin.token })
    expect(removed.statusCode).toBe(200)
    const gone = await removeOperatorHttp(s, newcomer.address, { reason: 'again' }, { token: admin.token, lang: 'EN' })
    expect(gone.statusCode).toBe(404)
    expect(gone.body_.msg).toBe(fill(localeText('en', 'operator.errors.notOperator'), { address: newcomer.address }))

    const history = await oplog(s, admin.token, `?object_type=operator&object_id=${lower}`)
    expect(history.body_.data.list.map(({ actor, role, action, before, after, reason }) => ({ actor, role, action, before, after, reason }))).toEqual([
      { actor: admin.address, role: 'admin', action: 'operator.remove', before: { address: newcomer.address, role: 'finance' }, after: null, reason: 'moved to support' },
      { actor: admin.address, role: 'admin', action: 'operator.add', before: null, after: { address: newcomer.address, role: 'finance' }, reason: 'new finance lead' },
    ])
  })

  it("a repeated POST with its Idempotency-Key applies once, the keys kept apart from every user's", async () => {
    const s = await start()
    const admin = await operatorSignIn(s, await operatorOf(s, 'admin'))
    const key = idemKey()
    const body = { address: freshWallet().address, role: 'viewer', reason: 'hire' }
    const first = await s.post<Operator>(`${OP}/operators`, body, { token: admin.token, idempotencyKey: key })
    const again = await s.post<Operator>(`${OP}/operators`, body, { token: admin.token, idempotencyKey: key })
    expect(first.statusCode).toBe(200)
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body_).toEqual(first.body_)
    expect(await s.count("SELECT count(*) FROM oplog WHERE reason = 'hire'")).toBe(1)
    expect(await s.count('SELECT count(*) FROM idempotency_keys WHERE scope LIKE ?', 'o:%')).toBe(1)
  })

  it('the log pages newest first and filters by operator and moment', async () => {
    const s = await start()
    const admin = await operatorSignIn(s, await operatorOf(s, 'admin'))
    const t1 = s.clock.now()
    for (let i = 0; i < 3; i++) {
      s.clock.advance(1000)
      await s.post(`${OP}/operators`, { address: freshWallet().address, role: 'viewer', reason: `hire ${i}` }, { token: admin.token, idempotencyKey: idemKey() })
    }
    const first = await oplog(s, admin.token, '?page=1&page_size=2')
    expect(first.body_.data.total).toBe(4)
    expect(first.body_.data.list.map((e) => e.reason)).toEqual(['hire 2', 'hire 1'])
    expect((await oplog(s, admin.token, '?page=2&page_size=2')).body_.data.list.map((e) => e.reason)).toEqual(['hire 0', null])
    expect((await oplog(s, admin.token, `?actor=${admin.address.toLowerCase()}`)).body_.data.total).toBe(3)
    expect((await oplog(s, admin.token, '?actor=cli:test')).body_.data.total).toBe(1)
    expect((await oplog(s, admin.token, `?since=${t1 + 1500}`)).body_.data.list.map((e) => e.reason)).toEqual(['hire 2', 'hire 1'])
    expect((await oplog(s, admin.token, '?object_type=Operator')).statusCode).toBe(400)
  })
})

describe('rate limits', () => {
  it("sign-in is limited per address as the app's, and each operator's calls per window", async () => {
    const s = await start({ env: { NADI_OPERATOR_LOGIN_PER_ADDRESS: '2', NADI_OPERATOR_CALLS_PER_MINUTE: '3' } })
    const admin = await operatorOf(s, 'admin')
    const { token } = await operatorSignIn(s, admin)
    // The nonce and the verify of that sign-in were the address's two attempts in this window.
    const third = await operatorNonce(s, admin, { lang: 'EN' })
    expect(third.statusCode).toBe(429)
    expect(third.body_.msg).toBe(localeText('en', 'errors.tooFrequent'))
    for (let i = 0; i < 3; i++) expect((await oplog(s, token)).statusCode).toBe(200)
    expect((await oplog(s, token)).statusCode).toBe(429)
    s.clock.advance(MIN)
    expect((await oplog(s, token)).statusCode).toBe(200)
    expect((await operatorNonce(s, admin)).statusCode).toBe(200)
  })
})

describe('the operator log', () => {
  it("cannot be updated or deleted, even with raw SQL on the server's own connection", async () => {
    const s = await start()
    const admin = await operatorOf(s, 'admin')
    const { statement } = await import('../../server/db/query/types.ts')
    const before = await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM oplog'))
    expect(before).toHaveLength(1)
    await expect(s.ctx.sql.run(statement("UPDATE oplog SET reason = 'edited', actor = 'nobody'"))).rejects.toThrow(/oplog is append-only/)
    await expect(s.ctx.sql.run(statement('DELETE FROM oplog'))).rejects.toThrow(/oplog is append-only/)
    await expect(s.ctx.sql.transaction((tx) => tx.run(statement('DELETE FROM oplog WHERE object_id = ?'), getAddress(admin.address)))).rejects.toThrow(/oplog is append-only/)
    // PostgreSQL's TRUNCATE fires no row trigger: a statement trigger of its own refuses it (SQLite has none).
    if (testBackend() === 'postgres') await expect(s.ctx.sql.run(statement('TRUNCATE oplog'))).rejects.toThrow(/oplog is append-only/)
    expect(await s.ctx.sql.all(statement<Record<string, unknown>>('SELECT * FROM oplog'))).toEqual(before)
  })
})
