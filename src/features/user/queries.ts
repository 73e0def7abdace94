import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { PagedList } from '../../../contract/envelope.ts'
import type { UserInfo, ZhiItem } from '../../../contract/user.ts'
import { get } from '../../api/client.ts'

export const PAGE_SIZE = 10

export const userQueries = {
  info: () => queryOptions({ queryKey: ['user', 'info'], queryFn: ({ signal }) => get<UserInfo>('user/info', {}, signal), staleTime: 15_000 }),
  zhiList: () =>
    infiniteQueryOptions({
      queryKey: ['user', 'zhiList'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<ZhiItem>>('user/zhiList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: 30_000,
    }),
}
