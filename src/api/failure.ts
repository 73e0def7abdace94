// SPEC §8: each operation that fails says which one did and why — "Could not delete the address: This
// address does not exist". The why is the server's own reason (already in the user's language), the
// network's, or "System error" when the server broke (a 5xx) or answered something that is not the
// API's envelope: its words then would be nothing a user can act on. Pure: `t` is passed in.
import { CODE } from '../../contract/constants.ts'

/** Why a call failed, with the message to show in the user's language (SPEC §8). */
export class ApiFailure extends Error {
  constructor(
    message: string,
    /** Envelope code, or the HTTP status when no envelope came back; 500 when no response at all. */
    readonly code: number,
    readonly status: number,
    /** The server's own reason when `message` is more than that ("request failed" above it). */
    readonly reason?: string,
  ) {
    super(message)
  }
}

/** The operations SPEC §8 names a failure message for; each is `errors.failed.<operation>` in the locales. */
export type FailedOperation = 'addressList' | 'addressDetail' | 'addressAdd' | 'addressEdit' | 'addressDelete' | 'addressSetDefault' | 'cancelOrder' | 'nodeDetail'

type Translate = (key: string, params?: Record<string, string | number>) => string

/** Why it failed, in the user's language: the server's or network's reason, else "System error". */
export function failureReason(e: unknown, t: Translate): string {
  if (!(e instanceof ApiFailure)) return t('errors.systemError')
  // No response at all: the network's message ("check your connection"), which is what the user can fix.
  if (e.status === 0) return e.message
  if (e.status >= 500 || e.code === CODE.SERVER) return t('errors.systemError')
  return e.reason ?? e.message
}

/** "Could not … : <reason>" for one operation. */
export function failureMessage(operation: FailedOperation, e: unknown, t: Translate): string {
  return t('errors.failedBecause', { what: t(`errors.failed.${operation}`), reason: failureReason(e, t) })
}

/** What the API answered, as far as the wording of its failure goes. */
export interface HttpAnswer {
  status: number
  /** The envelope's code, when the body was the API's envelope. */
  code: number | null
  /** The server's reason (already in the user's language), when it gave one. */
  msg: string | null
}

/**
 * SPEC §8's words for an HTTP answer that is not a plain 200: 401 with body code 200 asks for an invite
 * code, another 401 is an expired login, 403 "no permission", 400 the server's own message, 5xx
 * "server error, try again later", any other status "request failed" with the server's reason beneath
 * it when it gave one. Null for a 200 (its body code decides). Pure: `t` is passed in.
 */
export function httpFailureText(a: HttpAnswer, t: Translate): string | null {
  if (a.status === 200) return null
  if (a.status === 401) return a.code === CODE.OK ? t('errors.inviteRequired') : (a.msg ?? t('errors.loginExpired'))
  if (a.status === 403) return t('errors.noPermission')
  if (a.status >= 500) return t('errors.server')
  if (a.status === 400) return a.msg ?? t('errors.requestFailed')
  return a.msg ? `${t('errors.requestFailed')}\n${a.msg}` : t('errors.requestFailed')
}
