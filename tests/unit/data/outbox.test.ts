import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { liveQuery } from 'dexie'
import {
  cancel,
  enqueue,
  flushOutbox,
  listOutbox,
  outboxSender,
  registerOutboxAction,
  updatePending,
  type OutboxSend,
} from '../../../src/data/index.ts'
import { isRetryable, listOutbox as listOutboxLive, retryDelay } from '../../../src/data/outbox.ts'
import { deferred, freshDatabase, openDb, reload } from './fresh.ts'

/** The shape of ApiFailure (src/api/client.ts): a message in the user's language, a body code, an HTTP status. */
class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number = status,
  ) {
    super(message)
  }
}

const ME = 'u:1'
const unregister: (() => void)[] = []
/** Registers a sender for one test; `calls` records each send as [payload, idempotencyKey]. */
function register(action: string, impl: OutboxSend = async () => null) {
  const send = vi.fn(impl)
  unregister.push(registerOutboxAction(action, send))
  return send
}
const payloads = (send: ReturnType<typeof register>) => send.mock.calls.map((c) => c[0])

beforeEach(freshDatabase)
afterEach(() => {
  for (const off of unregister.splice(0)) off()
  vi.useRealTimers()
})

describe('outbox queue', () => {
  it('enqueue stores a pending item with a v4 idempotency key, and listOutbox returns items in id order', async () => {
    const a = await enqueue(ME, 'address.add', { name: 'home' })
    const b = await enqueue(ME, 'notice.read', { id: 9 })
    const c = await enqueue(ME, 'address.add', { name: 'work' })
    expect(a).toMatchObject({ account: ME, action: 'address.add', payload: { name: 'home' }, state: 'pending', attempts: 0 })
    expect(a.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set([a, b, c].map((i) => i.idempotencyKey)).size).toBe(3)
    expect((await listOutbox(ME)).map((i) => i.id)).toEqual([a.id, b.id, c.id])
    expect(await listOutbox(ME)).toEqual([a, b, c])
  })

  it('listOutbox filters by action and never shows another account', async () => {
    const a = await enqueue(ME, 'address.add', 1)
    await enqueue('u:2', 'address.add', 2)
    await enqueue(ME, 'notice.read', 3)
    expect((await listOutbox(ME, 'address.add')).map((i) => i.id)).toEqual([a.id])
    expect((await listOutbox('u:2')).map((i) => i.payload)).toEqual([2])
  })

  it('enqueue keeps a given idempotency key (an online attempt that got no answer)', async () => {
    const item = await enqueue(ME, 'address.add', 1, 'c0ffee00-0000-4000-8000-000000000001')
    expect(item.idempotencyKey).toBe('c0ffee00-0000-4000-8000-000000000001')
  })

  it('cancel removes a pending item', async () => {
    const a = await enqueue(ME, 'x', 1)
    const b = await enqueue(ME, 'x', 2)
    expect(await cancel(a.id)).toBe(true)
    expect((await listOutbox(ME)).map((i) => i.id)).toEqual([b.id])
  })

  it('cancel removes a failed item, and an unknown id is a no-op', async () => {
    register('x', async () => {
      throw new HttpError('Refused', 400)
    })
    const a = await enqueue(ME, 'x', 1)
    await flushOutbox(ME)
    expect(await cancel(a.id)).toBe(true)
    expect(await listOutbox(ME)).toEqual([])
    expect(await cancel(a.id)).toBe(false)
  })

  it('cancel refuses an item while it is being sent', async () => {
    const gate = deferred()
    register('x', () => gate.promise)
    const a = await enqueue(ME, 'x', 1)
    const flushing = flushOutbox(ME)
    await vi.waitFor(async () => expect((await listOutbox(ME))[0]?.state).toBe('sending'))
    expect(await cancel(a.id)).toBe(false)
    gate.resolve()
    await flushing
    expect(await listOutbox(ME)).toEqual([])
  })

  it('updatePending edits a not-yet-sent item in place and the send carries the new payload once', async () => {
    const send = register('address.edit')
    const a = await enqueue(ME, 'address.edit', { id: 5, name: 'old' })
    expect(await updatePending(a.id, { id: 5, name: 'new' })).toBe(true)
    const [item] = await listOutbox(ME)
    expect(item).toMatchObject({ id: a.id, idempotencyKey: a.idempotencyKey, payload: { id: 5, name: 'new' } })
    await flushOutbox(ME)
    expect(payloads(send)).toEqual([{ id: 5, name: 'new' }])
  })

  it('updatePending refuses an item that failed or is gone', async () => {
    register('x', async () => {
      throw new HttpError('Refused', 422)
    })
    const a = await enqueue(ME, 'x', 1)
    await flushOutbox(ME)
    expect(await updatePending(a.id, 2)).toBe(false)
    expect((await listOutbox(ME))[0]?.payload).toBe(1)
    expect(await updatePending(9999, 2)).toBe(false)
  })

  it('queued items survive a reload (connection closed and reopened)', async () => {
    const a = await enqueue(ME, 'x', { n: 1 })
    const b = await enqueue(ME, 'y', { n: 2 })
    reload()
    expect(await listOutbox(ME)).toEqual([a, b])
    const send = register('x')
    register('y')
    await flushOutbox(ME)
    expect(payloads(send)).toEqual([{ n: 1 }])
    expect(await listOutbox(ME)).toEqual([])
  })

  it('an item left "sending" by a page that closed mid-send is sent again, with its key, after a reload', async () => {
    const a = await enqueue(ME, 'x', 1)
    await openDb().outbox.update(a.id, { state: 'sending' })
    reload()
    const send = register('x')
    expect(await flushOutbox(ME)).toMatchObject({ sent: 1, remaining: 0 })
    expect(send.mock.calls).toEqual([[1, a.idempotencyKey]])
  })

  it('a live query of the outbox (what useOutbox watches) sees every change: enqueue, edit, cancel and send', async () => {
    const seen: number[][] = []
    // The Dexie-side read itself: the facade's lazy import would hide the tables from the live query.
    const sub = liveQuery(() => listOutboxLive(ME)).subscribe((items) => seen.push(items.map((i) => i.payload as number)))
    const settle = () => new Promise((r) => setTimeout(r, 50))
    await settle()
    register('x')
    const a = await enqueue(ME, 'x', 1)
    await settle()
    await updatePending(a.id, 2)
    await settle()
    const b = await enqueue(ME, 'x', 3)
    await settle()
    await cancel(b.id)
    await settle()
    await flushOutbox(ME)
    await settle()
    sub.unsubscribe()
    await enqueue(ME, 'x', 4)
    await settle()
    // Each state once, in order (the live query may fold quick changes into one read).
    const distinct = seen.filter((v, i) => i === 0 || JSON.stringify(v) !== JSON.stringify(seen[i - 1]))
    expect(distinct).toEqual([[], [1], [2], [2, 3], [2], []])
  })
})

describe('outbox replay', () => {
  it('flush sends pending items in id order, with their idempotency keys, and removes each on success', async () => {
    const send = register('x')
    const sendY = register('y')
    const items = [await enqueue(ME, 'x', 1), await enqueue(ME, 'y', 2), await enqueue(ME, 'x', 3)]
    const order: unknown[] = []
    send.mockImplementation(async (p) => void order.push(p))
    sendY.mockImplementation(async (p) => void order.push(p))

    expect(await flushOutbox(ME)).toEqual({ sent: 3, failed: 0, remaining: 0, retryAt: null })
    expect(order).toEqual([1, 2, 3])
    expect(send.mock.calls.map((c) => c[1])).toEqual([items[0]!.idempotencyKey, items[2]!.idempotencyKey])
    expect(await listOutbox(ME)).toEqual([])
  })

  it("flush sends only the given account's items", async () => {
    const send = register('x')
    await enqueue('u:2', 'x', 'theirs')
    await enqueue(ME, 'x', 'mine')
    await flushOutbox(ME)
    expect(payloads(send)).toEqual(['mine'])
    expect(await listOutbox('u:2')).toHaveLength(1)
  })

  it('a network error keeps the item pending with a backoff and stops the flush, so later items wait behind it', async () => {
    const send = register('x', async () => {
      throw new HttpError('No network', 0)
    })
    const a = await enqueue(ME, 'x', 1)
    await enqueue(ME, 'x', 2)
    const before = Date.now()
    const result = await flushOutbox(ME)
    const after = Date.now()

    expect(payloads(send)).toEqual([1])
    const [first, second] = await listOutbox(ME)
    expect(first).toMatchObject({ id: a.id, state: 'pending', attempts: 1 })
    expect(first!.nextAttemptAt).toBeGreaterThanOrEqual(before + 800)
    expect(first!.nextAttemptAt).toBeLessThanOrEqual(after + 1200)
    expect(second).toMatchObject({ state: 'pending', attempts: 0 })
    expect(result).toEqual({ sent: 0, failed: 0, remaining: 2, retryAt: first!.nextAttemptAt })
  })

  it('an item is not sent again before its backoff is over; afterwards the queue drains in order', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 })
    let online = false
    const order: unknown[] = []
    register('x', async (p) => {
      if (!online) throw new HttpError('No network', 0)
      order.push(p)
    })
    await enqueue(ME, 'x', 1)
    await enqueue(ME, 'x', 2)
    await flushOutbox(ME) // attempt 1 fails
    online = true

    expect(await flushOutbox(ME)).toMatchObject({ sent: 0, remaining: 2 })
    expect(order).toEqual([])

    vi.setSystemTime(Date.now() + 1_200)
    expect(await flushOutbox(ME)).toMatchObject({ sent: 2, remaining: 0, retryAt: null })
    expect(order).toEqual([1, 2])
  })

  it('each further failure doubles the wait, up to a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 })
    register('x', async () => {
      throw new HttpError('Server error', 503)
    })
    const a = await enqueue(ME, 'x', 1)
    const waits: number[] = []
    for (let i = 0; i < 9; i++) {
      const { retryAt } = await flushOutbox(ME)
      waits.push(retryAt! - Date.now())
      vi.setSystemTime(retryAt!)
    }
    expect((await openDb().outbox.get(a.id))?.attempts).toBe(9)
    const bases = [1, 2, 4, 8, 16, 32, 60, 60, 60].map((s) => s * 1000)
    waits.forEach((w, i) => {
      expect(w).toBeGreaterThanOrEqual(bases[i]! * 0.8)
      expect(w).toBeLessThanOrEqual(bases[i]! * 1.2)
    })
  })

  it('a refusal (4xx) marks the item failed with the server message and the flush goes on to the next', async () => {
    const order: unknown[] = []
    register('x', async (p) => {
      if (p === 2) throw new HttpError('地址數量已達上限', 400, 4001)
      order.push(p)
    })
    await enqueue(ME, 'x', 1)
    const b = await enqueue(ME, 'x', 2)
    await enqueue(ME, 'x', 3)

    expect(await flushOutbox(ME)).toEqual({ sent: 2, failed: 1, remaining: 0, retryAt: null })
    expect(order).toEqual([1, 3])
    expect(await listOutbox(ME)).toEqual([{ ...b, state: 'failed', error: '地址數量已達上限', attempts: 1 }])
  })

  it('a failed item is not sent again by later flushes', async () => {
    const send = register('x', async () => {
      throw new HttpError('Refused', 404)
    })
    await enqueue(ME, 'x', 1)
    await flushOutbox(ME)
    await flushOutbox(ME)
    expect(send).toHaveBeenCalledTimes(1)
  })

  it.each([0, 500, 502, 503, 429, 409, 401])('status %i is retried later: the item stays pending', async (status) => {
    register('x', async () => {
      throw new HttpError('try later', status)
    })
    await enqueue(ME, 'x', 1)
    await flushOutbox(ME)
    expect((await listOutbox(ME))[0]).toMatchObject({ state: 'pending', attempts: 1 })
  })

  it.each([400, 403, 404, 410, 422])('status %i is a refusal: the item fails', async (status) => {
    register('x', async () => {
      throw new HttpError('no', status)
    })
    await enqueue(ME, 'x', 1)
    await flushOutbox(ME)
    expect((await listOutbox(ME))[0]).toMatchObject({ state: 'failed', error: 'no' })
  })

  it('the error rule: a refusal carried in a 200 envelope fails, an expired login in one is retried, an error without status is retried', () => {
    expect(isRetryable(new HttpError('limit', 200, 4001))).toBe(false)
    expect(isRetryable(new HttpError('login expired', 200, 401))).toBe(true)
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true)
    expect(isRetryable(undefined)).toBe(true)
  })

  it('the backoff is 1 s doubling to 60 s with ±20 % jitter', () => {
    expect(retryDelay(1, () => 0.5)).toBe(1000)
    expect(retryDelay(1, () => 0)).toBe(800)
    expect(retryDelay(1, () => 1)).toBe(1200)
    expect(retryDelay(2, () => 0.5)).toBe(2000)
    expect(retryDelay(6, () => 0.5)).toBe(32_000)
    expect(retryDelay(7, () => 0.5)).toBe(60_000)
    expect(retryDelay(50, () => 1)).toBe(72_000)
  })

  it('flush stops at an item whose action has no sender yet, and sends it once one is registered', async () => {
    const sendY = register('y')
    await enqueue(ME, 'x', 1)
    await enqueue(ME, 'y', 2)
    expect(await flushOutbox(ME)).toEqual({ sent: 0, failed: 0, remaining: 2, retryAt: null })
    expect(sendY).not.toHaveBeenCalled()
    register('x')
    expect(await flushOutbox(ME)).toMatchObject({ sent: 2, remaining: 0 })
  })

  it('two concurrent flushes send each item once, one at a time', async () => {
    const gate = deferred()
    let inFlight = 0
    let maxInFlight = 0
    const send = register('x', async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      await gate.promise
      inFlight--
    })
    await enqueue(ME, 'x', 1)
    await enqueue(ME, 'x', 2)
    const first = flushOutbox(ME)
    const second = flushOutbox(ME)
    await vi.waitFor(() => expect(send).toHaveBeenCalled())
    await new Promise((r) => setTimeout(r, 20)) // room for a second flush to (wrongly) start sending
    gate.resolve()
    await Promise.all([first, second])
    expect(payloads(send)).toEqual([1, 2])
    expect(maxInFlight).toBe(1)
    expect(await listOutbox(ME)).toEqual([])
  })

  it('an item queued during a flush is sent by the time a flush called for it resolves', async () => {
    const gate = deferred()
    const send = register('x', (p) => (p === 1 ? gate.promise : Promise.resolve()))
    await enqueue(ME, 'x', 1)
    const first = flushOutbox(ME)
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1))
    await enqueue(ME, 'x', 2)
    const second = flushOutbox(ME)
    gate.resolve()
    await second
    expect(payloads(send)).toEqual([1, 2])
    await first
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('outboxSender gives the registered sender and throws for an unknown action', () => {
    const send = register('x')
    expect(outboxSender('x')).toBe(send)
    expect(() => outboxSender('nope')).toThrow(/nope/)
  })
})
