import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { MyNode, NodeConfig } from '../../../contract/node.ts'
import { get, post } from '../../api/client.ts'
import { PAGE_SIZE } from '../shopOrders/queries.ts'
import { nextPage } from '../shopOrders/view.ts'

// Super Miner nodes (SPEC §2 /node, /node/detail/{id}; issue 11 part 4). The tiers and the caller's
// nodes are saved per account (root 'node', src/data/persister.ts) and shown offline with their age.

export const NODE_ROOT = ['node'] as const

export const nodeQueries = {
  config: () =>
    queryOptions({
      queryKey: [...NODE_ROOT, 'config'],
      queryFn: ({ signal }) => get<NodeConfig>('node/config', undefined, signal),
      staleTime: 15_000,
      refetchOnMount: 'always',
    }),
  /** The caller's nodes, of one tier when given (node/getOrder is a POST read: no Idempotency-Key). */
  mine: (tierId?: number) =>
    infiniteQueryOptions({
      queryKey: [...NODE_ROOT, 'mine', tierId ?? 0],
      initialPageParam: 1,
      queryFn: ({ pageParam }) => post<PagedList<MyNode>>('node/getOrder', { page: pageParam, page_size: PAGE_SIZE, ...(tierId ? { tier_id: tierId } : {}) }),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
}
