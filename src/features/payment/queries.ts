import { queryOptions } from '@tanstack/react-query'
import type { PayTargets } from '../../../contract/orders.ts'
import { get } from '../../api/client.ts'
import { ORDERS_ROOT } from '../orders/queries.ts'

export const paymentQueries = {
  /**
   * Where the order can be paid on chain; fixed for an order, so read once per dialog. Its key is
   * under the orders root, so refreshing the orders refreshes it too.
   */
  payTargets: (id: number) =>
    queryOptions({
      queryKey: [...ORDERS_ROOT, 'payTargets', id],
      queryFn: ({ signal }) => get<PayTargets>('orders/payTargets', { id }, signal),
      staleTime: 5 * 60_000,
    }),
}
