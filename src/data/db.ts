// The one IndexedDB database of the app. Only src/data/ opens it, and only through store.ts, which
// the facade (index.ts) loads on first use: Dexie stays out of the first-load bundle.

import Dexie, { type EntityTable, type Table, type Transaction } from 'dexie'
import type { PersistedClient } from '@tanstack/react-query-persist-client'
import type { Candle, OutboxItem } from './types.ts'

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

/** A candle row of schema version 2 (one row per candle). Kept only to migrate it in version 3. */
export interface KlineRow extends Candle {
  instId: string
  bar: string
}

export type KlineKey = [instId: string, bar: string, ts: number]

/**
 * A chunk of one kline series (schema version 3): the candles of (instId, bar) whose ts falls in the
 * time window [start, start + klineChunkSpan(bar)), as one interleaved column block. A range read
 * is then a few rows and a decode loop instead of one structured-clone object per candle.
 */
export interface KlineChunkRow {
  instId: string
  bar: string
  /** klineChunkStart(bar, ts) of every candle in the chunk. */
  start: number
  /** [ts, o, h, l, c, v] × n, ts strictly ascending; never empty (an emptied chunk is deleted). */
  data: Float64Array
}

export type KlineChunkKey = [instId: string, bar: string, start: number]

/** Numbers per candle in KlineChunkRow.data: ts, o, h, l, c, v. */
export const KLINE_STRIDE = 6

/**
 * Bars per chunk window: 500 one-minute candles are 24 KB, a fraction of a 10,000-candle read's
 * rows, small enough that a live update rewrites little, and far below the size above which
 * Chromium moves an IndexedDB value out to a blob.
 */
export const KLINE_CHUNK_BARS = 500

const BAR_UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  H: 3_600_000,
  h: 3_600_000,
  D: 86_400_000,
  d: 86_400_000,
  W: 604_800_000,
  w: 604_800_000,
  M: 30 * 86_400_000, // nominal: only the chunk size depends on it
  Y: 365 * 86_400_000,
  y: 365 * 86_400_000,
}

/**
 * The time window of one chunk of a series, in ms: KLINE_CHUNK_BARS bars of its nominal length
 * ('1m', '15m', '4H', '1Dutc', '1W', '1M'; OKX and Binance spellings). A bar it cannot read gets
 * one-minute windows: chunks then hold fewer candles, never too many. Part of the stored format:
 * changing it for a stored bar needs a schema version that re-chunks.
 */
export function klineChunkSpan(bar: string): number {
  const m = /^(\d+)([smhHdDwWMyY])(?:utc|UTC)?$/.exec(bar)
  const n = m ? Number(m[1]) : 0
  const unit = m ? BAR_UNIT_MS[m[2]!] : undefined
  return (n > 0 && unit ? n * unit : 60_000) * KLINE_CHUNK_BARS
}

/** The chunk a candle of `ts` belongs to. Non-decreasing in ts, so chunk order is ts order. */
export function klineChunkStart(span: number, ts: number): number {
  return Math.floor(ts / span) * span
}

/**
 * The schema as a list of versions, never edited once shipped: a new table or index is a new
 * version, so a phone with an older database upgrades in place and keeps its rows.
 */
export const SCHEMA = {
  1: { kv: '&id', queries: '&account' },
  2: { outbox: '++id, account, [account+state]', klines: '&[instId+bar+ts], [instId+bar]' },
  3: { klines: null, klineChunks: '&[instId+bar+start]' },
} as const

/**
 * Version 3: the one-row-per-candle `klines` table becomes `klineChunks`. Its rows are read in key
 * order ([instId+bar+ts], so each series oldest first), packed into chunks, and the old table is
 * dropped after this function (Dexie deletes a table set to null once the version's upgrade ran).
 */
async function chunkKlines(tx: Transaction): Promise<void> {
  const old = await tx.table<KlineRow, KlineKey>('klines').toArray()
  const chunks: KlineChunkRow[] = []
  let cur: { instId: string; bar: string; start: number; values: number[] } | undefined
  let span = 0
  const flush = () => {
    if (cur) chunks.push({ instId: cur.instId, bar: cur.bar, start: cur.start, data: Float64Array.from(cur.values) })
  }
  for (const { instId, bar, ts, o, h, l, c, v } of old) {
    if (cur?.instId !== instId || cur.bar !== bar) span = klineChunkSpan(bar)
    const start = klineChunkStart(span, ts)
    if (cur?.instId !== instId || cur.bar !== bar || cur.start !== start) {
      flush()
      cur = { instId, bar, start, values: [] }
    }
    cur.values.push(ts, o, h, l, c, v)
  }
  flush()
  await tx.table<KlineChunkRow, KlineChunkKey>('klineChunks').bulkAdd(chunks)
}

export class NadiDb extends Dexie {
  declare kv: EntityTable<KvRow, 'id'>
  declare queries: EntityTable<QueryRow, 'account'>
  declare outbox: EntityTable<OutboxItem, 'id'>
  declare klineChunks: Table<KlineChunkRow, KlineChunkKey>

  constructor(name = DB_NAME) {
    super(name)
    this.version(1).stores(SCHEMA[1])
    this.version(2).stores(SCHEMA[2])
    this.version(3).stores(SCHEMA[3]).upgrade(chunkKlines)
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
