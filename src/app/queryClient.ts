import { MutationCache, onlineManager, QueryCache, QueryClient } from '@tanstack/react-query'
import { online } from '../api/online.ts'
import { createPersister } from '../data/index.ts'
import { ApiFailure } from '../api/client.ts'
import { failureMessage, type FailedOperation } from '../api/failure.ts'
import { onSignOut } from '../api/session.ts'
import { i18nReady, t } from '../i18n/index.ts'
import { toast } from '../ui/toast.ts'

/** The toast for a failure: the operation's own message when the query or mutation names one (SPEC §8). */
function messageOf(e: unknown, failure: FailedOperation | undefined): string {
  if (failure) return failureMessage(failure, e, t)
  return e instanceof ApiFailure ? e.message : t('errors.loadFailed')
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    // A failing background refresh keeps showing the data it has; only a first load reports.
    onError: (e, query) => {
      // A start-up prefetch can fail before any words are loaded; its screen shows the failure itself.
      if (!i18nReady()) return
      if (query.state.data === undefined && !(e instanceof ApiFailure && e.status === 401)) toast.error(messageOf(e, query.meta?.failure))
    },
  }),
  mutationCache: new MutationCache({
    onError: (e, _v, _c, mutation) => {
      if (!mutation.options.meta?.silent) toast.error(messageOf(e, mutation.options.meta?.failure))
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // As long as the persisted cache lives (7 days), so restored data is not dropped unused.
      gcTime: 7 * 24 * 3600_000,
      retry: (n, e) => n < 2 && !(e instanceof ApiFailure && e.status >= 400 && e.status < 500),
      refetchOnWindowFocus: true,
    },
  },
})

// One user's data never shows to the next person who signs in on this phone: gone from memory and
// from IndexedDB. (Their queued changes stay, to replay when they sign in again; an explicit sign-out
// asks first and then clears those too.)
onSignOut((was) => {
  queryClient.clear()
  void createPersister(was).removeClient()
})

// Queries pause offline and resume on their own when the network (as DESIGN §6 defines it) is back.
onlineManager.setEventListener((setOnline) => online.subscribe((v) => setOnline(v)))

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { silent?: boolean; failure?: FailedOperation }
    queryMeta: { failure?: FailedOperation }
  }
}
