import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { RANKING_SHOWN, type DailyRanking, type MyRanking, type RankingPools, type TotalRanking } from '../../../contract/ranking.ts'
import { get } from '../../api/client.ts'
import { nextPage } from '../shopOrders/view.ts'

// The ranking (issue 12 part 3). Pools and today's ranking move with other people's purchases: the
// socket's `ranking` stream pushes the pools and says when to look again (live.ts); what was last
// seen is kept offline (the 'ranking' root is persisted, src/data/persister.ts).

export const RANKING_ROOT = ['ranking'] as const
export const PAGE_SIZE = 20
/** The server pages only the top RANKING_SHOWN: scrolling stops there instead of asking for a refused page. */
const shown = (last: { total: number }) => ({ total: Math.min(last.total, RANKING_SHOWN) })

export const rankingQueries = {
  pools: () =>
    queryOptions({
      queryKey: [...RANKING_ROOT, 'pools'],
      queryFn: ({ signal }) => get<RankingPools>('ranking/pools', undefined, signal),
      staleTime: 10_000,
      refetchOnMount: 'always',
    }),
  /** day null: today, live. */
  daily: (day: number | null) =>
    infiniteQueryOptions({
      queryKey: [...RANKING_ROOT, 'daily', day ?? 'today'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<DailyRanking>('ranking/daily', { ...(day === null ? {} : { day }), page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(shown(last), pages.length, PAGE_SIZE),
      staleTime: day === null ? 10_000 : 300_000,
      refetchOnMount: day === null ? 'always' : true,
    }),
  total: () =>
    infiniteQueryOptions({
      queryKey: [...RANKING_ROOT, 'total'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<TotalRanking>('ranking/total', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(shown(last), pages.length, PAGE_SIZE),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
  mine: (day: number | null) =>
    queryOptions({
      queryKey: [...RANKING_ROOT, 'mine', day ?? 'today'],
      queryFn: ({ signal }) => get<MyRanking>('ranking/mine', day === null ? {} : { day }, signal),
      staleTime: 10_000,
      refetchOnMount: 'always',
    }),
}
