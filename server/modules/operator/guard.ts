// The door of every operator route (issue 35 item 1): a route under the operator prefix declares the
// role it needs (config.operator), or 'signIn' for the two sign-in routes, and this guard runs before
// its body is validated, its Idempotency-Key reserved or its handler run. So a call without a live
// operator session is a 401, one the role may not make a 403 in the operator's language, and neither
// changes anything. A route under the prefix that declares nothing stops the server at start.
import type { FastifyRequest, RouteOptions } from 'fastify'
import { CODE } from '../../../contract/constants.ts'
import { OPERATOR_PREFIX, type OperatorRole } from '../../../contract/operator.ts'
import type { Ctx } from '../../context.ts'
import { ApiError, tooMany } from '../../http/errors.ts'
import { StoredLimiter } from '../../http/rateLimit.ts'
import type { App } from '../../http/types.ts'
import { translate } from '../../i18n.ts'
import { permits } from './roles.ts'
import type { OperatorAuth, OperatorUser } from './signIn.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator behind the bearer token of an operator route; never set on the app's routes. */
    operator: OperatorUser | null
  }
  interface FastifyContextConfig {
    /** An operator route: the role it needs, or 'signIn' for the routes that make a session. */
    operator?: OperatorRole | 'signIn'
  }
}

/** Whether a URL is an operator route's: the app's bearer tokens are never looked up for these. */
export const isOperatorUrl = (url: string) => url === OPERATOR_PREFIX || url.startsWith(`${OPERATOR_PREFIX}/`) || url.startsWith(`${OPERATOR_PREFIX}?`)

const signInRequired = () => new ApiError(401, CODE.UNAUTHORIZED, 'operator.errors.signInRequired')
const sessionEnded = () => new ApiError(401, CODE.UNAUTHORIZED, 'operator.errors.sessionEnded')

/** Call before the operator routes are added: the guard is put on each as it is registered. */
export function operatorAccess(app: App, ctx: Ctx, auth: OperatorAuth): void {
  const perOperator = new StoredLimiter(ctx.sql, 'operator-calls', ctx.config.operator.callsPerOperator, ctx.config.operator.windowMs)
  app.decorateRequest('operator', null)

  async function guard(req: FastifyRequest) {
    const need = req.routeOptions.config.operator
    if (need === undefined || need === 'signIn') return
    const m = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(req.headers.authorization ?? '')
    if (!m) throw signInRequired()
    // A user's token is not in the operators' sessions: it is refused as a session that is no more.
    const operator = await auth.authenticate(m[1]!)
    if (!operator) throw sessionEnded()
    // With the envelope on, a token counts only under the handshake it signed in under (as the app's).
    if (ctx.config.envelope.on && (req.seal === null || operator.handshakeId !== req.seal.keys.handshake)) throw new ApiError(401, CODE.UNAUTHORIZED, 'errors.sealSession')
    if (!(await perOperator.take(operator.address.toLowerCase(), ctx.now()))) throw tooMany()
    if (!permits(operator.role, need)) {
      const role = (r: OperatorRole) => translate(req.lang, `operator.roles.${r}`)
      throw new ApiError(403, CODE.FORBIDDEN, 'operator.errors.forbidden', { role: role(operator.role), need: role(need) })
    }
    req.operator = operator
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isOperatorUrl(route.url)) return
    const need = (route.config as { operator?: unknown } | undefined)?.operator
    if (need === undefined) throw new Error(`operator route ${route.method} ${route.url} declares no role (config.operator): every operator route names the role it needs`)
    // After the envelope's own preValidation (app-wide hooks run first), which opens a sealed request.
    const pre = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]
    route.preValidation = [guard, ...pre]
  })
}
