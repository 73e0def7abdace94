// Small values the app keeps on this device (the demo wallet's key, settings): the `kv` table.

import Dexie from 'dexie'
import { openDb } from './db.ts'

/** Where the demo wallet's key lives in `kv`. */
export const DEMO_WALLET_KEY = 'demo-wallet-key'

/** The database the demo wallet used before src/data existed: table `keys`, row id 'demo'. */
export const LEGACY_WALLET_DB = 'nadi-wallet'
const LEGACY_DEMO_ID = 'demo'
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/

export interface DemoWalletValue {
  privateKey: string
  createdAt: number
}

let migrated: Promise<void> | undefined

/**
 * Moves the demo key out of the old 'nadi-wallet' database, then deletes that database, so a demo
 * user keeps the address they had. Runs once per page, before the first kv read or write. A key
 * already in `kv` wins; the old database is deleted only after its key is safely copied.
 */
function migrateLegacyWallet(): Promise<void> {
  migrated ??= (async () => {
    try {
      if (!(await Dexie.exists(LEGACY_WALLET_DB))) return
      const old = new Dexie(LEGACY_WALLET_DB) // no version(): opens whatever schema it has
      let row: { privateKey?: unknown; createdAt?: unknown } | undefined
      try {
        await old.open()
        if (old.tables.some((t) => t.name === 'keys')) row = await old.table('keys').get(LEGACY_DEMO_ID)
      } finally {
        old.close()
      }
      if (typeof row?.privateKey === 'string' && PRIVATE_KEY_RE.test(row.privateKey)) {
        const value: DemoWalletValue = {
          privateKey: row.privateKey,
          createdAt: typeof row.createdAt === 'number' ? row.createdAt : Date.now(),
        }
        const d = openDb()
        await d.transaction('rw', d.kv, async () => {
          if ((await d.kv.get(DEMO_WALLET_KEY)) === undefined) await d.kv.put({ id: DEMO_WALLET_KEY, value })
        })
      }
      await Dexie.delete(LEGACY_WALLET_DB)
    } catch {
      // The old database stays for the next page load to try again; kv works meanwhile.
    }
  })()
  return migrated
}

/** Forgets that the migration ran (tests simulate a fresh page load). */
export function resetKvMigration(): void {
  migrated = undefined
}

export async function kvGet<T = unknown>(id: string): Promise<T | undefined> {
  await migrateLegacyWallet()
  return (await openDb().kv.get(id))?.value as T | undefined
}

export async function kvSet<T>(id: string, value: T): Promise<void> {
  await migrateLegacyWallet()
  await openDb().kv.put({ id, value })
}

export async function kvDelete(id: string): Promise<void> {
  await migrateLegacyWallet()
  await openDb().kv.delete(id)
}

/**
 * Reads and writes one value in a single transaction, so concurrent callers (two tabs opening the
 * demo wallet at once) agree on one result. `next` must be synchronous: it runs inside the
 * IndexedDB transaction. Returns the stored value.
 */
export async function kvUpdate<T>(id: string, next: (current: T | undefined) => T): Promise<T> {
  await migrateLegacyWallet()
  const d = openDb()
  return d.transaction('rw', d.kv, async () => {
    const current = (await d.kv.get(id))?.value as T | undefined
    const value = next(current)
    if (value !== current) await d.kv.put({ id, value })
    return value
  })
}
