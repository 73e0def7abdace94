// The React view of the outbox: the account's queued writes, kept current by Dexie's liveQuery
// (dexie-react-hooks), which re-reads them on every change to the outbox table, in this tab or
// another. Only the screens that show queued writes import this file, so Dexie stays out of the
// first load like the rest of src/data's Dexie side.

import { useLiveQuery } from 'dexie-react-hooks'
import { listOutbox } from './outbox.ts'
import type { OutboxItem } from './types.ts'

const NONE: OutboxItem[] = []

/** The account's queued writes (optionally of one action), oldest first; [] while loading or signed out. */
export function useOutbox(account: string | null, action?: string): OutboxItem[] {
  const key = account === null ? null : `${account}\u0000${action ?? ''}`
  const read = useLiveQuery(async () => (account === null ? null : { key, items: await listOutbox(account, action) }), [account, action, key])
  // Items read for another account (or action) never show while this one loads.
  return read && read.key === key ? read.items : NONE
}
