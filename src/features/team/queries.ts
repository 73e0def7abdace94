import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { TeamInfo, TeamMember } from '../../../contract/team.ts'
import { TEAM_LIST_SHOWN } from '../../../contract/teamRules.ts'
import { get } from '../../api/client.ts'

export const PAGE_SIZE = 10

export const teamQueries = {
  info: () => queryOptions({ queryKey: ['team', 'info'], queryFn: ({ signal }) => get<TeamInfo>('team/info', {}, signal), staleTime: 15_000 }),
  /** The whole team (search null) or the member with that exact ID. */
  list: (search: number | null) =>
    infiniteQueryOptions({
      queryKey: ['team', 'list', search],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) =>
        get<PagedList<TeamMember>>('team/list', { page: pageParam, page_size: PAGE_SIZE, ...(search === null ? {} : { search: String(search) }) }, signal),
      // Never asks past the last page nor past the first TEAM_LIST_SHOWN members: the server refuses both.
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < Math.min(last.total, TEAM_LIST_SHOWN) ? pages.length + 1 : undefined),
      staleTime: 30_000,
    }),
}
