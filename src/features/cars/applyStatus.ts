// A car application's state as the list shows it (issue 10 part 5): the server's four, plus the
// outbox's for one made offline and not sent yet. Pure.
import type { CarApplyStatus } from '../../../contract/carApplyRules.ts'

export type ShownStatus = CarApplyStatus | 'pending' | 'sending' | 'failed'

export const statusKey = (s: ShownStatus): string => `carApply.status.${s}`

const TONE: Record<ShownStatus, 'gold' | 'teal' | 'red' | 'muted-badge'> = {
  submitted: 'gold',
  reviewing: 'gold',
  approved: 'teal',
  rejected: 'red',
  pending: 'muted-badge',
  sending: 'muted-badge',
  failed: 'red',
}
/** The badge's colour class. */
export const statusTone = (s: ShownStatus) => TONE[s]

/** Still waiting for an operator: the list refreshes itself now and then. */
export const isWaiting = (s: CarApplyStatus): boolean => s === 'submitted' || s === 'reviewing'
