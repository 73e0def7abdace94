import type { FastifyRequest } from 'fastify'
import { unauthorized } from './errors.ts'
import type { App } from './types.ts'
import type { AuthService } from '../modules/auth/service.ts'

/** Resolves the bearer token of every API request; routes that need a user add requireAuth. */
export function authHook(app: App, auth: AuthService) {
  app.decorateRequest('user', null)
  app.decorateRequest('authError', null)
  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization
    if (!header || !req.url.startsWith('/api/')) return
    const m = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header)
    const user = m ? await auth.authenticate(m[1] as string) : null
    if (user) req.user = user
    else req.authError = unauthorized('errors.loginExpired')
  })
}

export async function requireAuth(req: FastifyRequest) {
  if (!req.user) throw req.authError ?? unauthorized('errors.loginRequired')
}
