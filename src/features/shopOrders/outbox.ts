import type { QueryClient } from '@tanstack/react-query'
import type { ShopOrder } from '../../../contract/preOrder.ts'
import { get, post } from '../../api/client.ts'
import { registerOutboxAction } from '../../data/index.ts'
import { areaKey } from './queries.ts'
import { RECEIPT_ACTION, sendReceipt, type ReceiptApi, type ReceiptPayload } from './receipt.ts'

const api: ReceiptApi = {
  post: (path, body, key) => post<ShopOrder>(path, body, key),
  get: (path, query) => get<ShopOrder>(path, query),
}

/**
 * Confirm receipt is harmless (DESIGN §6): made offline it waits in the outbox and is sent with its
 * idempotency key when the network is back. Registered at start, so a queue left by an earlier visit
 * is sent without opening the order screens. Whatever the answer, the shop's lists and details are
 * refreshed from the server.
 */
export function registerShopOrderActions(qc: QueryClient): void {
  registerOutboxAction<ReceiptPayload>(RECEIPT_ACTION, (payload, key) =>
    sendReceipt(api, payload, key).finally(() => void qc.invalidateQueries({ queryKey: areaKey(payload.area) })),
  )
}
