import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import type { LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { NoticeDetail, NoticeItem, NoticeUnread } from '../../../contract/notice.ts'
import { get } from '../../api/client.ts'

export const PAGE_SIZE = 10
/** Per account (the cache is): the caller's unread notices. */
export const UNREAD_KEY = ['notice', 'unread'] as const

export const noticeQueries = {
  list: (lang: LangCode) =>
    infiniteQueryOptions({
      queryKey: ['notice', 'list', lang],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<NoticeItem>>('notice/list', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: 60_000,
    }),
  /** The newest few, for the home screen's ticker. */
  latest: (lang: LangCode) =>
    queryOptions({
      queryKey: ['notice', 'latest', lang],
      queryFn: ({ signal }) => get<PagedList<NoticeItem>>('notice/list', { page: 1, page_size: 5 }, signal),
      staleTime: 60_000,
    }),
  detail: (lang: LangCode, id: number) =>
    queryOptions({ queryKey: ['notice', 'detail', lang, id], queryFn: ({ signal }) => get<NoticeDetail>('notice/detail', { id }, signal), staleTime: 5 * 60_000 }),
  unread: () => queryOptions({ queryKey: UNREAD_KEY, queryFn: ({ signal }) => get<NoticeUnread>('notice/unread', {}, signal), staleTime: 30_000 }),
}
