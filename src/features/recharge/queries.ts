import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { ChainKey, Deposit, RechargeAddress } from '../../../contract/recharge.ts'
import type { Asset } from '../../../contract/wallet.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE, STALE } from '../wallet/queries.ts'
import { IDLE_POLL_MS, pollWhile } from '../wallet/poll.ts'

export const rechargeQueries = {
  /** The user's own deposit address for a coin on a chain: it does not change, so it is kept long. */
  address: (coin: Asset, chain: ChainKey) =>
    queryOptions({
      queryKey: ['recharge', 'address', coin, chain],
      queryFn: ({ signal }) => get<RechargeAddress>('recharge/address', { coin, chain }, signal),
      staleTime: 60 * 60_000,
    }),
  /** Deposits: refreshed every few seconds while one is confirming, and now and then for new ones sent from outside. */
  list: () =>
    infiniteQueryOptions({
      queryKey: ['recharge', 'list'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<Deposit>>('recharge/list', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: STALE.records,
      refetchInterval: (q) => pollWhile(q.state.data?.pages, (d) => d.status === 'confirming', IDLE_POLL_MS),
    }),
}
