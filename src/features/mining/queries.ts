import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { DestroyRecord, MiningInfo, MiningJointQuote, PowerLogItem } from '../../../contract/mining.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE } from '../shopOrders/queries.ts'
import { nextPage } from '../shopOrders/view.ts'
import { QUOTE_MIN_REFRESH_MS } from '../wallet/queries.ts'

// Mining (SPEC §2 /ming, /destoryList, /mingLog; issue 11 parts 3 and 7). Power is paid once a day by
// the settlement: what is saved shows at once (offline too) and is checked when a screen opens.

/** Every mining query starts with this root (persisted, see src/data/persister.ts): /ming opens offline. */
export const MINING_ROOT = ['mining'] as const

export const miningQueries = {
  /** Power, today's estimate, yesterday's earnings and the destroy/joint terms. */
  info: () =>
    queryOptions({
      queryKey: [...MINING_ROOT, 'info'],
      queryFn: ({ signal }) => get<MiningInfo>('mining/info', undefined, signal),
      staleTime: 15_000,
      refetchOnMount: 'always',
    }),
  /**
   * The NADI price joint mining is confirmed at, locked until it expires and asked for again when it
   * does. Not under MINING_ROOT: a quote is never persisted, and a mining refresh does not re-quote.
   */
  jointQuote: () =>
    queryOptions({
      queryKey: ['miningJointQuote'],
      queryFn: ({ signal }) => get<MiningJointQuote>('mining/jointQuote', undefined, signal),
      staleTime: 0,
      gcTime: 0,
      retry: false,
      refetchOnWindowFocus: false,
      refetchInterval: (q) => (q.state.data ? Math.max(QUOTE_MIN_REFRESH_MS, q.state.data.expires_at - Date.now()) : false),
    }),
  destroyList: () =>
    infiniteQueryOptions({
      queryKey: [...MINING_ROOT, 'destroyList'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<DestroyRecord>>('mining/destroyList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
  /** The power log: /mingLog and the power tab of /ming share it. */
  powerLog: () =>
    infiniteQueryOptions({
      queryKey: [...MINING_ROOT, 'powerLog'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<PowerLogItem>>('mining/powerLog', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
}
