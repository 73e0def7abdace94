// src/data: the only door to IndexedDB in the app (DESIGN §6, STYLE: Excalidraw's LocalData).
//
// This facade is small and Dexie-free, so importing it costs the first load nearly nothing. The
// Dexie side (store.ts: db, kv, outbox, klines) is imported on the first call that needs it. Only
// types may be imported statically from the Dexie-using modules.

import type { Candle, FlushResult, OutboxItem, OutboxSend } from './types.ts'
import { settlePersisters } from './persister.ts'

export type { Candle, FlushResult, OutboxItem, OutboxSend, OutboxState } from './types.ts'
export type { AccountPersister } from './persister.ts'
export {
  accountKey,
  createPersister,
  flushPersisters,
  PERSIST_OPTIONS,
  PERSIST_THROTTLE_MS,
  PERSISTED_ROOTS,
  shouldPersistQuery,
} from './persister.ts'
export { readSavedClient } from './fastRead.ts'

type Store = typeof import('./store.ts')
let store: Promise<Store> | undefined
function load(): Promise<Store> {
  store ??= import('./store.ts').catch((e: unknown) => {
    store = undefined // a failed chunk load (offline on first use) may succeed later
    throw e
  })
  return store
}

/**
 * Loads the Dexie side now (after first paint, say), so the outbox works if the network goes before
 * the first data call: the chunk is then in the HTTP/service-worker cache.
 */
export async function preloadData(): Promise<void> {
  await load()
}

// ── kv ──────────────────────────────────────────────────────────────────────────────────────────

export async function kvGet<T = unknown>(id: string): Promise<T | undefined> {
  return (await load()).kvGet<T>(id)
}

export async function kvSet<T>(id: string, value: T): Promise<void> {
  return (await load()).kvSet(id, value)
}

export async function kvDelete(id: string): Promise<void> {
  return (await load()).kvDelete(id)
}

/** Read-modify-write of one value in one transaction; `next` must be synchronous. Returns the stored value. */
export async function kvUpdate<T>(id: string, next: (current: T | undefined) => T): Promise<T> {
  return (await load()).kvUpdate(id, next)
}

// ── outbox ──────────────────────────────────────────────────────────────────────────────────────

const senders = new Map<string, OutboxSend>()

/**
 * Says how a queued action is sent: `send` gets the payload and the item's idempotency key and
 * throws an error with `.status` (ApiFailure) when the write did not apply. Returns an unregister.
 */
export function registerOutboxAction<P>(name: string, send: OutboxSend<P>): () => void {
  senders.set(name, send as OutboxSend)
  return () => {
    if (senders.get(name) === send) senders.delete(name)
  }
}

/** The registered sender of an action, for sending it at once when online; throws if none is registered. */
export function outboxSender<P = unknown>(name: string): OutboxSend<P> {
  const send = senders.get(name)
  if (!send) throw new Error(`no outbox action registered as "${name}"`)
  return send as OutboxSend<P>
}

/**
 * Queues a write for later. It keeps one idempotency key across every attempt: a new one, or
 * `idempotencyKey` when an online attempt with that key got no answer (it may have applied).
 */
export async function enqueue<P>(account: string, action: string, payload: P, idempotencyKey?: string): Promise<OutboxItem<P>> {
  return (await load()).enqueue(account, action, payload, idempotencyKey)
}

/** The account's queued writes (optionally of one action), oldest first. */
export async function listOutbox(account: string, action?: string): Promise<OutboxItem[]> {
  return (await load()).listOutbox(account, action)
}

/** Edits a write not sent yet in place; false when it is no longer pending (sending, failed or gone). */
export async function updatePending(id: number, payload: unknown): Promise<boolean> {
  return (await load()).updatePending(id, payload)
}

/** Drops a pending or failed write; false while it is being sent (or when it is gone). */
export async function cancel(id: number): Promise<boolean> {
  return (await load()).cancel(id)
}

/**
 * Replays the account's pending writes in order (see outbox.ts for the rules). Call it on start,
 * when the browser comes back online, after sign-in, and at `retryAt` when that is set.
 */
export async function flushOutbox(account: string): Promise<FlushResult> {
  return (await load()).flushOutbox(account, senders)
}

// ── klines ──────────────────────────────────────────────────────────────────────────────────────

/** Merges candles into the series; a candle of an already stored ts replaces it. */
export async function putCandles(instId: string, bar: string, candles: readonly Candle[]): Promise<void> {
  return (await load()).putCandles(instId, bar, candles)
}

/** Candles with from ≤ ts ≤ to, oldest first. */
export async function readCandles(instId: string, bar: string, from: number, to: number): Promise<Candle[]> {
  return (await load()).readCandles(instId, bar, from, to)
}

/** Keeps the newest `keepNewest` candles of the series; returns how many were deleted. */
export async function trimCandles(instId: string, bar: string, keepNewest: number): Promise<number> {
  return (await load()).trimCandles(instId, bar, keepNewest)
}

export async function latestCandle(instId: string, bar: string): Promise<Candle | undefined> {
  return (await load()).latestCandle(instId, bar)
}

// ── accounts ────────────────────────────────────────────────────────────────────────────────────

/** At logout: removes the account's persisted queries and its outbox. */
export async function clearAccount(account: string): Promise<void> {
  await settlePersisters(account)
  await (await load()).deleteAccountData(account)
}
