import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { beforeEach, describe, expect, it } from 'vitest'
import { kvDelete, kvGet, kvSet, kvUpdate } from '../../../src/data/index.ts'
import { DEMO_WALLET_KEY, LEGACY_WALLET_DB } from '../../../src/data/kv.ts'
import { freshDatabase, reload } from './fresh.ts'

beforeEach(freshDatabase)

const OLD_KEY = '0x' + '1f'.repeat(32)
const OTHER_KEY = '0x' + '2e'.repeat(32)

/** The database the demo wallet wrote before src/data: 'nadi-wallet', table keys, row 'demo'. */
async function makeLegacyWalletDb(row?: Record<string, unknown>) {
  const old = new Dexie(LEGACY_WALLET_DB)
  old.version(1).stores({ keys: 'id' })
  await old.open()
  if (row) await old.table('keys').put(row)
  old.close()
}

describe('kv', () => {
  it('kvSet then kvGet returns the value, structured values included; a missing id is undefined', async () => {
    expect(await kvGet('nothing')).toBeUndefined()
    await kvSet('prefs', { lang: 'EN', pinned: ['BTC-USDT'], at: new Date(5) })
    expect(await kvGet('prefs')).toEqual({ lang: 'EN', pinned: ['BTC-USDT'], at: new Date(5) })
  })

  it('kvSet replaces and kvDelete removes', async () => {
    await kvSet('k', 1)
    await kvSet('k', 2)
    expect(await kvGet('k')).toBe(2)
    await kvDelete('k')
    expect(await kvGet('k')).toBeUndefined()
  })

  it('values survive a reload', async () => {
    await kvSet('k', 'v')
    reload()
    expect(await kvGet('k')).toBe('v')
  })

  it('concurrent kvUpdate calls each see the previous result (one transaction each)', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => kvUpdate<number>('n', (n) => (n ?? 0) + 1)))
    expect(results.sort()).toEqual([1, 2, 3, 4, 5])
    expect(await kvGet('n')).toBe(5)
  })
})

describe('demo key migration from the old nadi-wallet database', () => {
  it("an existing demo key moves to kv 'demo-wallet-key' and the old database is deleted", async () => {
    await makeLegacyWalletDb({ id: 'demo', privateKey: OLD_KEY, createdAt: 123 })
    expect(await kvGet(DEMO_WALLET_KEY)).toEqual({ privateKey: OLD_KEY, createdAt: 123 })
    expect(await Dexie.exists(LEGACY_WALLET_DB)).toBe(false)
  })

  it('the migration runs before a write too, so a first kvSet of another id keeps the old key', async () => {
    await makeLegacyWalletDb({ id: 'demo', privateKey: OLD_KEY, createdAt: 1 })
    await kvSet('other', 1)
    expect(await kvGet(DEMO_WALLET_KEY)).toMatchObject({ privateKey: OLD_KEY })
  })

  it('a key already in kv wins over the old database, which is deleted all the same', async () => {
    await kvSet(DEMO_WALLET_KEY, { privateKey: OTHER_KEY, createdAt: 9 })
    await makeLegacyWalletDb({ id: 'demo', privateKey: OLD_KEY, createdAt: 1 })
    reload()
    expect(await kvGet(DEMO_WALLET_KEY)).toEqual({ privateKey: OTHER_KEY, createdAt: 9 })
    expect(await Dexie.exists(LEGACY_WALLET_DB)).toBe(false)
  })

  it('an old database without a usable key is deleted and nothing is copied', async () => {
    await makeLegacyWalletDb({ id: 'demo', privateKey: 'not-a-key', createdAt: 1 })
    expect(await kvGet(DEMO_WALLET_KEY)).toBeUndefined()
    expect(await Dexie.exists(LEGACY_WALLET_DB)).toBe(false)
  })

  it('without an old database nothing happens', async () => {
    expect(await kvGet(DEMO_WALLET_KEY)).toBeUndefined()
    expect(await Dexie.exists(LEGACY_WALLET_DB)).toBe(false)
  })
})
