import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PreOrderBody, PreOrderResult } from '../../../contract/preOrder.ts'
import { refreshOrders } from '../orders/mutations.ts'
import { goodsQueries } from '../goods/queries.ts'
import { useMoneyPost } from '../wallet/mutations.ts'

/**
 * POST preOrder/preOrder: places an order to pay (device, gold or car). An order takes stock and
 * commits the buyer to a price, so it is a money action (DESIGN §6): never queued — 'always' network
 * mode fails at once offline instead of waiting to be sent later, and the screen disables the button
 * and says why — with one Idempotency-Key per intent (useMoneyPost): a press whose answer was lost
 * sends the same key again and cannot order twice. The server's refusal (sold out, no address…) is
 * shown in the user's language by the usual toast.
 */
export function usePlaceOrder() {
  const qc = useQueryClient()
  const send = useMoneyPost<PreOrderBody, PreOrderResult>('preOrder/preOrder')
  return useMutation({
    mutationFn: send,
    networkMode: 'always',
    onSettled: (_r, _e, body) => {
      // Stock moved (or the refusal says it did): the area's lists and details show what is left.
      void qc.invalidateQueries({ queryKey: goodsQueries.area(body.area) })
      return refreshOrders(qc)
    },
  })
}
