import { useState } from 'react'
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { CancelOrderBody, Order } from '../../../contract/trade.ts'
import { ApiFailure, newIdempotencyKey, post } from '../../api/client.ts'
import { intentKeys } from '../wallet/intent.ts'
import { refreshBalances } from '../wallet/mutations.ts'
import type { OrderRequest } from './form.ts'
import { ORDER_KEYS } from './queries.ts'

// Orders are never queued (DESIGN §6): the form disables itself offline. Each answer refreshes the
// order lists and the balances an order freezes or frees.

/** No answer came back (or a 5xx the server does not keep): the order may or may not be on the book. */
const outcomeUnknown = (e: unknown) => e instanceof ApiFailure && (e.status === 0 || e.status >= 500)

export function refreshOrders(qc: QueryClient) {
  return Promise.all(ORDER_KEYS.map((queryKey) => qc.invalidateQueries({ queryKey })))
}

/**
 * Places an order. One key per attempt serves as both client_order_id and Idempotency-Key: pressing
 * again after an unknown outcome with the same order sends the same id, so the server places it once.
 */
export function usePlaceOrder() {
  const qc = useQueryClient()
  const [keys] = useState(() => intentKeys(newIdempotencyKey))
  return useMutation({
    mutationFn: async (req: OrderRequest): Promise<Order> => {
      const id = keys.keyFor(req)
      try {
        const order = await post<Order>('trade/placeOrder', { ...req, client_order_id: id }, id)
        keys.settle(false)
        return order
      } catch (e) {
        keys.settle(outcomeUnknown(e))
        throw e
      }
    },
    onSettled: () => {
      // An unknown outcome may still have placed the order: the lists say which.
      void refreshOrders(qc)
      return refreshBalances(qc)
    },
  })
}

/** Cancels one of the user's open orders. */
export function useCancelOrder() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (orderId: number) => post<Order>('trade/cancelOrder', { order_id: orderId } satisfies CancelOrderBody),
    onSettled: () => {
      void refreshBalances(qc)
      return refreshOrders(qc)
    },
  })
}
