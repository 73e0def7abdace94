import type { Query } from '@tanstack/react-query'
import { persistQueryClientRestore, persistQueryClientSubscribe, type Persister } from '@tanstack/react-query-persist-client'
import type { QueryClient } from '@tanstack/react-query'
import { createPersister, PERSIST_OPTIONS, shouldPersistQuery } from '../data/index.ts'
import { storage } from '../lib/storage.ts'

const SAVED_FLAG = 'query_cache_saved'
/** performance.measure name of a cache restore. */
export const RESTORE_MEASURE = 'nadi:cache-restore'
/** What a visitor's cache may hold: content that is the same for everybody. */
const PUBLIC_ROOTS = new Set(['common', 'notice'])

/**
 * The account's persisted cache, except that a phone which has never saved one does not load the
 * IndexedDB code just to find nothing: a newcomer's first load stays as small as it can be.
 */
function persisterFor(account: string): Persister {
  const inner = createPersister(account)
  return {
    persistClient: (client) => {
      if (!storage.get(SAVED_FLAG)) storage.set(SAVED_FLAG, '1')
      return inner.persistClient(client)
    },
    restoreClient: () => (storage.get(SAVED_FLAG) ? inner.restoreClient() : Promise.resolve(undefined)),
    removeClient: () => inner.removeClient(),
  }
}

/**
 * Restores the account's cache into the client, then saves its changes under that account until
 * stopped. A visitor's cache never takes per-user data, even in the moment between signing in and
 * the account being known.
 */
export function persistAccount(client: QueryClient, account: string, onRestored: () => void): () => void {
  const options = {
    ...PERSIST_OPTIONS,
    queryClient: client,
    persister: persisterFor(account),
    dehydrateOptions: {
      shouldDehydrateQuery: (q: Query) => shouldPersistQuery(q) && (account !== 'anon' || PUBLIC_ROOTS.has(String(q.queryKey[0]))),
    },
  }
  let stopped = false
  let unsubscribe = () => {}
  // Measured in the field and by the bench: how long a start waits for the saved cache.
  const started = performance.now()
  persistQueryClientRestore(options)
    .catch(() => undefined) // a cache that cannot be read is a cache that is empty
    .finally(() => {
      if (stopped) return
      performance.measure(RESTORE_MEASURE, { start: started, detail: { account } })
      onRestored()
      unsubscribe = persistQueryClientSubscribe(options)
    })
  return () => {
    stopped = true
    unsubscribe()
  }
}
