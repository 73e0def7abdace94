import { signal } from '@preact/signals-react'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { CODE } from '../../contract/constants.ts'
import { lang, t } from '../i18n/index.ts'
import { account, clearToken, getToken, renewToken } from './session.ts'
import { rememberReturn } from './resume.ts'
import { reportNetworkFailure, reportNetworkSuccess } from './online.ts'
import { toast } from '../ui/toast.ts'
import { ApiFailure, httpFailureText } from './failure.ts'
import { SealBroken, SealUnavailable } from './sealErrors.ts'
import { appTransport } from './appTransport.ts'
import { answerJson, type ApiAnswer, type ApiRequest } from './transport.ts'

// The failure type lives with its wording (failure.ts, pure); callers keep importing it from here.
export { ApiFailure }

type Query = Record<string, string | number | boolean | undefined | null>

export interface CallOptions {
  query?: Query
  body?: unknown
  /** Sent on every POST so a retried request applies once (DESIGN §3). */
  idempotencyKey?: string
  signal?: AbortSignal
}

/** SPEC §8: after an expired login the app goes back to the root after 1.5 s. */
export const EXPIRED_REDIRECT_MS = 1500
/** True during those 1.5 s, so the route guard leaves the redirect to the expiry notice. */
export const loginExpiring = signal(false)

/** Where the app goes once the expiry notice was read: set by the app shell (to the root, in-app, with the sign-in sheet open). */
let goAfterExpiry: () => void = () => window.location.assign('/')
export function onExpiredRedirect(fn: () => void): void {
  goAfterExpiry = fn
}

/** `message`: the server's reason, e.g. a token used under another handshake than its own (errors.sealSession). */
export function redirectAfterExpiry(message = t('errors.loginExpired')) {
  if (loginExpiring.value) return
  loginExpiring.value = true
  toast.error(message)
  setTimeout(() => {
    loginExpiring.value = false
    goAfterExpiry()
  }, EXPIRED_REDIRECT_MS)
}

/**
 * The login of `was` ended (a 401, or the idle expiry): remember where they were, sign out, tell them,
 * then go to the root. Signing in again as the same account brings them back (resume.ts).
 */
export function loginExpired(message = t('errors.loginExpired'), was = account.peek()): void {
  rememberReturn(was, window.location.pathname + window.location.search)
  clearToken()
  redirectAfterExpiry(message)
}

/** crypto.randomUUID exists only in secure contexts; a phone on the LAN over http still needs keys. */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40 // version 4 — indexes 6 and 8 exist in a 16-byte array
  b[8] = (b[8]! & 0x3f) | 0x80
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** One request and its answer (opened, when it came sealed); no answer, or one that is not the server's, as ApiFailure. */
export async function transmit(r: ApiRequest): Promise<ApiAnswer> {
  try {
    const answer = await appTransport().send(r)
    reportNetworkSuccess()
    return answer
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    // Status 0 like a lost answer: the outbox keeps the action, and its retry (same Idempotency-Key) applies it once.
    if (e instanceof SealBroken) throw new ApiFailure(t('errors.sealBroken'), CODE.SERVER, 0)
    if (e instanceof SealUnavailable) throw new ApiFailure(t('errors.sealUnavailable'), CODE.SERVER, 0)
    reportNetworkFailure()
    throw new ApiFailure(t('errors.network'), CODE.SERVER, 0)
  }
}

export async function call<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}): Promise<T> {
  const query: Record<string, string | number | boolean> = {}
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== '') query[k] = v
  const token = getToken()
  const res = await transmit({
    method,
    path: `/api/v1/${path}`,
    query,
    token,
    lang: lang.value,
    ...(method === 'POST' ? { body: opts.body ?? {}, idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey() } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  })

  const body = answerJson(res) as ApiEnvelope<T> | null
  const serverMsg = body && typeof body.msg === 'string' && body.msg ? body.msg : null

  const failed = httpFailureText({ status: res.status, code: typeof body?.code === 'number' ? body.code : null, msg: serverMsg }, t)
  if (res.status === 401) {
    if (body?.code === CODE.OK) throw new ApiFailure(failed!, 401, 401)
    if (token) loginExpired(failed!)
    throw new ApiFailure(failed!, CODE.UNAUTHORIZED, 401)
  }
  if (res.status === 403) throw new ApiFailure(failed!, CODE.FORBIDDEN, 403)
  if (failed !== null) throw new ApiFailure(failed, body?.code ?? res.status, res.status, serverMsg ?? undefined)
  if (!body || typeof body.code !== 'number') throw new ApiFailure(t('errors.requestFailed'), CODE.SERVER, res.status)
  if (body.code === CODE.UNAUTHORIZED) {
    loginExpired()
    throw new ApiFailure(serverMsg ?? t('errors.loginExpired'), body.code, res.status)
  }
  if (body.code !== CODE.OK) throw new ApiFailure(serverMsg ?? t('errors.requestFailed'), body.code, res.status)
  if (token) renewToken()
  return body.data
}

export const get = <T>(path: string, query?: Query, signal?: AbortSignal) => call<T>('GET', path, { query: query ?? {}, ...(signal ? { signal } : {}) })
export const post = <T>(path: string, body?: unknown, idempotencyKey?: string) =>
  call<T>('POST', path, { body, ...(idempotencyKey ? { idempotencyKey } : {}) })
