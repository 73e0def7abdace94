import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import { IsRegisterBody, IsRegisterResult, LoginBody, LoginMessage, LoginMessageQuery, LoginResult } from '../../../contract/auth.ts'
import { Envelope } from '../../../contract/envelope.ts'
import { ok } from '../../http/reply.ts'
import { badRequest } from '../../http/errors.ts'
import { translate } from '../../i18n.ts'
import { requireAuth } from '../../http/auth.ts'
import type { App } from '../../http/types.ts'
import type { AuthService, RequestMeta } from './service.ts'

const meta = (req: FastifyRequest): RequestMeta => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  host: req.host,
  protocol: req.protocol,
  handshake: req.seal?.keys.handshake ?? null,
})

export function authRoutes(app: App, auth: AuthService) {
  app.get(
    '/api/v1/auth/loginMessage',
    {
      schema: {
        tags: ['auth'],
        summary: 'An EIP-4361 sign-in message with a single-use nonce; the invite code is bound into it',
        querystring: LoginMessageQuery,
        response: { 200: Envelope(LoginMessage) },
      },
    },
    async (req) => {
      // Only the chains the platform runs on: a message for another chain is refused with the field's message.
      if (!auth.signsOn(req.query.chainId)) throw badRequest('errors.invalidField', { field: translate(req.lang, 'fields.chainId') })
      return ok(req, await auth.loginMessage(req.query, meta(req)))
    },
  )

  app.post(
    '/api/v1/auth/login',
    {
      // Never stored for replay: the stored answer would hold the raw token, which must exist only hashed
      // (DESIGN §4). The single-use nonce already makes a repeated login apply at most once.
      config: { idempotent: false },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (or register under the bound invite code) with a signed login message',
        body: LoginBody,
        response: { 200: Envelope(LoginResult) },
      },
    },
    async (req) => ok(req, await auth.login(req.body, meta(req))),
  )

  app.post(
    '/api/v1/auth/isRegister',
    {
      config: { idempotent: false },
      schema: {
        tags: ['auth'],
        summary: 'Whether an address has an account (an unregistered one needs an invite code)',
        body: IsRegisterBody,
        response: { 200: Envelope(IsRegisterResult) },
      },
    },
    async (req) => ok(req, { registered: await auth.isRegistered(req.body.address, meta(req)) }),
  )

  app.post(
    '/api/v1/auth/logout',
    {
      preHandler: requireAuth,
      schema: { tags: ['auth'], summary: 'Revoke the current token', response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      await auth.logout(req.user!.sessionId) // requireAuth guarantees a user
      return ok(req, null)
    },
  )
}
