// Each data test starts from an empty browser: no 'nadi' database, no old 'nadi-wallet' one, and
// the page-level memory of src/data (open connection, "migration done") forgotten, as on a reload.
// Test files import 'fake-indexeddb/auto' before this file, so Dexie finds the fake IndexedDB.
import Dexie from 'dexie'
import { closeDb, DB_NAME, openDb } from '../../../src/data/db.ts'
import { LEGACY_WALLET_DB, resetKvMigration } from '../../../src/data/kv.ts'

export async function freshDatabase(): Promise<void> {
  closeDb()
  resetKvMigration()
  await Dexie.delete(DB_NAME)
  await Dexie.delete(LEGACY_WALLET_DB)
}

/** What a reload does to the data layer: the connection goes, the rows stay. */
export function reload(): void {
  closeDb()
  resetKvMigration()
}

export { openDb }

/** A promise with its resolve/reject outside, to hold a send open while the test looks around. */
export function deferred<T = void>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
