// The outbox (DESIGN §6): harmless writes made offline, kept in IndexedDB with an idempotency key
// and replayed in order when the app is back online. Generic: a feature registers a sender per
// action name (in the facade); this file only stores, orders and classifies.

import { SEAL_CODE } from '../../contract/constants.ts'
import { openDb } from './db.ts'
import type { FlushResult, OutboxItem, OutboxSend } from './types.ts'

/** A UUID v4 from crypto.getRandomValues: randomUUID exists only in secure contexts (a phone on http). */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6]! & 0x0f) | 0x40 // version 4
  b[8] = (b[8]! & 0x3f) | 0x80 // RFC 4122 variant
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export const RETRY_BASE_MS = 1_000
export const RETRY_MAX_MS = 60_000
export const RETRY_JITTER = 0.2

/** Wait before attempt n+1 after n failed attempts: 1 s doubling to 60 s, then ±20 % jitter. */
export function retryDelay(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()))
}

/**
 * Whether a failed send may succeed later, so the item stays pending and blocks the ones behind
 * it: no response (status 0, also an answer that was not the server's), a server error, rate
 * limited, a conflict (the same key still in flight), signed out, or a sealed request refused as
 * changed on the way or a copy (nothing was applied; a fresh seal goes through). An error without an
 * HTTP status (a network error not wrapped in ApiFailure, an abort) is treated the same: a write is
 * never dropped because of how it failed to leave. Anything else that carries a status is the server
 * refusing this write: 'failed'.
 */
export function isRetryable(e: unknown): boolean {
  const { status, code } = (e ?? {}) as { status?: unknown; code?: unknown }
  if (typeof status !== 'number') return true
  // An envelope "login expired" comes back with HTTP 200 and body code 401.
  return status === 0 || status >= 500 || status === 429 || status === 409 || status === 401 || code === 401 || code === SEAL_CODE.INVALID || code === SEAL_CODE.REPLAY
}

function messageOf(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message
  return typeof m === 'string' && m ? m : String(e)
}

/**
 * Queues a write. Its idempotency key is made here, or is the one of an online attempt that got no
 * answer: that request may have reached the server, and the replay must not apply it a second time.
 */
export async function enqueue<P>(account: string, action: string, payload: P, idempotencyKey?: string): Promise<OutboxItem<P>> {
  const now = Date.now()
  const item: Omit<OutboxItem<P>, 'id'> = {
    account,
    action,
    payload,
    idempotencyKey: idempotencyKey || newIdempotencyKey(),
    createdAt: now,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: now,
  }
  const id = await openDb().outbox.add(item as Omit<OutboxItem, 'id'>)
  return { ...item, id }
}

/** The account's items, oldest first (the order they will be sent in). */
export async function listOutbox(account: string, action?: string): Promise<OutboxItem[]> {
  // Rows with one `account` come out of the index in primary-key order: by id.
  const rows = await openDb().outbox.where('account').equals(account).toArray()
  return action === undefined ? rows : rows.filter((r) => r.action === action)
}

/**
 * Replaces the payload of an item that has not been sent yet (editing an address twice offline
 * sends one write). Returns false when the item is gone or no longer pending; the caller then
 * enqueues a new write instead.
 */
export async function updatePending(id: number, payload: unknown): Promise<boolean> {
  const d = openDb()
  const done = await d.transaction('rw', d.outbox, async () => {
    const item = await d.outbox.get(id)
    if (item?.state !== 'pending') return false
    await d.outbox.update(id, { payload })
    return true
  })
  return done
}

/** Drops a pending or failed item. An item being sent cannot be cancelled: returns false. */
export async function cancel(id: number): Promise<boolean> {
  const d = openDb()
  const done = await d.transaction('rw', d.outbox, async () => {
    const item = await d.outbox.get(id)
    if (!item || item.state === 'sending') return false
    await d.outbox.delete(id)
    return true
  })
  return done
}

const running = new Map<string, Promise<FlushResult>>()
const again = new Set<string>()

/**
 * Another tab of the app may flush the same account: the Web Locks API makes the flush single-flight
 * across tabs where it exists (secure contexts); elsewhere it is single-flight per tab.
 */
function withAccountLock<T>(account: string, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  if (!locks) return fn()
  return locks.request(`nadi-outbox:${account}`, fn)
}

/**
 * Sends the account's pending items, strictly in id order, one at a time. Stops at the first item
 * that must wait (not due yet, no sender registered, or a retryable failure), so a later write never
 * overtakes an earlier one. A second call while a flush runs joins it (and makes it look once more
 * for items queued meanwhile): nothing is sent twice.
 */
export function flushOutbox(account: string, senders: ReadonlyMap<string, OutboxSend>): Promise<FlushResult> {
  const current = running.get(account)
  if (current) {
    again.add(account)
    return current
  }
  const run = withAccountLock(account, async () => {
    const total: FlushResult = { sent: 0, failed: 0, remaining: 0, retryAt: null }
    await recoverInterrupted(account)
    do {
      again.delete(account)
      await flushPass(account, senders, total)
    } while (again.has(account))
    total.remaining = await openDb().outbox.where('[account+state]').equals([account, 'pending']).count()
    return total
  }).finally(() => running.delete(account))
  running.set(account, run)
  return run
}

/**
 * An item left 'sending' by a page that closed mid-send goes back to pending. Only the lock holder
 * sends, so any 'sending' item seen here is such a leftover; its idempotency key makes resending it
 * harmless if the server did apply it.
 */
async function recoverInterrupted(account: string): Promise<void> {
  await openDb().outbox.where('[account+state]').equals([account, 'sending']).modify({ state: 'pending' })
}

async function flushPass(account: string, senders: ReadonlyMap<string, OutboxSend>, total: FlushResult): Promise<void> {
  const d = openDb()
  total.retryAt = null
  for (;;) {
    const next = await d.outbox.where('[account+state]').equals([account, 'pending']).first()
    if (!next) return
    if (next.nextAttemptAt > Date.now()) {
      total.retryAt = next.nextAttemptAt
      return
    }
    const send = senders.get(next.action)
    if (!send) return // its feature has not registered yet; it flushes again once it has

    // Claim it, reading the payload as of now (updatePending may have changed it).
    const item = await d.transaction('rw', d.outbox, async () => {
      const cur = await d.outbox.get(next.id)
      if (cur?.state !== 'pending') return undefined
      await d.outbox.update(cur.id, { state: 'sending' })
      return cur
    })
    if (!item) continue // cancelled meanwhile

    try {
      await send(item.payload, item.idempotencyKey)
    } catch (e) {
      const attempts = item.attempts + 1
      if (isRetryable(e)) {
        const nextAttemptAt = Date.now() + retryDelay(attempts)
        await d.outbox.update(item.id, { state: 'pending', attempts, nextAttemptAt })
        total.retryAt = nextAttemptAt
        return
      }
      await d.outbox.update(item.id, { state: 'failed', error: messageOf(e), attempts })
      total.failed++
      continue
    }
    await d.outbox.delete(item.id)
    total.sent++
  }
}
