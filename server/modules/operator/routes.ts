// The operator console's routes (issue 35), under their own prefix: sign-in, and the first real reads
// and writes (operators, the operator log). Each declares the role it needs (./guard.ts); the writes
// run the same functions as the CLI's `operator add|remove` (./operators.ts) and log the reason typed.
import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import {
  AddOperatorBody,
  Operator,
  OPERATOR_PREFIX,
  OperatorNonce,
  OperatorNonceQuery,
  OperatorParams,
  OperatorSession,
  OperatorVerifyBody,
  OplogEntry,
  OplogQuery,
  RemoveOperatorBody,
} from '../../../contract/operator.ts'
import type { Ctx } from '../../context.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import { addOperator, listOperators, listOplog, removeOperator, type Actor } from './operators.ts'
import type { OperatorAuth, OperatorMeta } from './signIn.ts'

const meta = (req: FastifyRequest): OperatorMeta => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  host: req.host,
  protocol: req.protocol,
  origin: typeof req.headers.origin === 'string' ? req.headers.origin : undefined,
  handshake: req.seal?.keys.handshake ?? null,
})

/** The operator a guarded route runs for (the guard set it, or refused the call). */
const actorOf = (req: FastifyRequest): Actor => ({ actor: req.operator!.address, role: req.operator!.role })

export function operatorRoutes(app: App, ctx: Ctx, auth: OperatorAuth) {
  const P = OPERATOR_PREFIX
  const tags = ['operator']

  app.get(
    `${P}/auth/nonce`,
    {
      config: { operator: 'signIn' },
      schema: { tags, summary: "An operator sign-in message naming the console's origin, with a single-use nonce and its expiry", querystring: OperatorNonceQuery, response: { 200: Envelope(OperatorNonce) } },
    },
    async (req) => ok(req, await auth.nonce(req.query.address, meta(req))),
  )

  app.post(
    `${P}/auth/verify`,
    {
      // As the app's login: the answer holds the raw token, which is never stored; the nonce makes it single-use.
      config: { operator: 'signIn', idempotent: false },
      schema: { tags, summary: 'Sign in as an operator with a signed sign-in message: a short session of its own', body: OperatorVerifyBody, response: { 200: Envelope(OperatorSession) } },
    },
    async (req) => ok(req, await auth.verify(req.body, meta(req))),
  )

  app.post(
    `${P}/auth/signOut`,
    {
      config: { operator: 'viewer', idempotent: false },
      schema: { tags, summary: "End the operator's session at once", response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      await auth.signOut(req.operator!.sessionId)
      return ok(req, null)
    },
  )

  app.get(
    `${P}/operators`,
    { config: { operator: 'admin' }, schema: { tags, summary: 'The current operators and their roles', response: { 200: Envelope(Type.Array(Operator)) } } },
    async (req) => ok(req, await listOperators(ctx.sql)),
  )

  app.post(
    `${P}/operators`,
    { config: { operator: 'admin' }, schema: { tags, summary: 'Add an operator (the same as `operator add`), with the reason the log keeps', body: AddOperatorBody, response: { 200: Envelope(Operator) } } },
    async (req) => ok(req, await addOperator(ctx.sql, { ...req.body, by: actorOf(req), now: ctx.now() })),
  )

  app.delete(
    `${P}/operators/:address`,
    {
      config: { operator: 'admin' },
      schema: { tags, summary: "Remove an operator (the same as `operator remove`): their sessions end at once", params: OperatorParams, body: RemoveOperatorBody, response: { 200: Envelope(Operator) } },
    },
    async (req) => ok(req, await removeOperator(ctx.sql, { address: req.params.address, reason: req.body.reason, by: actorOf(req), now: ctx.now() })),
  )

  app.get(
    `${P}/oplog`,
    { config: { operator: 'viewer' }, schema: { tags, summary: 'The operator log, newest first: one object, one operator, from a moment on', querystring: OplogQuery, response: { 200: Envelope(Paged(OplogEntry)) } } },
    async (req) => {
      const q = req.query
      return ok(req, await listOplog(ctx.sql, { objectType: q.object_type, objectId: q.object_id, actor: q.actor, since: q.since, page: q.page ?? 1, pageSize: q.page_size ?? ctx.config.limits.pageSize }))
    },
  )
}
