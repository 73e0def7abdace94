// The one IndexedDB database of the app. Only src/data/ opens it, and only through store.ts, which
// the facade (index.ts) loads on first use: Dexie stays out of the first-load bundle.

import Dexie, { type EntityTable, type Table } from 'dexie'
import type { PersistedClient } from '@tanstack/react-query-persist-client'
import type { OutboxItem } from './types.ts'

export const DB_NAME = 'nadi'

export interface KvRow {
  id: string
  value: unknown
}

/** One persisted TanStack Query client per account ('anon' or 'u:<id>'). */
export interface QueryRow {
  account: string
  client: PersistedClient
}

export interface KlineRow {
  instId: string
  bar: string
  ts: number
  o: number
  h: number
  l: number
  c: number
  v: number
}

export type KlineKey = [instId: string, bar: string, ts: number]

/**
 * The schema as a list of versions, never edited once shipped: a new table or index is a new
 * version, so a phone with an older database upgrades in place and keeps its rows.
 */
export const SCHEMA = {
  1: { kv: '&id', queries: '&account' },
  2: { outbox: '++id, account, [account+state]', klines: '&[instId+bar+ts], [instId+bar]' },
} as const

export class NadiDb extends Dexie {
  declare kv: EntityTable<KvRow, 'id'>
  declare queries: EntityTable<QueryRow, 'account'>
  declare outbox: EntityTable<OutboxItem, 'id'>
  declare klines: Table<KlineRow, KlineKey>

  constructor(name = DB_NAME) {
    super(name)
    this.version(1).stores(SCHEMA[1])
    this.version(2).stores(SCHEMA[2])
  }
}

let db: NadiDb | undefined

/** The app's database, one instance per page; Dexie opens it on the first query. */
export function openDb(): NadiDb {
  db ??= new NadiDb()
  return db
}

/** Closes the connection; the next openDb() opens a new one (a reload, as far as data goes). */
export function closeDb(): void {
  db?.close()
  db = undefined
}

/** Drops everything kept for one account: its persisted queries and its outbox. */
export async function deleteAccountData(account: string): Promise<void> {
  const d = openDb()
  await d.transaction('rw', d.queries, d.outbox, async () => {
    await d.queries.delete(account)
    await d.outbox.where('account').equals(account).delete()
  })
}

export async function readPersistedClient(account: string): Promise<PersistedClient | undefined> {
  return (await openDb().queries.get(account))?.client
}

export async function writePersistedClient(account: string, client: PersistedClient): Promise<void> {
  await openDb().queries.put({ account, client })
}

export async function deletePersistedClient(account: string): Promise<void> {
  await openDb().queries.delete(account)
}
