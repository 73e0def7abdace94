import type { Query, QueryClient } from '@tanstack/react-query'
import { persistQueryClientRestore, persistQueryClientSubscribe, type Persister } from '@tanstack/react-query-persist-client'
import { createPersister, PERSIST_OPTIONS, readSavedClient, shouldPersistQuery } from '../data/index.ts'
import { storage } from '../lib/storage.ts'

const SAVED_FLAG = 'query_cache_saved'
/** performance.measure name of a cache restore. */
export const RESTORE_MEASURE = 'nadi:cache-restore'
/** What a visitor's cache may hold: content that is the same for everybody. */
const PUBLIC_ROOTS = new Set(['common', 'notice'])

/** Restores under way or done, per account, so a start restores once. */
const restores = new Map<string, Promise<void>>()
const done = new Set<string>()

function optionsFor(client: QueryClient, account: string, persister: Persister) {
  return {
    ...PERSIST_OPTIONS,
    queryClient: client,
    persister,
    dehydrateOptions: {
      // A visitor's cache never takes per-user data, even in the moment between signing in and the
      // account being known.
      shouldDehydrateQuery: (q: Query) => shouldPersistQuery(q) && (account !== 'anon' || PUBLIC_ROOTS.has(String(q.queryKey[0]))),
    },
  }
}

/**
 * Puts the account's saved cache into the client. The read goes straight to IndexedDB (no Dexie), and
 * a phone that never saved a cache skips it entirely, so a newcomer's first load stays small.
 */
export function restore(client: QueryClient, account: string): Promise<void> {
  let p = restores.get(account)
  if (p) return p
  const started = performance.now()
  const startedAt = Date.now()
  const reader: Persister = {
    persistClient: () => undefined,
    restoreClient: () => (storage.get(SAVED_FLAG) ? readSavedClient(account) : Promise.resolve(undefined)),
    removeClient: () => undefined,
  }
  p = persistQueryClientRestore(optionsFor(client, account, reader))
    .catch(() => undefined) // a cache that cannot be read is a cache that is empty
    .then(() => {
      // What was saved is shown at once and looked at again when a screen mounts (DESIGN §6): a saved
      // page younger than its staleTime would otherwise pass for fresh, and a reload within it kept
      // showing an application "submitted" after the operator had approved it (issue 17).
      void client.invalidateQueries({ predicate: (q) => q.state.dataUpdatedAt < startedAt, refetchType: 'none' })
      // Measured in the field and by the bench: how long a start waits for the saved cache.
      performance.measure(RESTORE_MEASURE, { start: started, detail: { account } })
      done.add(account)
    })
  restores.set(account, p)
  return p
}

/** Whether the account's cache is already in the client. */
export const restoredAlready = (account: string) => done.has(account)

/** Restores the account's cache (once), then saves its changes under that account until stopped. */
export function persistAccount(client: QueryClient, account: string, onRestored: () => void): () => void {
  const inner = createPersister(account)
  const persister: Persister = {
    persistClient: (c) => {
      if (!storage.get(SAVED_FLAG)) storage.set(SAVED_FLAG, '1')
      return inner.persistClient(c)
    },
    restoreClient: () => inner.restoreClient(),
    removeClient: () => inner.removeClient(),
  }
  let stopped = false
  let unsubscribe = () => {}
  void restore(client, account).finally(() => {
    if (stopped) return
    onRestored()
    unsubscribe = persistQueryClientSubscribe(optionsFor(client, account, persister))
  })
  return () => {
    stopped = true
    unsubscribe()
  }
}
