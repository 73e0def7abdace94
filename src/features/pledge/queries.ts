import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { MyPledge, PledgeIncome, PledgeProduct, PledgeReleaseLog } from '../../../contract/pledge.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE } from '../shopOrders/queries.ts'
import { nextPage } from '../shopOrders/view.ts'

// Savings (SPEC §2 /pledge, /pledge/detail/{id}, /pledge/releaseLog/{id}; issue 11 part 5). Interest
// arrives once a day from the settlement: what is saved shows at once (offline too) and is checked
// when a screen opens.

/** Every pledge query starts with this root (persisted, see src/data/persister.ts). */
export const PLEDGE_ROOT = ['pledge'] as const

export const pledgeQueries = {
  products: () =>
    queryOptions({
      queryKey: [...PLEDGE_ROOT, 'products'],
      queryFn: ({ signal }) => get<PledgeProduct[]>('pledge/list', undefined, signal),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
  product: (id: number) =>
    queryOptions({
      queryKey: [...PLEDGE_ROOT, 'product', id],
      queryFn: ({ signal }) => get<PledgeProduct>('pledge/detail', { id }, signal),
      staleTime: 10_000,
      refetchOnMount: 'always',
      enabled: id > 0,
    }),
  mine: () =>
    infiniteQueryOptions({
      queryKey: [...PLEDGE_ROOT, 'mine'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<MyPledge>>('pledge/myList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
  income: () =>
    infiniteQueryOptions({
      queryKey: [...PLEDGE_ROOT, 'income'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<PledgeIncome>>('pledge/incomeLog', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
  releaseLog: (id: number) =>
    queryOptions({
      queryKey: [...PLEDGE_ROOT, 'releaseLog', id],
      queryFn: ({ signal }) => get<PledgeReleaseLog>('pledge/releaseLog', { id }, signal),
      staleTime: 30_000,
      refetchOnMount: 'always',
      enabled: id > 0,
    }),
}
