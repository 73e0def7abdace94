import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { ShopOrder, ShopOrderTab } from '../../../contract/preOrder.ts'
import { get } from '../../api/client.ts'
import { nextPage, type OrderArea } from './view.ts'

export type { OrderArea } from './view.ts'

// The orders after payment (SPEC §2 /shop/orderList, /mall/orderList, /mall/orderDetail; §4 the shop
// order tabs). Devices are the `machine` API, gold the `gold` API (DESIGN §10).


/** SPEC §9: order lists page by 10. */
export const PAGE_SIZE = PAGE_SIZE_DEFAULT

/** Every product-order query starts with this root (persisted, see src/data/persister.ts). */
export const SHOP_ORDERS_ROOT = ['shopOrders'] as const

/** One area's queries, so a receipt refreshes that shop's lists and details together. */
export const areaKey = (area: OrderArea) => [...SHOP_ORDERS_ROOT, area] as const

export const shopOrderQueries = {
  /**
   * One tab, newest first, 10 at a time. Orders change outside the app (the operator ships, the clock
   * confirms receipt), so a list restored from the saved cache shows at once and is checked on open.
   */
  list: (area: OrderArea, tab: ShopOrderTab) =>
    infiniteQueryOptions({
      queryKey: [...areaKey(area), 'list', tab],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<ShopOrder>>(`${area}/orderList`, { status: tab, page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 15_000,
      refetchOnMount: 'always',
    }),
  /** One order with its lines, address, express, times and release plan. */
  detail: (area: OrderArea, id: number) =>
    queryOptions({
      queryKey: [...areaKey(area), 'detail', id],
      queryFn: ({ signal }) => get<ShopOrder>(`${area}/orderDetail`, { id }, signal),
      staleTime: 15_000,
    }),
}
