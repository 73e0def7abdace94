import 'fake-indexeddb/auto'
import { QueryClient, dehydrate, hydrate } from '@tanstack/react-query'
import type { PersistedClient } from '@tanstack/react-query-persist-client'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  accountKey,
  clearAccount,
  createPersister,
  enqueue,
  listOutbox,
  PERSIST_OPTIONS,
  PERSIST_THROTTLE_MS,
  shouldPersistQuery,
} from '../../../src/data/index.ts'
import { readPersistedClient } from '../../../src/data/db.ts'
import { freshDatabase, openDb } from './fresh.ts'

beforeEach(freshDatabase)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const state = (n: number): PersistedClient => ({ timestamp: n, buster: 'test', clientState: { queries: [], mutations: [] } })

/** A client holding one allow-listed query and one that must stay in memory. */
function clientWith(user: string): QueryClient {
  const qc = new QueryClient()
  qc.setQueryData(['user', 'info'], { name: user })
  qc.setQueryData(['tradeLive', 'book'], [{ id: 1 }])
  return qc
}

// What TanStack's persistQueryClientSave / Restore do with a persister, written out with the
// dehydrate/hydrate of the app's own query-core (the persist package pins another copy, whose
// QueryClient type does not match ours).
async function save(account: string, qc: QueryClient) {
  const persister = createPersister(account)
  await persister.persistClient({ timestamp: Date.now(), buster: PERSIST_OPTIONS.buster, clientState: dehydrate(qc, PERSIST_OPTIONS.dehydrateOptions) })
  await persister.flush()
}

/** A new QueryClient (a reload) filled from the account's saved cache. */
async function restore(account: string): Promise<QueryClient> {
  const qc = new QueryClient()
  const saved = await createPersister(account).restoreClient()
  if (saved) hydrate(qc, saved.clientState)
  return qc
}

describe('query cache persister', () => {
  it("an account's saved cache comes back in a new QueryClient after a reload", async () => {
    await save('u:1', clientWith('ana'))
    const qc = await restore('u:1')
    expect(qc.getQueryData(['user', 'info'])).toEqual({ name: 'ana' })
  })

  it("one account's cache never restores into another account or the visitor", async () => {
    await save('u:1', clientWith('ana'))
    await save('u:2', clientWith('ben'))
    expect((await restore('u:2')).getQueryData(['user', 'info'])).toEqual({ name: 'ben' })
    expect((await restore('u:1')).getQueryData(['user', 'info'])).toEqual({ name: 'ana' })
    expect((await restore('anon')).getQueryData(['user', 'info'])).toBeUndefined()
  })

  it('queries outside the allow-list are not saved', async () => {
    await save('u:1', clientWith('ana'))
    const qc = await restore('u:1')
    expect(qc.getQueryData(['tradeLive', 'book'])).toBeUndefined()
    const saved = await readPersistedClient('u:1')
    expect(saved?.clientState.queries.map((q) => q.queryKey)).toEqual([['user', 'info']])
  })

  it('a burst of saves writes the first state at once and then only the last one, after the throttle', async () => {
    let writes = 0
    const count = () => void writes++
    openDb().queries.hook('creating', count)
    openDb().queries.hook('updating', count)
    const persister = createPersister('u:1', { throttleMs: 300 })
    persister.persistClient(state(1))
    persister.persistClient(state(2))
    persister.persistClient(state(3))
    const saved = async () => (await readPersistedClient('u:1'))?.timestamp
    await vi.waitFor(async () => expect(await saved()).toBeDefined())
    expect(await saved()).toBe(1)
    await vi.waitFor(async () => expect(await saved()).toBe(3), { timeout: 2000 })
    expect(writes).toBe(2)
  })

  it('the throttle is one write per second by default', () => {
    expect(PERSIST_THROTTLE_MS).toBe(1000)
  })

  it('restoreClient returns the newest state even while it still waits for its write slot', async () => {
    const persister = createPersister('u:1', { throttleMs: 60_000 })
    persister.persistClient(state(1))
    persister.persistClient(state(2))
    expect((await persister.restoreClient())?.timestamp).toBe(2)
  })

  it('removeClient deletes the saved cache and a waiting write does not bring it back', async () => {
    const persister = createPersister('u:1', { throttleMs: 50 })
    persister.persistClient(state(1))
    persister.persistClient(state(2)) // waits for its slot
    await persister.removeClient()
    await sleep(100)
    expect(await readPersistedClient('u:1')).toBeUndefined()
  })

  it('accountKey names a visitor "anon" and a user "u:<id>"', () => {
    expect(accountKey(null)).toBe('anon')
    expect(accountKey(undefined)).toBe('anon')
    expect(accountKey(42)).toBe('u:42')
    expect(accountKey('42')).toBe('u:42')
  })
})

describe('what is persisted', () => {
  const q = (key: unknown[], status = 'success') => ({ queryKey: key, state: { status } })

  it.each(['common', 'notice', 'user', 'address', 'wallet', 'recharge', 'withdraw', 'trade', 'orders'])('successful "%s" queries are persisted', (root) => {
    expect(shouldPersistQuery(q([root, 'list', { page: 1 }]))).toBe(true)
  })

  it.each([['tradeLive'], ['kline'], ['exchangeQuote'], [{ root: 'user' }], []])('queries rooted at %j are not persisted', (...key) => {
    expect(shouldPersistQuery(q(key))).toBe(false)
  })

  it.each(['pending', 'error'])('a %s query is not persisted even when its key is allow-listed', (status) => {
    expect(shouldPersistQuery(q(['user', 'info'], status))).toBe(false)
  })

  it('the persist options give TanStack a build buster, a 7-day maxAge and the allow-list', () => {
    expect(typeof PERSIST_OPTIONS.buster).toBe('string')
    expect(PERSIST_OPTIONS.buster.length).toBeGreaterThan(0)
    expect(PERSIST_OPTIONS.buster).toBe('dev') // no VITE_BUILD_ID under test
    expect(PERSIST_OPTIONS.maxAge).toBe(7 * 24 * 60 * 60 * 1000)
    expect(PERSIST_OPTIONS.dehydrateOptions.shouldDehydrateQuery).toBe(shouldPersistQuery)
  })
})

describe('clearAccount', () => {
  it("removes the account's saved cache and outbox and leaves other accounts alone", async () => {
    await save('u:1', clientWith('ana'))
    await save('u:2', clientWith('ben'))
    await enqueue('u:1', 'notice.read', { id: 1 })
    await enqueue('u:2', 'notice.read', { id: 2 })

    await clearAccount('u:1')

    expect(await readPersistedClient('u:1')).toBeUndefined()
    expect(await listOutbox('u:1')).toEqual([])
    expect((await readPersistedClient('u:2'))?.clientState.queries).toHaveLength(1)
    expect(await listOutbox('u:2')).toHaveLength(1)
  })

  it('a cache write still waiting for its slot does not resurrect a cleared account', async () => {
    const persister = createPersister('u:1', { throttleMs: 50 })
    persister.persistClient(state(1))
    persister.persistClient(state(2))
    await clearAccount('u:1')
    await sleep(100)
    expect(await readPersistedClient('u:1')).toBeUndefined()
  })
})
