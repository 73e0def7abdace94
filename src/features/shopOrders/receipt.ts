// Sending a confirmation of receipt, as the outbox replays it (DESIGN §6). Pure apart from the two
// calls it is given, so the unit tests drive it with fakes.
import type { ShopOrder } from '../../../contract/preOrder.ts'
import type { OrderArea } from './view.ts'

/** The outbox action name of a confirmation of receipt. */
export const RECEIPT_ACTION = 'shopOrders.receipt'

/** What is queued: which shop's order. */
export interface ReceiptPayload {
  area: OrderArea
  id: number
}

export interface ReceiptOutcome {
  order: ShopOrder
  /** The server's words when receipt had already been confirmed (by the clock, or from another phone); null when this call did it. */
  already: string | null
}

/** The two calls a send needs (src/api/client.ts post and get). */
export interface ReceiptApi {
  post(path: string, body: unknown, idempotencyKey: string): Promise<ShopOrder>
  get(path: string, query: Record<string, number>): Promise<ShopOrder>
}

/**
 * The order can no longer be received (it is not pending receipt and not completed). Waiting will not
 * change that, so it carries a status the outbox does not retry (src/data/outbox.ts isRetryable: a
 * 409 is retried) and the queued confirmation ends as failed, with the server's words.
 */
export class ReceiptRefused extends Error {
  override name = 'ReceiptRefused'
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
 * POST `<area>/receipt` under the item's idempotency key. The server answers 409 both for "already
 * confirmed" and for "the same key still in flight" (and for "not shipped"), with the same code: the
 * order itself says which. Completed → the user's wish holds, the send is done (so a queued receipt
 * the clock confirmed meanwhile never blocks the queue). Still pending receipt → the conflict is
 * passing, the error is rethrown and retried. Anything else → refused for good.
 */
export async function sendReceipt(api: ReceiptApi, p: ReceiptPayload, idempotencyKey: string): Promise<ReceiptOutcome> {
  try {
    return { order: await api.post(`${p.area}/receipt`, { id: p.id }, idempotencyKey), already: null }
  } catch (e) {
    if (statusOf(e) !== 409) throw e
    let now: ShopOrder
    try {
      now = await api.get(`${p.area}/orderDetail`, { id: p.id })
    } catch {
      throw e // cannot tell: the 409 stands, and is retried
    }
    if (now.status === 'completed') return { order: now, already: (e as Error).message }
    if (now.status === 'pending_receipt') throw e
    const code = (e as { code?: unknown }).code
    throw new ReceiptRefused((e as Error).message, typeof code === 'number' ? code : 409)
  }
}
