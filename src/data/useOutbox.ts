// The React view of the outbox: the account's queued writes, re-read on every change (this tab or
// another). Kept out of the core modules so they stay React-free.

import { useEffect, useState } from 'react'
import { listOutbox, subscribeOutbox, type OutboxItem } from './index.ts'

const NONE: OutboxItem[] = []

/** The account's queued writes (optionally of one action), oldest first; [] while loading or signed out. */
export function useOutbox(account: string | null, action?: string): OutboxItem[] {
  const key = account === null ? null : `${account}\u0000${action ?? ''}`
  const [loaded, setLoaded] = useState<{ key: string; items: OutboxItem[] } | null>(null)

  useEffect(() => {
    if (account === null || key === null) return
    let alive = true
    let seq = 0
    const read = () => {
      const mine = ++seq
      listOutbox(account, action).then(
        (items) => {
          // A slower earlier read must not overwrite a newer one.
          if (alive && mine === seq) setLoaded({ key, items })
        },
        (e: unknown) => console.warn('nadi: outbox not readable', e),
      )
    }
    const off = subscribeOutbox(read)
    read()
    return () => {
      alive = false
      off()
    }
  }, [account, action, key])

  // Items read for another account (or action) never show while this one loads.
  return loaded !== null && loaded.key === key ? loaded.items : NONE
}
