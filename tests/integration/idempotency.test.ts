import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { ROOT_CODE, freshWallet, idemKey, localeText, useServers, type TestServer } from './support/server.ts'
import { requireAuth } from '../../server/http/auth.ts'
import { ok } from '../../server/http/reply.ts'
import { badRequest } from '../../server/http/errors.ts'
import { statement } from '../../server/db/query/types.ts'

const PROBE = statement<never, [n: number]>('INSERT INTO probe_effects (n) VALUES (?)')

const start = useServers()
const DAY = 24 * 3600_000

/**
 * A state-changing POST like the areas to come (orders, transfers): every run that reaches the
 * handler counts once. `mode` lets a test ask for a business error or a crash.
 */
function addProbe(s: TestServer) {
  const runs: { user: number; amount: string }[] = []
  let gate: Promise<void> | null = null
  let onEnter: (() => void) | null = null
  s.app.post(
    '/api/v1/probe/apply',
    {
      preHandler: requireAuth,
      schema: { hide: true, body: Type.Object({ amount: Type.String(), mode: Type.Optional(Type.String()) }) },
    },
    async (req) => {
      if (gate) {
        onEnter?.()
        await gate
      }
      const { amount, mode } = req.body as { amount: string; mode?: string }
      if (mode === 'reject') throw badRequest('errors.badRequest')
      if (mode === 'crash') throw new Error('boom')
      runs.push({ user: req.user!.id, amount })
      return ok(req, { run: runs.length, amount })
    },
  )
  return {
    runs,
    /** Holds every handler until `release` is called; `entered` settles when one is parked. */
    hold() {
      let open!: () => void
      gate = new Promise<void>((r) => (open = r))
      const entered = new Promise<void>((r) => (onEnter = r))
      return {
        entered,
        release() {
          gate = null
          onEnter = null
          open()
        },
      }
    },
  }
}

describe('Idempotency-Key on state-changing POSTs', () => {
  it('the same key twice: the second answer is a replay with an identical body, and the action applies once', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const first = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    const second = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    expect(first.statusCode).toBe(200)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(second.statusCode).toBe(200)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.headers['content-type']).toMatch(/^application\/json/)
    expect(second.body).toBe(first.body)
    expect(probe.runs).toHaveLength(1)
  })

  it('without a key every POST applies', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token })
    await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token })
    expect(probe.runs).toHaveLength(2)
  })

  it('the same key with a different body is refused with 400 and does not apply', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    const res = await s.post('/api/v1/probe/apply', { amount: '6' }, { token: me.token, idempotencyKey: key, lang: 'EN' })
    expect(res.statusCode).toBe(400)
    expect(res.body_).toEqual({ code: 400, msg: localeText('en', 'errors.idempotencyKeyReused'), data: null })
    expect(probe.runs).toEqual([{ user: me.userId, amount: '5' }])
  })

  it('a key that is not 8–64 letters, digits, - or _ is refused with 400 and does not apply', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    for (const key of ['short', 'has spaces in it', 'x'.repeat(65), 'semi;colon;key']) {
      const res = await s.post('/api/v1/probe/apply', { amount: '1' }, { token: me.token, idempotencyKey: key, lang: 'EN' })
      expect(res.statusCode, key).toBe(400)
      expect(res.body_, key).toEqual({ code: 400, msg: localeText('en', 'errors.idempotencyKeyInvalid'), data: null })
    }
    expect(probe.runs).toHaveLength(0)
  })

  it('keys belong to one user: another user sending the same key gets their own answer', async () => {
    const s = await start()
    const probe = addProbe(s)
    const a = await s.signIn(ROOT_CODE)
    const b = await s.signIn(ROOT_CODE)
    const key = idemKey()
    await s.post('/api/v1/probe/apply', { amount: '5' }, { token: a.token, idempotencyKey: key })
    const res = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: b.token, idempotencyKey: key })
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(probe.runs.map((r) => r.user)).toEqual([a.userId, b.userId])
  })

  it('a retry after signing in again (a new token for the same user) still finds the first answer', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const first = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    s.clock.advance(10 * 60_000) // the first token has expired
    const again = await s.signIn(undefined, me.wallet)
    const retry = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: again.token, idempotencyKey: key })
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(first.body)
    expect(probe.runs).toHaveLength(1)
  })

  it('a business error is stored and replayed like a success', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const first = await s.post('/api/v1/probe/apply', { amount: '5', mode: 'reject' }, { token: me.token, idempotencyKey: key })
    const second = await s.post('/api/v1/probe/apply', { amount: '5', mode: 'reject' }, { token: me.token, idempotencyKey: key })
    expect(first.statusCode).toBe(400)
    expect(second.statusCode).toBe(400)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.body).toBe(first.body)
    expect(probe.runs).toHaveLength(0)
  })

  it('a server error is not stored: the retry runs again', async () => {
    const s = await start()
    addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const first = await s.post('/api/v1/probe/apply', { amount: '5', mode: 'crash' }, { token: me.token, idempotencyKey: key })
    expect(first.statusCode).toBe(500)
    expect(first.body_.code).toBe(500)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys')).toBe(0)
    const second = await s.post('/api/v1/probe/apply', { amount: '5', mode: 'crash' }, { token: me.token, idempotencyKey: key })
    expect(second.headers['idempotent-replayed']).toBeUndefined()
  })

  it('a repeat while the first request is still running is refused with 409 and does not apply twice', async () => {
    const s = await start()
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const held = probe.hold()
    const first = s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    await held.entered // the first request is inside its handler
    const second = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key, lang: 'EN' })
    expect(second.statusCode).toBe(409)
    expect(second.body_).toEqual({ code: 409, msg: localeText('en', 'errors.requestInProgress'), data: null })
    held.release()
    expect((await first).statusCode).toBe(200)
    expect(probe.runs).toHaveLength(1)
    // Once finished, the answer is replayed.
    const third = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    expect(third.headers['idempotent-replayed']).toBe('true')
  })

  it('a key is remembered for 24 hours, then forgotten', async () => {
    const s = await start({ env: { NADI_SESSION_MAX_AGE_MS: String(30 * DAY) } })
    const probe = addProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    await s.post('/api/v1/probe/apply', { amount: '5' }, { token: me.token, idempotencyKey: key })
    s.clock.advance(DAY - 60_000)
    const again = await s.signIn(undefined, me.wallet)
    expect((await s.post('/api/v1/probe/apply', { amount: '5' }, { token: again.token, idempotencyKey: key })).headers['idempotent-replayed']).toBe('true')
    s.clock.advance(2 * 60_000)
    const later = await s.signIn(undefined, me.wallet)
    const res = await s.post('/api/v1/probe/apply', { amount: '5' }, { token: later.token, idempotencyKey: key })
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(probe.runs).toHaveLength(2)
  })
})

/** A POST whose effect is a row written through the group commit, as the money routes write theirs. */
async function addEffectProbe(s: TestServer) {
  await s.ctx.sql.run(statement('CREATE TABLE probe_effects (n INTEGER NOT NULL)'))
  let gate: Promise<void> | null = null
  let onEnter: (() => void) | null = null
  s.app.post('/api/v1/probe/effect', { preHandler: requireAuth, schema: { hide: true, body: Type.Object({ n: Type.Integer() }) } }, async (req) => {
    if (gate) {
      onEnter?.()
      await gate
    }
    const { n } = req.body as { n: number }
    return ok(req, await s.ctx.commits.write(async (tx) => (await tx.run(PROBE, n), { n })))
  })
  return {
    effects: () => s.count('SELECT COUNT(*) FROM probe_effects'),
    hold() {
      let open!: () => void
      gate = new Promise<void>((r) => (open = r))
      const entered = new Promise<void>((r) => (onEnter = r))
      return { entered, release: () => ((gate = null), open()) }
    },
  }
}

/** The row another process writes with its effect for the same request (server/http/idempotency.ts). */
async function keptElsewhere(s: TestServer, userId: number, key: string, body: unknown, answer: string | null) {
  const hash = crypto.createHash('sha256').update(`POST /api/v1/probe/effect\n${JSON.stringify(body)}`).digest('hex')
  await s.ctx.sql.run(statement('INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, holder) VALUES (?, ?, ?, ?, ?, ?, ?)'), `u:${userId}`, key, hash, answer === null ? null : 200, answer, s.clock.now(), answer === null ? null : 'another-process')
}

describe('Idempotency-Key: the answer lives in the effect’s transaction', () => {
  it('an answered key is written by the effect’s own commit, with the answer sent', async () => {
    const s = await start()
    const probe = await addEffectProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    // Counted from here: the request's commits, and no second one writing the same answer again.
    const commits = s.ctx.commits
    const write = commits.write.bind(commits)
    let writes = 0
    commits.write = ((fn, o) => (writes++, write(fn, o))) as typeof commits.write
    let res: Awaited<ReturnType<typeof s.post>>
    try {
      res = await s.post('/api/v1/probe/effect', { n: 7 }, { token: me.token, idempotencyKey: key })
    } finally {
      commits.write = write
    }
    expect(res.body_.data).toEqual({ n: 7 })
    expect(writes).toBe(1)
    expect(await probe.effects()).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys WHERE key = ? AND holder IS NOT NULL AND body = ?', key, res.body)).toBe(1)
  })

  it('the same key applied first on another process: this effect rolls back with 409 and the retry is answered from the other', async () => {
    const s = await start()
    const probe = await addEffectProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    const held = probe.hold()
    const first = s.post('/api/v1/probe/effect', { n: 1 }, { token: me.token, idempotencyKey: key, lang: 'EN' })
    await held.entered
    const theirs = JSON.stringify({ code: 200, msg: 'ok', data: { n: 1 } })
    await keptElsewhere(s, me.userId, key, { n: 1 }, theirs)
    held.release()
    const mine = await first
    expect(mine.statusCode).toBe(409)
    expect(mine.body_.msg).toBe(localeText('en', 'errors.requestInProgress'))
    expect(await probe.effects()).toBe(0)
    const retry = await s.post('/api/v1/probe/effect', { n: 1 }, { token: me.token, idempotencyKey: key })
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.body).toBe(theirs)
    expect(await probe.effects()).toBe(0)
  })

  it('a reservation without an answer, left by a process that is gone, does not block the key: the retry runs once', async () => {
    const s = await start()
    const probe = await addEffectProbe(s)
    const me = await s.signIn(ROOT_CODE)
    const key = idemKey()
    await keptElsewhere(s, me.userId, key, { n: 3 }, null)
    const res = await s.post('/api/v1/probe/effect', { n: 3 }, { token: me.token, idempotencyKey: key })
    expect(res.statusCode).toBe(200)
    const again = await s.post('/api/v1/probe/effect', { n: 3 }, { token: me.token, idempotencyKey: key })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(await probe.effects()).toBe(1)
  })

  it('a refusal by the route before its handler frees the key for the next try', async () => {
    const s = await start()
    await addEffectProbe(s)
    const key = idemKey()
    // No token: requireAuth refuses after the key was looked at.
    expect((await s.post('/api/v1/probe/effect', { n: 1 }, { idempotencyKey: key })).statusCode).toBe(401)
    expect((await s.post('/api/v1/probe/effect', { n: 1 }, { idempotencyKey: key })).statusCode).toBe(401)
  })
})

describe('Idempotency-Key on the auth routes', () => {
  it('logout with a key applies once; an invalid key is refused with 400 and leaves the token valid', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    const bad = await s.post('/api/v1/auth/logout', undefined, { token: me.token, idempotencyKey: 'bad key!' })
    expect(bad.statusCode).toBe(400)
    expect((await s.get('/api/v1/user/info', { token: me.token })).statusCode).toBe(200)

    const key = idemKey()
    const out = await s.post('/api/v1/auth/logout', undefined, { token: me.token, idempotencyKey: key })
    expect(out.statusCode).toBe(200)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys WHERE scope = ? AND key = ? AND status = 200', `u:${me.userId}`, key)).toBe(1)
    // The retry carries a token that is now revoked: it is told so (401, which signs the app out) and
    // the session stays revoked.
    const retry = await s.post('/api/v1/auth/logout', undefined, { token: me.token, idempotencyKey: key })
    expect(retry.statusCode).toBe(401)
    expect(await s.count('SELECT COUNT(*) FROM sessions WHERE revoked_at IS NULL')).toBe(0)
  })

  it('login is not stored for replay (the answer holds the token): a repeat with the same key cannot sign in twice', async () => {
    const s = await start()
    const wallet = freshWallet()
    const { message } = (await s.loginMessage(wallet, ROOT_CODE)).body_.data
    const body = { address: wallet.address, message, sign_message: await wallet.signMessage(message) }
    const key = idemKey()
    const first = await s.login(body, { idempotencyKey: key })
    const second = await s.login(body, { idempotencyKey: key })
    expect(first.statusCode).toBe(200)
    expect(second.statusCode).toBe(400)
    expect(second.headers['idempotent-replayed']).toBeUndefined()
    expect(await s.count('SELECT COUNT(*) FROM sessions')).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM users WHERE is_root = 0')).toBe(1)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys')).toBe(0)
  })

  it('isRegister changes nothing and keeps no key', async () => {
    const s = await start()
    const res = await s.post('/api/v1/auth/isRegister', { address: freshWallet().address }, { idempotencyKey: idemKey() })
    expect(res.statusCode).toBe(200)
    expect(await s.count('SELECT COUNT(*) FROM idempotency_keys')).toBe(0)
  })
})
