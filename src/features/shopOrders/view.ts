// What the order screens show, worked out from the wire data and the outbox. Pure.
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import type { Fulfilment, ShopOrder } from '../../../contract/preOrder.ts'
import { RECEIPT_ACTION, type ReceiptPayload } from './receipt.ts'

/** The two shops whose products ship, so whose orders are listed and received. */
export type OrderArea = 'machine' | 'gold'

/** The badge colour of a fulfilment status (src/ui/styles.css .badge.*). */
export function statusTone(status: Fulfilment | null): 'gold' | 'teal' | 'muted-badge' {
  if (status === 'pending_shipment') return 'gold'
  if (status === 'pending_receipt') return 'teal'
  return 'muted-badge'
}

export type TimeKey = 'create' | 'pay' | 'ship' | 'confirm'

/** The moments an order has gone through, in order, each under the locale key `shopOrders.time.<key>`. */
export function orderTimes(o: Pick<ShopOrder, 'create_time' | 'pay_time' | 'ship_time' | 'confirm_time'>): { key: TimeKey; at: number }[] {
  const all: [TimeKey, number | null][] = [
    ['create', o.create_time],
    ['pay', o.pay_time],
    ['ship', o.ship_time],
    ['confirm', o.confirm_time],
  ]
  return all.filter((e): e is [TimeKey, number] => e[1] !== null).map(([key, at]) => ({ key, at }))
}

/** Units in all the lines of an order. */
export const unitCount = (o: Pick<ShopOrder, 'lines'>): number => o.lines.reduce((n, l) => n + l.quantity, 0)

/** The part of an outbox item this screen reads (src/data/types.ts OutboxItem). */
export interface QueuedItem {
  id: number
  action: string
  payload: unknown
  state: 'pending' | 'sending' | 'failed'
  error?: string | undefined
}

export interface QueuedReceipt {
  outboxId: number
  state: QueuedItem['state']
  error?: string | undefined
}

/** The confirmations of receipt still in the outbox for one shop, by order id (the newest wins). */
export function queuedReceipts(queue: readonly QueuedItem[], area: OrderArea): Map<number, QueuedReceipt> {
  const out = new Map<number, QueuedReceipt>()
  for (const item of queue) {
    if (item.action !== RECEIPT_ACTION) continue
    const p = item.payload as Partial<ReceiptPayload> | null
    if (!p || p.area !== area || typeof p.id !== 'number') continue
    out.set(p.id, { outboxId: item.id, state: item.state, error: item.error })
  }
  return out
}

/** Whether the card offers "Confirm receipt": pending receipt, and no confirmation already waiting. */
export const canConfirm = (o: Pick<ShopOrder, 'status'>, queued: QueuedReceipt | undefined): boolean => o.status === 'pending_receipt' && queued === undefined

/** The id in a `?id=` query, or null when it is missing or not an id (SPEC §8 "order id missing"). */
export function orderIdOf(search: string): number | null {
  const raw = new URLSearchParams(search).get('id')
  if (raw === null || !/^[1-9]\d{0,15}$/.test(raw)) return null
  const id = Number(raw)
  return Number.isSafeInteger(id) ? id : null
}

/**
 * Whether the detail answer for order `id` carries the order (SPEC §8 "order data missing" otherwise): a
 * success with no order, another order, or one without lines has nothing the screen could show.
 */
export function hasOrderData(answer: ShopOrder | null | undefined, id: number): answer is ShopOrder {
  return typeof answer === 'object' && answer !== null && answer.id === id && Array.isArray(answer.lines) && answer.lines.length > 0
}

/** The next page of a `{list, total}` list to ask for, or undefined once every row is loaded. */
export function nextPage(last: { total: number }, loadedPages: number, pageSize = PAGE_SIZE_DEFAULT): number | undefined {
  return loadedPages * pageSize < last.total ? loadedPages + 1 : undefined
}
