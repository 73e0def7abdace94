import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { DestroyRecord, MiningInfo, PowerLogItem } from '../../../contract/mining.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE } from '../shopOrders/queries.ts'
import { nextPage } from '../shopOrders/view.ts'

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
