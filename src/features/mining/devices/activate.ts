// Sending an activation, as the outbox replays it (DESIGN §6 lists the activation code submit as a
// harmless write). Pure apart from the two calls it is given, so unit tests drive it with fakes.
import type { Device } from '../../../../contract/device.ts'
import { normalizeCode } from '../../../../contract/deviceRules.ts'

/** The outbox action name of a device activation. */
export const ACTIVATE_ACTION = 'device.activate'

export interface ActivatePayload {
  device_id: number
  code: string
}

export interface ActivateOutcome {
  device: Device
  /** The server's words when the device was already active (activated from another phone, or by this same queued item): null when this call did it. */
  already: string | null
}

export interface ActivateApi {
  post(path: string, body: unknown, idempotencyKey: string): Promise<Device>
  list(): Promise<Device[]>
}

/**
 * A refusal that waiting will not change (a used code, not shipped yet): carried with a status the
 * outbox does not retry (src/data/outbox.ts isRetryable retries 409), so the queued item ends as
 * failed with the server's words instead of blocking the queue.
 */
export class ActivateRefused extends Error {
  override name = 'ActivateRefused'
  readonly status = 422
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

const statusOf = (e: unknown) => (e as { status?: unknown } | null)?.status

/**
 * POST machine/activate under the item's idempotency key. 400 (wrong or malformed code) and 404 end
 * the item as failed by themselves; 429 and network errors are retried by the outbox. A 409 is
 * "already active", "code used", "not shipped" or "the same key in flight": the device says which —
 * active means the user's wish holds (done); otherwise it is refused for good.
 */
export async function sendActivation(api: ActivateApi, p: ActivatePayload, idempotencyKey: string): Promise<ActivateOutcome> {
  try {
    return { device: await api.post('machine/activate', { device_id: p.device_id, code: p.code }, idempotencyKey), already: null }
  } catch (e) {
    if (statusOf(e) !== 409) throw e
    let devices: Device[]
    try {
      devices = await api.list()
    } catch {
      throw e // cannot tell: the 409 stands, and is retried
    }
    const d = devices.find((x) => x.id === p.device_id)
    if (d?.status === 'success') return { device: d, already: (e as Error).message }
    const code = (e as { code?: unknown }).code
    throw new ActivateRefused((e as Error).message, typeof code === 'number' ? code : 409)
  }
}

/** What the code field accepts: the server's own rule (16 symbols, spaces and dashes ignored). */
export const codeLooksRight = (raw: string): boolean => normalizeCode(raw) !== null

export interface QueuedActivation {
  outboxId: number
  state: 'pending' | 'sending' | 'failed'
  error?: string | undefined
}

/** An outbox item as the screen reads it (src/data/useOutbox.ts). */
export interface QueuedItem {
  id: number
  action: string
  payload: unknown
  state: QueuedActivation['state']
  error?: string | undefined
}

/** Activations still in the outbox, by device id (the newest wins). */
export function queuedActivations(queue: readonly QueuedItem[]): Map<number, QueuedActivation> {
  const out = new Map<number, QueuedActivation>()
  for (const item of queue) {
    if (item.action !== ACTIVATE_ACTION) continue
    const p = item.payload as Partial<ActivatePayload> | null
    if (!p || typeof p.device_id !== 'number') continue
    out.set(p.device_id, { outboxId: item.id, state: item.state, error: item.error })
  }
  return out
}

/** The badge a device shows: a queued activation reads as pending (sending) until the server answers. */
export type DeviceBadge = 'pending' | 'success' | 'failed' | 'queued'
export function badgeOf(d: Pick<Device, 'status'>, queued: QueuedActivation | undefined): DeviceBadge {
  if (d.status === 'success') return 'success'
  if (queued?.state === 'failed') return 'failed'
  if (queued) return 'queued'
  return d.status
}
