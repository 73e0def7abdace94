import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { PAGE_SIZE_DEFAULT, type LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { RANK_SCREEN_TOP, type ActivityDetail, type ActivityItem, type ActivityRank, type ActivityStatus } from '../../../contract/activity.ts'
import { get } from '../../api/client.ts'
import { nextPage } from '../shopOrders/view.ts'

// Activities (SPEC §2 /activity, /activity/detail/{id}, /activity/rank/{id}; issue 12 part 4). Every
// key starts with ACTIVITY_ROOT, which the saved cache keeps (src/data/persister.ts), so the screens
// open offline with what was last seen; texts come in the request's language, so it is in the key.

export const ACTIVITY_ROOT = 'activity'

export const STALE = {
  list: 60_000,
  detail: 30_000,
  /** The server recomputes a live leaderboard every few seconds; asking more often shows nothing new. */
  rank: 5_000,
} as const

/** While a running activity's leaderboard is open it refreshes this often. */
export const RANK_POLL_MS = 15_000

export const activityQueries = {
  list: (status: ActivityStatus, lang: LangCode) =>
    infiniteQueryOptions({
      queryKey: [ACTIVITY_ROOT, 'list', status, lang],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<ActivityItem>>('activity/list', { status, page: pageParam, page_size: PAGE_SIZE_DEFAULT }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: STALE.list,
    }),
  detail: (id: number, lang: LangCode) =>
    queryOptions({
      queryKey: [ACTIVITY_ROOT, 'detail', id, lang],
      queryFn: ({ signal }) => get<ActivityDetail>('activity/detail', { id }, signal),
      staleTime: STALE.detail,
      refetchOnMount: 'always',
      enabled: id > 0,
    }),
  rank: (id: number, lang: LangCode, live: boolean) =>
    queryOptions({
      queryKey: [ACTIVITY_ROOT, 'rank', id, lang],
      queryFn: ({ signal }) => get<ActivityRank>('activity/rank', { id, limit: RANK_SCREEN_TOP }, signal),
      staleTime: STALE.rank,
      refetchOnMount: 'always',
      refetchInterval: live ? RANK_POLL_MS : false,
      enabled: id > 0,
    }),
}
