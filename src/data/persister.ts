// TanStack Query's cache, persisted per account to the `queries` table (DESIGN §6). Dexie-free:
// the table is reached through the lazily loaded store.ts, so this file may sit in the first load.

import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client'

type Store = typeof import('./store.ts')
const loadStore = (): Promise<Store> => import('./store.ts')

/** The account a cache, an outbox item or a logout belongs to: 'anon' for a visitor, 'u:<id>' for a user. */
export function accountKey(userId: string | number | null | undefined): string {
  return userId === null || userId === undefined || userId === '' ? 'anon' : `u:${userId}`
}

/**
 * Query-key roots whose successful results are saved (the first segment of the key). Balances,
 * wallet state and config join as their features land; anything else lives in memory only.
 */
export const PERSISTED_ROOTS: ReadonlySet<string> = new Set(['common', 'notice', 'user', 'address', 'wallet', 'recharge', 'withdraw', 'trade', 'orders', 'shopOrders', 'release', 'goods', 'carApply', 'devices', 'node', 'loan', 'pledge', 'ranking', 'team', 'activity', 'mining'])

/** Only successful queries of the allow-listed roots are persisted. */
export function shouldPersistQuery(query: { queryKey: readonly unknown[]; state: { status: string } }): boolean {
  const root = query.queryKey[0]
  return query.state.status === 'success' && typeof root === 'string' && PERSISTED_ROOTS.has(root)
}

// Vite replaces import.meta.env at build time; under node (tests, tsconfig.node.json) it may be absent.
const env = (import.meta as unknown as { env?: Record<string, string | undefined> }).env

/**
 * Spread into PersistQueryClientProvider's persistOptions next to `persister`. TanStack itself drops a
 * saved cache whose buster differs from this build's, or that is older than maxAge.
 */
export const PERSIST_OPTIONS = {
  /** The build's id: a new deployment never restores data shaped by the previous one. */
  buster: env?.VITE_BUILD_ID ?? 'dev',
  maxAge: 7 * 24 * 3600_000,
  dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
}

/** At most one write per this many ms per persister. */
export const PERSIST_THROTTLE_MS = 1_000

export interface AccountPersister extends Persister {
  readonly account: string
  /** Writes the state waiting for its throttle slot now (done on page hide). */
  flush(): Promise<void>
}

interface Live {
  account: string
  flush(): Promise<void>
  /** Forgets the waiting state; resolves once a write already under way has landed. */
  drop(): Promise<void>
}
/** Persisters with a state waiting for its slot or a write under way (what page hide must save). */
const busy = new Set<Live>()
let pageHooks = false

/** Pages about to be hidden or frozen get their last cache state written before they go. */
function hookPageHide() {
  if (pageHooks || typeof window === 'undefined') return
  pageHooks = true
  const flushAll = () => void flushPersisters()
  window.addEventListener('pagehide', flushAll)
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flushAll()
    })
  }
}

/** Writes every persister's waiting state now. */
export async function flushPersisters(): Promise<void> {
  await Promise.all([...busy].map((p) => p.flush()))
}

/** Forgets an account's waiting writes and lets a running one land, so a logout's delete is final. */
export async function settlePersisters(account: string): Promise<void> {
  await Promise.all([...busy].filter((p) => p.account === account).map((p) => p.drop()))
}

/**
 * A TanStack Persister for one account's cache. TanStack calls persistClient on every cache change;
 * this writes at most once per second (the first at once, then the latest state when the second is
 * up), so a burst of changes costs one or two writes.
 */
export function createPersister(account: string, opts: { throttleMs?: number } = {}): AccountPersister {
  const throttleMs = opts.throttleMs ?? PERSIST_THROTTLE_MS
  let waiting: PersistedClient | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastWrite = -Infinity
  let writing: Promise<void> = Promise.resolve()
  let inFlight = 0

  const self: Live = {
    account,
    flush: () => write(),
    drop() {
      clearTimeout(timer)
      timer = undefined
      waiting = undefined
      if (inFlight === 0) busy.delete(self)
      return writing
    },
  }

  function write(): Promise<void> {
    clearTimeout(timer)
    timer = undefined
    const client = waiting
    waiting = undefined
    if (!client) return writing
    lastWrite = Date.now()
    inFlight++
    // Writes go one after another, so an older state never lands after a newer one.
    writing = writing.then(async () => {
      try {
        await (await loadStore()).writePersistedClient(account, client)
      } catch (e) {
        // A cache that could not be saved is only a slower next start; the app goes on.
        console.warn('nadi: query cache not persisted', e)
      } finally {
        if (--inFlight === 0 && waiting === undefined) busy.delete(self)
      }
    })
    return writing
  }

  hookPageHide()

  return {
    account,
    flush: write,
    persistClient(client) {
      waiting = client
      busy.add(self)
      if (timer !== undefined) return
      const wait = lastWrite + throttleMs - Date.now()
      if (wait <= 0) void write()
      else timer = setTimeout(() => void write(), wait)
    },
    async restoreClient() {
      await write() // a state still waiting for its slot is the newest one
      return (await loadStore()).readPersistedClient(account)
    },
    async removeClient() {
      await self.drop()
      await (await loadStore()).deletePersistedClient(account)
    },
  }
}
