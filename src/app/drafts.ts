// What a user has typed into a form, kept per account in session storage while they have not sent it:
// an expired login (SPEC §8) unmounts the screen, and signing in again as the same account brings the
// form back as it was (DESIGN §4). Sent, the draft is cleared; an explicit sign-out or another account
// signing in drops the drafts of the others.
import { useCallback, useState } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../api/session.ts'
import { sessionStore } from '../lib/storage.ts'

const PREFIX = 'draft:'
const keyOf = (acct: string, name: string) => `${PREFIX}${acct}:${name}`

/** The stored draft if it is one of this form's shape, else `initial`. Pure over its input. */
export function draftValue<T>(raw: string | null, initial: T, valid: (v: unknown) => v is T): T {
  if (raw === null) return initial
  try {
    const v: unknown = JSON.parse(raw)
    return valid(v) ? v : initial
  } catch {
    return initial
  }
}

/**
 * useState whose value outlives the screen for the signed-in account. `valid` checks what storage gives
 * back (another build's draft, a hand-edited entry) before the form trusts it.
 */
export function useDraft<T>(name: string, initial: T, valid: (v: unknown) => v is T): [T, (next: T | ((prev: T) => T)) => void, () => void] {
  useSignals()
  const acct = account.value
  const key = keyOf(acct, name)
  const [state, setState] = useState(() => ({ key, value: draftValue(sessionStore.get(key), initial, valid) }))
  // Another form (an edit of another address) or account under the same component: its own draft.
  const current = state.key === key ? state.value : draftValue(sessionStore.get(key), initial, valid)
  if (state.key !== key) setState({ key, value: current })

  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      setState((s) => {
        const value = typeof next === 'function' ? (next as (prev: T) => T)(s.value) : next
        // A visitor's typing is nobody's to keep.
        if (acct.startsWith('u:')) sessionStore.set(s.key, JSON.stringify(value))
        return { key: s.key, value }
      })
    },
    [acct],
  )
  const clear = useCallback(() => {
    sessionStore.remove(key)
    setState({ key, value: initial })
  }, [key]) // eslint-disable-line react-hooks/exhaustive-deps -- initial is the form's empty value, read once
  return [current, set, clear]
}

/** Drops every draft but `keep`'s (all of them without it): another account signed in, or the user signed out. */
export function dropDrafts(keep?: string): void {
  for (const k of sessionStore.keys()) if (k.startsWith(PREFIX) && (keep === undefined || !k.startsWith(`${PREFIX}${keep}:`))) sessionStore.remove(k)
}

export const isString = (v: unknown): v is string => typeof v === 'string'
