import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { PayOrder, PayOrderStatus } from '../../../contract/orders.ts'
import { get } from '../../api/client.ts'
import { IDLE_POLL_MS, pollWhile } from '../wallet/poll.ts'

/** SPEC §9: order lists page by 10. */
export const PAGE_SIZE = PAGE_SIZE_DEFAULT

/** While the payment dialog waits for confirmations, the order is read this often. */
export const DETAIL_POLL_MS = 2_000

/** The two kinds of unpaid order the /orders screen lists (SPEC §2 "unpaid orders", §4). */
export const UNPAID = ['pending_payment', 'processing'] as const satisfies readonly PayOrderStatus[]
export type UnpaidStatus = (typeof UNPAID)[number]
/** The /orders tabs: the unpaid ones, then the cancelled, so an order cancelled for want of payment leaves a trace. */
export const ORDER_TABS = [...UNPAID, 'cancelled'] as const satisfies readonly PayOrderStatus[]
export type OrdersTab = (typeof ORDER_TABS)[number]

/** Every order query starts with this, so one invalidation refreshes lists and details alike. */
export const ORDERS_ROOT = ['orders'] as const

export const ordersQueries = {
  /**
   * One status, newest first, 10 at a time. A list with a payment confirming refreshes every few
   * seconds; one waiting for payment now and then, since orders expire and are cancelled server-side.
   */
  list: (status: OrdersTab) =>
    infiniteQueryOptions({
      queryKey: [...ORDERS_ROOT, 'list', status],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<PayOrder>>('orders/list', { status, page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: 10_000,
      // Orders are created by the shops, elsewhere: a list restored from the saved cache is shown at
      // once but always checked when the screen opens.
      refetchOnMount: 'always',
      refetchInterval: (q) => pollWhile(q.state.data?.pages, (o) => o.status === 'processing', IDLE_POLL_MS),
    }),
  /** One order; `poll` while its chain payment is being confirmed. */
  detail: (id: number, poll: boolean) =>
    queryOptions({
      queryKey: [...ORDERS_ROOT, 'detail', id],
      queryFn: ({ signal }) => get<PayOrder>('orders/detail', { id }, signal),
      staleTime: 0,
      refetchInterval: poll ? DETAIL_POLL_MS : false,
    }),
}
