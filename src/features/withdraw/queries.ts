import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { WithdrawConfig, Withdrawal } from '../../../contract/withdraw.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE, STALE } from '../wallet/queries.ts'
import { pollWhile } from '../wallet/poll.ts'
import { isFinal } from './status.ts'

export const withdrawQueries = {
  /** Coin, minimum, fee, confirmations and chains (SPEC §5, §9). */
  config: () => queryOptions({ queryKey: ['withdraw', 'config'], queryFn: ({ signal }) => get<WithdrawConfig>('withdraw/config', {}, signal), staleTime: 5 * 60_000 }),
  /** Withdrawals, refreshed every few seconds while one is still under way. */
  list: () =>
    infiniteQueryOptions({
      queryKey: ['withdraw', 'list'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<Withdrawal>>('withdraw/list', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: STALE.records,
      refetchInterval: (q) => pollWhile(q.state.data?.pages, (w) => !isFinal(w.status)),
    }),
}
