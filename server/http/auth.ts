import type { FastifyRequest } from 'fastify'
import { unauthorized } from './errors.ts'
import type { App } from './types.ts'
import type { AuthService } from '../modules/auth/service.ts'
import { isOperatorUrl } from '../modules/operator/guard.ts'

/** Resolves the bearer token of every API request; routes that need a user add requireAuth. */
export function authHook(app: App, auth: AuthService) {
  app.decorateRequest('user', null)
  app.decorateRequest('authError', null)
  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization
    // An operator route's token is an operator's, looked up by its own guard (server/modules/operator/guard.ts).
    if (!header || !req.url.startsWith('/api/') || isOperatorUrl(req.url)) return
    const m = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header)
    const user = m ? await auth.authenticate(m[1] as string) : null
    if (user) req.user = user
    else req.authError = unauthorized('errors.loginExpired')
  })
  // Routes name requireAuth as a preHandler, which runs after the body is parsed and validated and
  // after an Idempotency-Key is reserved: a request without a valid token would hear what is wrong
  // with its body (400) before that it must sign in (401). Moved here to onRequest, for every route
  // any area adds, it refuses first.
  app.addHook('onRoute', (route) => {
    const pre = hooks(route.preHandler)
    if (!pre.includes(requireAuth)) return
    route.preHandler = pre.filter((h) => h !== requireAuth)
    route.onRequest = [...hooks(route.onRequest), requireAuth]
  })
}

const hooks = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h])

export async function requireAuth(req: FastifyRequest) {
  if (!req.user) throw req.authError ?? unauthorized('errors.loginRequired')
}
