import { queryOptions } from '@tanstack/react-query'
import type { PreOrderTips } from '../../../contract/preOrder.ts'
import { get } from '../../api/client.ts'
import { ORDERS_ROOT } from '../orders/queries.ts'
import { tipsRefetchMs } from './tips.ts'
import { serverNow } from '../../api/serverClock.ts'

export const preOrderQueries = {
  /**
   * GET preOrder/tips, the unpaid-order reminder on home. Under the orders root: paying or cancelling an
   * order anywhere (the payment dialog, /orders) refreshes it with the order lists.
   */
  tips: () =>
    queryOptions({
      queryKey: [...ORDERS_ROOT, 'tips'],
      queryFn: ({ signal }) => get<PreOrderTips>('preOrder/tips', {}, signal),
      staleTime: 15_000,
      refetchInterval: (q) => tipsRefetchMs(q.state.data, serverNow()),
    }),
}
