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
  return e.message
}

/** "Could not … : <reason>" for one operation. */
export function failureMessage(operation: FailedOperation, e: unknown, t: Translate): string {
  return t('errors.failedBecause', { what: t(`errors.failed.${operation}`), reason: failureReason(e, t) })
}
