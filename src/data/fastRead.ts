import type { PersistedClient } from '@tanstack/react-query-persist-client'

/**
 * Reads one account's saved query cache with plain IndexedDB, without loading Dexie: the start of
 * the app waits on this, and opening the database directly is a fraction of the cost. Never creates
 * or upgrades the database (Dexie owns the schema); any trouble reads as "nothing saved".
 */
export function readSavedClient(account: string): Promise<PersistedClient | undefined> {
  return takeEarlyRead(account) ?? readNow(account)
}

/** The read index.html's inline script started while the app's code loaded, for the account it guessed. */
interface EarlyRead {
  account: string
  client: Promise<PersistedClient | undefined>
}

/**
 * The inline script's read, taken once: a start restores once, and any later read (another account
 * signed in) must see what was saved since. A guess of another account (a token that expired) is dropped.
 */
export function takeEarlyRead(account: string, host: { __nadiSaved?: EarlyRead } = globalThis as { __nadiSaved?: EarlyRead }): Promise<PersistedClient | undefined> | undefined {
  const early = host.__nadiSaved
  if (!early) return undefined
  delete host.__nadiSaved
  return early.account === account ? early.client.catch(() => undefined) : undefined
}

function readNow(account: string): Promise<PersistedClient | undefined> {
  return new Promise((resolve) => {
    let req: IDBOpenDBRequest
    try {
      req = indexedDB.open('nadi')
    } catch {
      resolve(undefined)
      return
    }
    // No database yet: abort instead of creating an empty one under Dexie's feet.
    req.onupgradeneeded = () => req.transaction?.abort()
    req.onerror = () => resolve(undefined)
    req.onblocked = () => resolve(undefined)
    req.onsuccess = () => {
      const db = req.result
      db.onversionchange = () => db.close()
      if (!db.objectStoreNames.contains('queries')) {
        db.close()
        resolve(undefined)
        return
      }
      try {
        const get = db.transaction('queries', 'readonly').objectStore('queries').get(account)
        get.onsuccess = () => {
          db.close()
          resolve((get.result as { client?: PersistedClient } | undefined)?.client)
        }
        get.onerror = () => {
          db.close()
          resolve(undefined)
        }
      } catch {
        db.close()
        resolve(undefined)
      }
    }
  })
}
