import { effect } from '@preact/signals-react'
import { ApiFailure, newIdempotencyKey } from '../api/client.ts'
import { online } from '../api/online.ts'
import { account, signedIn } from '../api/session.ts'
import { enqueue, flushOutbox, outboxSender } from '../data/index.ts'
import { registerAddressActions } from '../features/address/outbox.ts'
import { registerCarApplyActions } from '../features/cars/applyOutbox.ts'
import { registerDeviceActions } from '../features/mining/devices/outbox.ts'
import { registerNoticeActions } from '../features/notice/outbox.ts'
import { registerShopOrderActions } from '../features/shopOrders/outbox.ts'
import { queryClient } from './queryClient.ts'

export interface Outcome<T> {
  /** True when the change waits in the outbox for the network. */
  queued: boolean
  result?: T
}

/**
 * DESIGN §6: a harmless write goes straight to the server when online; offline, or when the request
 * gets no answer, it is kept in the outbox under the same idempotency key, so whether or not the lost
 * request reached the server, the change applies exactly once.
 */
export async function performOrQueue<T>(action: string, payload: unknown): Promise<Outcome<T>> {
  registerSenders()
  const acct = account.value
  if (acct === 'anon') throw new Error(`${action} needs a signed-in account`)
  if (!online.value) {
    await enqueue(acct, action, payload)
    return { queued: true }
  }
  const key = newIdempotencyKey()
  try {
    return { queued: false, result: (await outboxSender(action)(payload, key)) as T }
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 0) {
      await enqueue(acct, action, payload, key)
      return { queued: true }
    }
    throw e
  }
}

let registered = false

/**
 * How each harmless write is sent. This module is not in the first load (src/main.tsx imports it after
 * the first paint), so the senders are registered on its first use, by whichever comes first: the
 * driver at start, or a screen's write.
 */
function registerSenders(): void {
  if (registered) return
  registered = true
  registerAddressActions(queryClient)
  registerCarApplyActions(queryClient)
  registerShopOrderActions(queryClient)
  registerDeviceActions(queryClient)
  registerNoticeActions(queryClient)
}

let retryTimer: ReturnType<typeof setTimeout> | undefined

/** Replays the signed-in account's queue now, if there is a network; the outbox itself is single-flight. */
export async function flushSoon(): Promise<void> {
  const acct = account.value
  if (!signedIn.value || acct === 'anon' || !online.value) return
  const r = await flushOutbox(acct)
  // Items waiting out their backoff are tried again when it ends.
  clearTimeout(retryTimer)
  if (r.retryAt !== null) retryTimer = setTimeout(() => void flushSoon(), Math.max(0, r.retryAt - Date.now()))
}

/** Replays on start, on every return of the network, on sign-in, and whenever a backoff ends. */
export function startOutboxDriver(): void {
  registerSenders()
  effect(() => {
    if (online.value && signedIn.value && account.value !== 'anon') void flushSoon()
  })
}
