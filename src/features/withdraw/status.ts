// Withdrawal states (DESIGN §7) as the list shows them (SPEC §4). Pure.
import type { WithdrawStatus } from '../../../contract/withdraw.ts'

const FINAL: readonly WithdrawStatus[] = ['confirmed', 'failed']

export const isFinal = (s: WithdrawStatus): boolean => FINAL.includes(s)

/** The locale key of a state's words. */
export const statusKey = (s: WithdrawStatus): string => `withdraw.status.${s}`

/** The badge colour: gold while under way, teal when done, red when it failed. */
export function statusTone(s: WithdrawStatus): 'pending' | 'done' | 'failed' {
  return s === 'confirmed' ? 'done' : s === 'failed' ? 'failed' : 'pending'
}
