import 'fake-indexeddb/auto'
import fs from 'node:fs'
import path from 'node:path'
import type { PersistedClient } from '@tanstack/react-query-persist-client'
import { beforeEach, describe, expect, it } from 'vitest'
import { createPersister, PERSIST_OPTIONS } from '../../../src/data/index.ts'
import { readSavedClient, takeEarlyRead } from '../../../src/data/fastRead.ts'
import { DB_NAME } from '../../../src/data/db.ts'
import { MemoryStorage } from '../lib/memoryStorage.ts'
import { freshDatabase } from './fresh.ts'

beforeEach(freshDatabase)

/** index.html's inline script that starts reading the saved cache before the app's code loads. */
const EARLY_READ = (() => {
  const html = fs.readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8')
  const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).find((s) => s.includes('__nadiSaved'))
  if (!script) throw new Error('index.html has no early read of the saved cache')
  return script
})()

interface Host {
  __nadiSaved?: { account: string; client: Promise<PersistedClient | undefined> }
}

/** Runs the inline script as a page start would: `saved` is the app's flag that a cache was ever saved. */
function startPage(o: { saved: boolean; token?: string; account?: string }): Host {
  const local = new MemoryStorage()
  const session = new MemoryStorage()
  if (o.saved) local.setItem('query_cache_saved', '1')
  if (o.token) session.setItem('token', o.token)
  if (o.account) session.setItem('account', o.account)
  const window: Host = {}
  new Function('window', 'localStorage', 'sessionStorage', 'indexedDB', EARLY_READ)(window, local, session, indexedDB)
  return window
}

const saved = (name: string): PersistedClient => ({
  timestamp: 1,
  buster: PERSIST_OPTIONS.buster,
  clientState: { mutations: [], queries: [{ queryKey: ['user', 'info'], queryHash: '["user","info"]', dehydratedAt: 1, state: { data: { name } } as never }] },
})

async function save(account: string, client: PersistedClient) {
  const p = createPersister(account)
  await p.persistClient(client)
  await p.flush()
}

describe('the saved cache is read while the app code loads', () => {
  it('a signed-in tab reads its account\'s cache at once; the app takes that read instead of reading again', async () => {
    await save('u:7', saved('ana'))
    await save('anon', saved('visitor'))
    const page = startPage({ saved: true, token: '{"value":"t","expires":1}', account: 'u:7' })
    expect(page.__nadiSaved?.account).toBe('u:7')
    const read = takeEarlyRead('u:7', page)
    expect((await read)?.clientState.queries[0]?.state.data).toEqual({ name: 'ana' })
    // Taken once: a later restore (another sign-in) reads afresh.
    expect(takeEarlyRead('u:7', page)).toBeUndefined()
  })

  it('a tab without a token reads the visitor\'s cache; a guess the app disagrees with is dropped, not shown', async () => {
    await save('u:7', saved('ana'))
    const visitor = startPage({ saved: true, account: 'u:7' })
    expect(visitor.__nadiSaved?.account).toBe('anon')
    // The token had expired (session.ts says anon) while the script guessed the account: no read is used.
    const guessed = startPage({ saved: true, token: 'x', account: 'u:7' })
    expect(takeEarlyRead('anon', guessed)).toBeUndefined()
    expect(guessed.__nadiSaved).toBeUndefined()
  })

  it('a phone that never saved a cache reads nothing and creates no database', async () => {
    expect(startPage({ saved: false }).__nadiSaved).toBeUndefined()
    const page = startPage({ saved: true })
    expect(await takeEarlyRead('anon', page)).toBeUndefined()
    const names = (await indexedDB.databases()).map((d) => d.name)
    expect(names).not.toContain(DB_NAME)
  })

  it('without the script the app reads the cache itself', async () => {
    await save('u:7', saved('ana'))
    expect((await readSavedClient('u:7'))?.clientState.queries[0]?.state.data).toEqual({ name: 'ana' })
  })
})
