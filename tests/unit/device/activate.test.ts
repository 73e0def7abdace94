import { describe, expect, it } from 'vitest'
import type { Device } from '../../../contract/device.ts'
import { isRetryable } from '../../../src/data/outbox.ts'
import { ACTIVATE_ACTION, ActivateRefused, badgeOf, queuedActivations, sendActivation, type ActivateApi } from '../../../src/features/mining/devices/activate.ts'

const device = (status: Device['status']): Device => ({
  id: 7, goods_id: 1, name: 'Pad', spec_name: 'Base', cover: '', power: '100', status, shipped: true,
  activated_at: status === 'success' ? 1 : null, mining_from: null, order_id: 3, order_no: 'N1', created_at: 0,
})
const failure = (status: number, message = 'no') => Object.assign(new Error(message), { status, code: status })
const apiOf = (post: () => Promise<Device>, list: () => Promise<Device[]>): ActivateApi => ({ post, list })

describe('sending a queued activation', () => {
  it('answers the device when the server activates it', async () => {
    const r = await sendActivation(apiOf(async () => device('success'), async () => []), { device_id: 7, code: 'x' }, 'k')
    expect(r).toEqual({ device: device('success'), already: null })
  })

  it('a 409 on a device that is active by now is done (another phone, or this item earlier)', async () => {
    const r = await sendActivation(apiOf(() => Promise.reject(failure(409, 'already')), async () => [device('success')]), { device_id: 7, code: 'x' }, 'k')
    expect(r.already).toBe('already')
  })

  it('a 409 on a device still pending is refused for good, with the server’s words', async () => {
    const e = await sendActivation(apiOf(() => Promise.reject(failure(409, 'used')), async () => [device('pending')]), { device_id: 7, code: 'x' }, 'k').catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ActivateRefused)
    expect((e as Error).message).toBe('used')
    expect(isRetryable(e)).toBe(false)
  })

  it('a 409 whose device cannot be read stays retryable; 400 ends the item, 429 is retried', async () => {
    const e = await sendActivation(apiOf(() => Promise.reject(failure(409)), () => Promise.reject(failure(0))), { device_id: 7, code: 'x' }, 'k').catch((x: unknown) => x)
    expect(isRetryable(e)).toBe(true)
    for (const [status, retry] of [[400, false], [404, false], [429, true]] as const) {
      const err = await sendActivation(apiOf(() => Promise.reject(failure(status)), async () => []), { device_id: 7, code: 'x' }, 'k').catch((x: unknown) => x)
      expect(isRetryable(err), String(status)).toBe(retry)
    }
  })
})

describe('queued activations on the cards', () => {
  it('keeps the newest per device and reads as queued, failed, or the server’s status', () => {
    const q = queuedActivations([
      { id: 1, action: ACTIVATE_ACTION, payload: { device_id: 7, code: 'a' }, state: 'failed', error: 'wrong' },
      { id: 2, action: ACTIVATE_ACTION, payload: { device_id: 7, code: 'b' }, state: 'pending' },
      { id: 3, action: 'other', payload: { device_id: 8 }, state: 'pending' },
      { id: 4, action: ACTIVATE_ACTION, payload: null, state: 'pending' },
    ])
    expect([...q.entries()]).toEqual([[7, { outboxId: 2, state: 'pending', error: undefined }]])
    expect(badgeOf(device('pending'), q.get(7))).toBe('queued')
    expect(badgeOf(device('pending'), { outboxId: 1, state: 'failed' })).toBe('failed')
    expect(badgeOf(device('success'), q.get(7))).toBe('success')
    expect(badgeOf(device('failed'), undefined)).toBe('failed')
    expect(badgeOf(device('pending'), undefined)).toBe('pending')
  })
})
