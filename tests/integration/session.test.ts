import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { getAddress } from 'ethers'
import { ROOT_CODE, T0, idemKey, localeText, useServers, type TestServer } from './support/server.ts'
import type { UserInfo } from '../../contract/user.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()
const MIN = 60_000

const info = (s: TestServer, token?: string) => s.get<UserInfo>('/api/v1/user/info', { lang: 'EN', ...(token === undefined ? {} : { token }) })

describe('the bearer token', () => {
  it('user/info with a token answers the signed-in user with code, name, counts, performances and address', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const res = await info(s, me.token)
    expect(res.statusCode).toBe(200)
    expect(res.body_.code).toBe(200)
    const row = (await s.ctx.sql.get(statement<{ code: string; name: string }>('SELECT code, name FROM users WHERE id = ?'), me.userId))!
    expect(res.body_.data).toEqual({
      id: me.userId,
      code: row.code,
      name: row.name,
      wallet_address: getAddress(me.address),
      zhi_num: 0,
      team_num: 0,
      me_performance: '0',
      zhi_performance: '0',
      team_performance: '0',
      level: 0,
      advanced_agent: false,
      created_at: T0,
    })
  })

  it('performances are decimal strings from integer units of 1e-8, never rounded', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await s.ctx.sql.run(statement('UPDATE users SET me_performance = ?, team_performance = ? WHERE id = ?'), 1_250_000_000n, 2n ** 60n + 1n, me.userId)
    const res = await info(s, me.token)
    expect(res.body_.data.me_performance).toBe('12.5')
    expect(res.body_.data.team_performance).toBe('11529215046.06846977')
  })

  it('without a token a protected call answers HTTP 401 with body code 401', async () => {
    const s = await start()
    const res = await info(s)
    expect(res.statusCode).toBe(401)
    expect(res.body_).toEqual({ code: 401, msg: localeText('en', 'errors.loginRequired'), data: null })
  })

  it('a garbage or unknown token answers HTTP 401 with body code 401 (login expired)', async () => {
    const s = await start()
    await s.signIn(ROOT_CODE)
    for (const token of ['garbage', crypto.randomBytes(32).toString('base64url'), 'a'.repeat(200)]) {
      const res = await info(s, token)
      expect(res.statusCode, token).toBe(401)
      expect(res.body_, token).toEqual({ code: 401, msg: localeText('en', 'errors.loginExpired'), data: null })
    }
    // Not a bearer header at all.
    const basic = await s.get('/api/v1/user/info', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })
    expect(basic.statusCode).toBe(401)
    expect(basic.body_.code).toBe(401)
  })

  it('a bad token on a public route does not fail the public call', async () => {
    const s = await start()
    const res = await s.get('/api/v1/common/config', { token: 'garbage' })
    expect(res.statusCode).toBe(200)
  })

  it('a token expires after 6 minutes without use', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    s.clock.advance(6 * MIN - 1)
    expect((await info(s, me.token)).statusCode).toBe(200)

    const other = await s.signIn(ROOT_CODE)
    s.clock.advance(6 * MIN + 1000)
    const res = await info(s, other.token)
    expect(res.statusCode).toBe(401)
    expect(res.body_.code).toBe(401)
    expect(res.body_.msg).toBe(localeText('en', 'errors.loginExpired'))
  })

  it('exactly 6 minutes and 1 second after sign-in an unused token is refused', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    s.clock.advance(6 * MIN + 1000)
    expect((await info(s, me.token)).statusCode).toBe(401)
  })

  it('each use slides the expiry: used at 5 minutes, still valid at 10, expired 6 minutes after the last use', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    s.clock.advance(5 * MIN)
    expect((await info(s, me.token)).statusCode).toBe(200)
    s.clock.advance(5 * MIN)
    expect((await info(s, me.token)).statusCode).toBe(200)
    s.clock.advance(6 * MIN + 1000)
    expect((await info(s, me.token)).statusCode).toBe(401)
  })

  it('a token in steady use still ends at the maximum session age', async () => {
    const s = await start({ env: { NADI_SESSION_MAX_AGE_MS: String(20 * MIN) } })
    const me = await s.signIn(ROOT_CODE)
    for (let t = 5; t < 20; t += 5) {
      s.clock.advance(5 * MIN)
      expect((await info(s, me.token)).statusCode, `at ${t} min`).toBe(200)
    }
    s.clock.advance(5 * MIN)
    expect((await info(s, me.token)).statusCode).toBe(401)
  })

  it('logout revokes the token; another session of the same user stays signed in', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const again = await s.signIn(undefined, me.wallet)
    const out = await s.post('/api/v1/auth/logout', undefined, { token: me.token, idempotencyKey: idemKey() })
    expect(out.statusCode).toBe(200)
    expect(out.body_).toMatchObject({ code: 200, data: null })
    expect((await info(s, me.token)).statusCode).toBe(401)
    expect((await info(s, again.token)).statusCode).toBe(200)
    expect(await s.count('SELECT COUNT(*) FROM sessions WHERE revoked_at IS NOT NULL')).toBe(1)
  })

  it('logout without a token answers 401', async () => {
    const s = await start()
    const res = await s.post('/api/v1/auth/logout', undefined, { lang: 'EN' })
    expect(res.statusCode).toBe(401)
    expect(res.body_.code).toBe(401)
  })

  it('the database keeps only a SHA-256 hash of the token, never the token itself', async () => {
    const s = await start()
    // The app sends an Idempotency-Key with every POST, login included.
    const me = await s.signIn(ROOT_CODE)
    const { wallet } = me
    const { message } = (await s.loginMessage(wallet)).body_.data
    const viaApp = await s.login({ address: wallet.address, message, sign_message: await wallet.signMessage(message) }, { idempotencyKey: idemKey() })
    expect(viaApp.statusCode).toBe(200)

    for (const token of [me.token, viaApp.body_.data.token]) {
      const hash = crypto.createHash('sha256').update(token).digest('hex')
      expect(await s.count('SELECT COUNT(*) FROM sessions WHERE token_hash = ?', hash)).toBe(1)
      // Nowhere in any table: sessions, idempotency records or anything else.
      const tables = (
        await s.ctx.sql.all(
          statement<{ name: string }>(
            s.ctx.sql.dialect === 'postgres'
              ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
              : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          ),
        )
      ).map((t) => t.name)
      for (const table of tables) {
        const rows = await s.ctx.sql.all(statement<Record<string, unknown>>(`SELECT * FROM "${table}"`))
        const dump = JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
        expect(dump.includes(token), `raw token found in ${table}`).toBe(false)
      }
    }
  })
})
