import crypto from 'node:crypto'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Ctx } from '../context.ts'
import { withKeyedEffect, type KeyedEffect } from '../db/keyedEffect.ts'
import type { Queryable } from '../db/query/types.ts'
import { KEYS } from '../db/idempotencyKeys.ts'
import { ApiError, conflict, badRequest } from './errors.ts'
import { ok, refusal } from './reply.ts'
import type { App } from './types.ts'

const KEY_RE = /^[A-Za-z0-9_-]{8,64}$/

/** 5xx, 429 and 409 are not answers to keep: they say "try again", and the retry runs again. */
const keptStatus = (status: number) => status < 500 && status !== 429 && status !== 409

/** What a keyed POST carries through its handler: its key, and whether an effect wrote the key's row. */
export interface KeyedRequest extends KeyedEffect {
  /** An effect's transaction wrote the row (it may have rolled back since: the answer then says so). */
  touched: boolean
  /** The handler began: from then on it, not an abort, ends the key's turn in this process. */
  started: boolean
  /** The answer last kept beside an effect: what a retry after a crash right after it is told. */
  kept: { status: number; body: string } | null
}

/**
 * Idempotency-Key on POSTs (DESIGN §3): the first answer to a key is replayed for any repeat within
 * 24 h, so a retried or queued action applies once. Keys are scoped to the user, so a replay after
 * signing in again still finds its first answer.
 *
 * The answer is written in the transaction of the effect it answers (server/db/keyedEffect.ts: the
 * group commit, the Sql's transactions and the Kysely ones that say so write it beside the effect), and
 * nothing is written ahead of the handler. So whatever moment a crash takes the process, the key is
 * either answered with what was applied or absent, and the retry then runs once: no reservation of a
 * dead process can answer "still being processed" for a day. Two requests with one key on two
 * processes both run; the second effect to commit finds the key held and rolls back (409, which the
 * app's outbox retries into the replay). Within a process a repeat that arrives while the first is
 * still running is refused at once. Answers that changed nothing (a refusal before any write) are
 * stored after the handler, as before: losing one to a crash costs only a re-run that refuses again.
 */
export function idempotency(app: App, ctx: Ctx) {
  const { db } = ctx
  app.decorateRequest('idempotency', null)
  /** Keys whose request is running in this process: a repeat meanwhile is refused without running. */
  const running = new Set<string>()
  const idOf = (k: { scope: string; key: string }) => `${k.scope}\n${k.key}`
  let effectsBeforeFailpoint = ctx.config.idempotencyFailpoint

  function keyed(req: FastifyRequest, reply: FastifyReply, scope: string, key: string, hash: string, at: number): KeyedRequest {
    let map: (value: unknown) => unknown = (v) => v
    let mapIn: ((value: unknown, tx: Queryable) => Promise<unknown>) | null = null
    /** The answer an effect's value makes: its data, or a refusal the effect committed with (a counted failed attempt). */
    const answerMade = (made: unknown): { status: number; body: string } => {
      if (made instanceof ApiError) return { status: made.status, body: JSON.stringify(refusal(req, made)) }
      try {
        return { status: 200, body: reply.serialize(ok(req, made)) as string }
      } catch {
        // The route's schema refuses the value as its data: the answer's data stays empty rather than
        // wrong (tests fail on such a route, see onSend).
        return { status: 200, body: JSON.stringify(ok(req, null)) }
      }
    }
    const answerOf = (value: unknown) => answerMade(map(value))
    /** The answer a value makes, kept (true) or to leave the key free (false: a 409 or 429 to try again). */
    const keepAnswer = (answer: { status: number; body: string }): boolean => {
      k.kept = keptStatus(answer.status) ? answer : null
      return k.kept !== null
    }
    const k: KeyedRequest = {
      scope,
      key,
      hash,
      at,
      // Names this request in the row, so its own transactions may rewrite the answer and no other may.
      holder: crypto.randomUUID(),
      touched: false,
      started: false,
      kept: null,
      // A refusal that is no answer to keep (409, 429: try again) leaves the key free, as after the handler.
      recordIn: async (tx, value) => {
        const answer = mapIn ? answerMade(await mapIn(value, tx)) : answerOf(value)
        if (!keepAnswer(answer)) return void (await tx.run(KEYS.release, scope, key, k.holder))
        const { changes } = await tx.run(KEYS.record, scope, key, hash, k.kept!.status, k.kept!.body, at, k.holder)
        if (changes === 0) throw conflict('errors.requestInProgress')
        k.touched = true
      },
      held: () => conflict('errors.requestInProgress'),
      wrote: () => void (k.touched = true),
      answerFor: async (value, tx) => {
        const answer = mapIn ? answerMade(await mapIn(value, tx)) : answerOf(value)
        return keepAnswer(answer) ? answer : null
      },
      answerAs: (m) => void (map = m),
      answerIn: (m) => void (mapIn = m),
    }
    return k
  }

  // Every keyed handler runs with its key in scope, so its transactions write the answer beside the effect.
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.includes('POST')) return
    const handler = route.handler
    route.handler = function keyedHandler(this: unknown, req, reply) {
      const idem = req.idempotency
      if (!idem) return handler.call(this as never, req, reply)
      idem.started = true
      return withKeyedEffect(idem, async () => {
        try {
          return await handler.call(this as never, req, reply)
        } finally {
          running.delete(idOf(idem))
        }
      })
    }
  })

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || req.routeOptions.config.idempotent === false) return
    const key = req.headers['idempotency-key']
    if (key === undefined) return
    if (typeof key !== 'string' || !KEY_RE.test(key)) throw badRequest('errors.idempotencyKeyInvalid')
    // An operator's keys are theirs (issue 35), apart from every user's.
    const scope = req.user ? `u:${req.user.id}` : req.operator ? `o:${req.operator.operatorId}` : 'anon'
    const hash = crypto.createHash('sha256').update(`${req.method} ${req.routeOptions.url}\n${JSON.stringify(req.body ?? null)}`).digest('hex')
    const now = ctx.now()
    const id = idOf({ scope, key })
    if (running.has(id)) throw conflict('errors.requestInProgress')
    const prior = await db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst()
    if (prior) {
      const expired = Number(prior.created_at) < now - ctx.config.idempotencyTtlMs
      // A row without an answer is a reservation written before migration 031, by a process that is
      // gone: nothing can tell whether its effect applied, and keeping it would refuse the key for a day.
      if (expired || prior.status === null || prior.body === null) {
        await db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).where('created_at', '=', prior.created_at).execute()
      } else {
        if (prior.request_hash !== hash) throw badRequest('errors.idempotencyKeyReused')
        reply.header('idempotent-replayed', 'true')
        return reply.status(Number(prior.status)).type('application/json; charset=utf-8').send(prior.body)
      }
    }
    if (running.has(id)) throw conflict('errors.requestInProgress')
    running.add(id)
    req.idempotency = keyed(req, reply, scope, key, hash, now)
  })

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency
    if (!idem) return payload
    req.idempotency = null
    // Refused before its handler (a route's own preHandler): the handler's end did not free the key.
    if (!idem.started) running.delete(idOf(idem))
    const status = reply.statusCode
    if (status === 200 && effectsBeforeFailpoint !== null && --effectsBeforeFailpoint === 0) {
      ctx.log.warn('failpoint crash-before-answer: killing the process')
      process.kill(process.pid, 'SIGKILL')
    }
    // An answer not to keep leaves a row an effect wrote as it is: the effect committed with it, and
    // the retry is answered from it.
    const keep = typeof payload === 'string' && keptStatus(status)
    // The answer kept with the effect must be the one sent, or a retry after a crash would be told
    // something else: a route whose data is not its effect's value says how (answerKeyedAs). Tests
    // fail on one that does not; production keeps serving and logs it.
    if (keep && idem.kept !== null && (idem.kept.status !== status || idem.kept.body !== payload)) {
      const problem = `idempotency: ${req.routeOptions.url} answered otherwise than the answer kept with its effect (answerKeyedAs)`
      if (ctx.config.env === 'test') throw new Error(`${problem}: kept ${idem.kept.status} ${idem.kept.body}, sent ${status} ${String(payload)}`)
      ctx.log.error({ route: req.routeOptions.url }, problem)
    }
    // The effect's own transaction already wrote this very answer beside it (the usual case for a
    // write): writing it again would cost every such request a second commit to wait for.
    const recorded = idem.touched && idem.kept !== null && idem.kept.status === status && idem.kept.body === payload
    if (keep && !recorded) await ctx.commits.write((tx) => tx.run(KEYS.record, idem.scope, idem.key, idem.hash, status, payload, idem.at, idem.holder), { atomic: true })
    return payload
  })

  // A request cut off before its handler ran keeps no place in the queue of running keys.
  app.addHook('onRequestAbort', async (req) => {
    const idem = req.idempotency
    if (idem && !idem.started) running.delete(idOf(idem))
  })
}
