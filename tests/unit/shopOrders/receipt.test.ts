import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ShopOrder } from '../../../contract/preOrder.ts'
import { enqueue, flushOutbox, listOutbox, registerOutboxAction } from '../../../src/data/index.ts'
import { isRetryable } from '../../../src/data/outbox.ts'
import { RECEIPT_ACTION, ReceiptRefused, sendReceipt, type ReceiptApi, type ReceiptPayload } from '../../../src/features/shopOrders/receipt.ts'
import { freshDatabase } from '../data/fresh.ts'

/** The shape of ApiFailure (src/api/client.ts): the server's message, the envelope code, the HTTP status. */
class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number = status,
  ) {
    super(message)
  }
}

const order = (status: ShopOrder['status']) => ({ id: 7, status }) as ShopOrder
const P: ReceiptPayload = { area: 'gold', id: 7 }

/** A fake API: the receipt call answers `post`, the detail call `detail`. */
function api(post: () => Promise<ShopOrder>, detail: () => Promise<ShopOrder> = async () => order('pending_receipt')) {
  return { post: vi.fn<ReceiptApi['post']>(post), get: vi.fn<ReceiptApi['get']>(detail) }
}

describe('sending a confirmation of receipt', () => {
  it('posts <area>/receipt with the order id under the item’s idempotency key', async () => {
    const a = api(async () => order('completed'))
    expect(await sendReceipt(a, P, 'key-1')).toEqual({ order: order('completed'), already: null })
    expect(a.post).toHaveBeenCalledWith('gold/receipt', { id: 7 }, 'key-1')
    expect(a.get).not.toHaveBeenCalled()
  })

  it('a 409 for an order already completed (the clock confirmed it meanwhile) is success, with the server’s words', async () => {
    const a = api(
      async () => Promise.reject(new HttpError('Receipt is already confirmed', 409)),
      async () => order('completed'),
    )
    expect(await sendReceipt(a, { area: 'machine', id: 7 }, 'k')).toEqual({ order: order('completed'), already: 'Receipt is already confirmed' })
    expect(a.get).toHaveBeenCalledWith('machine/orderDetail', { id: 7 })
  })

  it('a 409 while the order is still pending receipt (the same key in flight) is rethrown, and stays retryable', async () => {
    const conflict = new HttpError('The same request is still being processed', 409)
    const a = api(async () => Promise.reject(conflict))
    const e = await sendReceipt(a, P, 'k').catch((x: unknown) => x)
    expect(e).toBe(conflict)
    expect(isRetryable(e)).toBe(true)
  })

  it('a 409 for an order that can no longer be received is refused for good: not retried', async () => {
    const a = api(
      async () => Promise.reject(new HttpError('This order has not been shipped', 409, 409)),
      async () => order('pending_shipment'),
    )
    const e = await sendReceipt(a, P, 'k').catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ReceiptRefused)
    expect((e as ReceiptRefused).message).toBe('This order has not been shipped')
    expect(isRetryable(e)).toBe(false)
  })

  it('a 409 whose order cannot be read (the network went) stays the retryable 409', async () => {
    const conflict = new HttpError('conflict', 409)
    const a = api(
      async () => Promise.reject(conflict),
      async () => Promise.reject(new HttpError('network', 0)),
    )
    expect(await sendReceipt(a, P, 'k').catch((x: unknown) => x)).toBe(conflict)
  })

  it('other failures pass through untouched: 404 (not the user’s order) is refused, no answer is retried', async () => {
    const missing = new HttpError('Order not found', 404)
    expect(await sendReceipt(api(async () => Promise.reject(missing)), P, 'k').catch((x: unknown) => x)).toBe(missing)
    expect(isRetryable(missing)).toBe(false)
    const offline = new HttpError('network', 0)
    expect(await sendReceipt(api(async () => Promise.reject(offline)), P, 'k').catch((x: unknown) => x)).toBe(offline)
  })
})

describe('a queued confirmation of receipt in the outbox', () => {
  const ME = 'u:1'
  const off: (() => void)[] = []
  beforeEach(freshDatabase)
  afterEach(() => {
    for (const f of off.splice(0)) f()
  })

  it('answered 409 "already confirmed" ends as done and the writes behind it are sent', async () => {
    const a = api(
      async () => Promise.reject(new HttpError('Receipt is already confirmed', 409)),
      async () => order('completed'),
    )
    off.push(registerOutboxAction<ReceiptPayload>(RECEIPT_ACTION, (p, key) => sendReceipt(a, p, key)))
    const after = vi.fn(async () => null)
    off.push(registerOutboxAction('test.after', after))
    await enqueue(ME, RECEIPT_ACTION, P)
    await enqueue(ME, 'test.after', { n: 1 })
    const r = await flushOutbox(ME)
    expect(r).toMatchObject({ sent: 2, failed: 0, remaining: 0, retryAt: null })
    expect(await listOutbox(ME)).toEqual([])
    expect(after).toHaveBeenCalledTimes(1)
  })

  it('answered 409 for an order not shipped ends as failed with the server’s words, and does not block the queue', async () => {
    const a = api(
      async () => Promise.reject(new HttpError('This order has not been shipped', 409)),
      async () => order('pending_shipment'),
    )
    off.push(registerOutboxAction<ReceiptPayload>(RECEIPT_ACTION, (p, key) => sendReceipt(a, p, key)))
    const after = vi.fn(async () => null)
    off.push(registerOutboxAction('test.after', after))
    await enqueue(ME, RECEIPT_ACTION, P)
    await enqueue(ME, 'test.after', { n: 1 })
    const r = await flushOutbox(ME)
    expect(r).toMatchObject({ sent: 1, failed: 1, remaining: 0 })
    const [left] = await listOutbox(ME)
    expect(left).toMatchObject({ action: RECEIPT_ACTION, state: 'failed', error: 'This order has not been shipped' })
  })

  it('keeps its idempotency key across a retried attempt', async () => {
    let calls = 0
    const a = api(async () => {
      calls++
      if (calls === 1) throw new HttpError('network', 0)
      return order('completed')
    })
    off.push(registerOutboxAction<ReceiptPayload>(RECEIPT_ACTION, (p, key) => sendReceipt(a, p, key)))
    const queued = await enqueue(ME, RECEIPT_ACTION, P)
    const first = await flushOutbox(ME)
    expect(first).toMatchObject({ sent: 0, remaining: 1 })
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ['Date'] })
    try {
      expect(await flushOutbox(ME)).toMatchObject({ sent: 1, remaining: 0 })
    } finally {
      vi.useRealTimers()
    }
    expect(a.post.mock.calls.map((c) => c[2])).toEqual([queued.idempotencyKey, queued.idempotencyKey])
  })
})
