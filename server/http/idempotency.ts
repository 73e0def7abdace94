import crypto from 'node:crypto'
import type { Ctx } from '../context.ts'
import { conflict, badRequest } from './errors.ts'
import type { App } from './types.ts'

const KEY_RE = /^[A-Za-z0-9_-]{8,64}$/

/**
 * Idempotency-Key on POSTs (DESIGN §3): the first response to a key is stored and replayed for any
 * repeat within 24 h, so a retried or queued action applies once. Keys are scoped to the user, so a
 * replay after signing in again still finds its first answer.
 */
export function idempotency(app: App, ctx: Ctx) {
  const { db, sqlite } = ctx
  app.decorateRequest('idempotency', null)
  // The two writes every keyed POST makes, prepared once and group-committed with the other requests'
  // writes (ctx.commits) rather than each paying a commit of its own.
  const reserve = sqlite.prepare('INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at) VALUES (?, ?, ?, NULL, NULL, ?) ON CONFLICT DO NOTHING')
  const answer = sqlite.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE scope = ? AND key = ?')
  const forget = sqlite.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?')

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || req.routeOptions.config.idempotent === false) return
    const key = req.headers['idempotency-key']
    if (key === undefined) return
    if (typeof key !== 'string' || !KEY_RE.test(key)) throw badRequest('errors.idempotencyKeyInvalid')
    const scope = req.user ? `u:${req.user.id}` : 'anon'
    const hash = crypto.createHash('sha256').update(`${req.method} ${req.routeOptions.url}\n${JSON.stringify(req.body ?? null)}`).digest('hex')
    const now = ctx.now()
    const inserted = await ctx.commits.submit(() => reserve.run(scope, key, hash, now).changes, { atomic: true })
    if (inserted === 1) {
      req.idempotency = { scope, key }
      return
    }
    const prior = await db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirstOrThrow()
    if (Number(prior.created_at) < now - ctx.config.idempotencyTtlMs) {
      // An expired key starts afresh.
      await db.updateTable('idempotency_keys').set({ request_hash: hash, status: null, body: null, created_at: BigInt(now) }).where('scope', '=', scope).where('key', '=', key).execute()
      req.idempotency = { scope, key }
      return
    }
    if (prior.request_hash !== hash) throw badRequest('errors.idempotencyKeyReused')
    if (prior.status === null || prior.body === null) throw conflict('errors.requestInProgress')
    reply.header('idempotent-replayed', 'true')
    return reply.status(Number(prior.status)).type('application/json; charset=utf-8').send(prior.body)
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency
    if (!idem) return payload
    req.idempotency = null
    const status = reply.statusCode
    const keep = typeof payload === 'string' && status < 500 && status !== 429 && status !== 409
    if (keep) await ctx.commits.submit(() => answer.run(status, payload, idem.scope, idem.key), { atomic: true })
    else await ctx.commits.submit(() => forget.run(idem.scope, idem.key), { atomic: true })
    return payload
  })

  // A request that never got an answer leaves no pending key behind.
  app.addHook('onRequestAbort', async (req) => {
    const idem = req.idempotency
    if (idem) await db.deleteFrom('idempotency_keys').where('scope', '=', idem.scope).where('key', '=', idem.key).where('status', 'is', null).execute()
  })
}
