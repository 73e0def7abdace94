import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { OrderIdBody, PayOrder } from '../../../contract/orders.ts'
import { useMoneyPost } from '../wallet/mutations.ts'
import { ORDERS_ROOT } from './queries.ts'

// Cancelling is a money action too: never queued (DESIGN §6), one Idempotency-Key per intent
// (useMoneyPost); it reports through the usual toast. Paying is src/features/payment.

export function refreshOrders(qc: QueryClient) {
  return qc.invalidateQueries({ queryKey: ORDERS_ROOT })
}

/** Cancels an unpaid order (irreversible: the screen asks first). */
export function useCancelPayOrder() {
  const qc = useQueryClient()
  const send = useMoneyPost<OrderIdBody, PayOrder>('orders/cancel')
  return useMutation({
    meta: { failure: 'cancelOrder' },
    mutationFn: (id: number) => send({ id }),
    onSettled: () => refreshOrders(qc),
  })
}
