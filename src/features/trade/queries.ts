import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import type { Deal, Depth, MarketInfo, MarketStatus, Order, PublicTrade, Ticker } from '../../../contract/trade.ts'
import { get } from '../../api/client.ts'
import type { OrderTab } from './status.ts'
import { ORDER_TABS } from './status.ts'

/** SPEC §9: lists page by 10. */
export const PAGE_SIZE = PAGE_SIZE_DEFAULT

/** How long data counts as fresh, named once per kind of data. */
export const STALE = { market: 10 * 60_000, live: 5_000, records: 30_000 } as const

/** Market data is pulled this often while the socket cannot push it. */
export const LIVE_FALLBACK_POLL_MS = 5_000

/** Levels per side asked of GET trade/depth. */
export const DEPTH_SIZE = 20

const nextPage = <T>(last: PagedList<T>, pages: PagedList<T>[]) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined)

// Two key roots on purpose: 'trade' holds the user's orders and deals and the market's rules (worth
// keeping offline); 'tradeLive' holds what the socket keeps current (ticker, book, tape), which would
// only be stale the moment it is restored.
export const tradeQueries = {
  /** The rules an order must meet; they change with a deployment, not during a session. */
  market: () =>
    queryOptions({
      queryKey: ['trade', 'market'],
      queryFn: ({ signal }) => get<MarketInfo>('trade/market', {}, signal),
      staleTime: STALE.market,
    }),
  /** Live or halted; the socket's status:<instId> pushes keep it current (live.ts). */
  status: (instId: string) =>
    queryOptions({
      queryKey: ['tradeLive', 'status', instId],
      queryFn: ({ signal }) => get<MarketStatus>('trade/status', { inst_id: instId }, signal),
      staleTime: STALE.live,
    }),
  ticker: (instId: string) =>
    queryOptions({
      queryKey: ['tradeLive', 'ticker', instId],
      queryFn: ({ signal }) => get<Ticker>('trade/ticker', { inst_id: instId }, signal),
      staleTime: STALE.live,
    }),
  /** The book before the socket's first snapshot, and instead of it while the socket is down. */
  depth: (instId: string) =>
    queryOptions({
      queryKey: ['tradeLive', 'depth', instId],
      queryFn: ({ signal }) => get<Depth>('trade/depth', { inst_id: instId, size: DEPTH_SIZE }, signal),
      staleTime: STALE.live,
    }),
  /** The tape, newest first; socket pushes are merged into it (live.ts). */
  recentTrades: (instId: string) =>
    queryOptions({
      queryKey: ['tradeLive', 'trades', instId],
      queryFn: async ({ signal }) => (await get<{ list: PublicTrade[] }>('trade/recentTrades', { inst_id: instId }, signal)).list,
      staleTime: STALE.live,
    }),
  /** The user's orders: current (pending, partially filled) or history (filled, cancelled), newest first. */
  orders: (tab: OrderTab) =>
    infiniteQueryOptions({
      queryKey: ['trade', 'orders', tab],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<Order>>('trade/orderList', { state: ORDER_TABS[tab], page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: nextPage,
      staleTime: STALE.records,
    }),
  /** The user's fills, newest first (/trade/close). */
  deals: () =>
    infiniteQueryOptions({
      queryKey: ['trade', 'deals'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<Deal>>('trade/dealList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: nextPage,
      staleTime: STALE.records,
    }),
}

/** Keys a change of the user's orders touches: both order lists and the deals. */
export const ORDER_KEYS = [['trade', 'orders'], ['trade', 'deals']] as const
