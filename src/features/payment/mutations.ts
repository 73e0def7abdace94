import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { OrderIdBody, PayOnChainBody, PayOrder } from '../../../contract/orders.ts'
import { ApiFailure } from '../../api/client.ts'
import { refreshOrders } from '../orders/mutations.ts'
import { refreshBalances, useMoneyPost } from '../wallet/mutations.ts'

// Payments are money movements: never queued (DESIGN §6), one Idempotency-Key per intent
// (useMoneyPost), and the buttons are disabled offline. The dialog shows failures in its step list,
// so its calls are silent.

/** No answer came back (or a 5xx the server does not keep): the call may or may not have been applied. */
export const outcomeUnknown = (e: unknown) => e instanceof ApiFailure && (e.status === 0 || e.status >= 500)

/** Pays the whole order from the fund balance of its asset. */
export function usePayByBalance() {
  const qc = useQueryClient()
  const send = useMoneyPost<OrderIdBody, PayOrder>('orders/payByBalance')
  return useMutation({
    mutationFn: (id: number) => send({ id }),
    meta: { silent: true },
    onSettled: () => {
      void refreshOrders(qc)
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}

/** Hands the server the hash of the transfer the wallet sent; the same hash again is the same intent. */
export function usePayOnChain() {
  const qc = useQueryClient()
  const send = useMoneyPost<PayOnChainBody, PayOrder>('orders/payOnChain')
  return useMutation({
    mutationFn: send,
    meta: { silent: true },
    onSettled: () => refreshOrders(qc),
  })
}
