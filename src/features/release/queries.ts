import { infiniteQueryOptions } from '@tanstack/react-query'
import type { Area } from '../../../contract/goods.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { ReleasePlan } from '../../../contract/release.ts'
import { get } from '../../api/client.ts'
import { PAGE_SIZE } from '../shopOrders/queries.ts'
import { nextPage } from '../shopOrders/view.ts'

// Release records (SPEC §2 /shop/orderRelease, /car/carRelease; §4 gold release states; DESIGN §10):
// `<area>/releaseOrderList`, one list per shop.

/** Every release query starts with this root (persisted, see src/data/persister.ts). */
export const RELEASE_ROOT = ['release'] as const

export const releaseQueries = {
  /**
   * One shop's plans, newest first, 10 at a time. Instalments arrive once a day from the server's job:
   * a list restored from the saved cache shows at once and is checked when the screen opens.
   */
  list: (area: Area) =>
    infiniteQueryOptions({
      queryKey: [...RELEASE_ROOT, area, 'list'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<ReleasePlan>>(`${area}/releaseOrderList`, { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => nextPage(last, pages.length),
      staleTime: 30_000,
      refetchOnMount: 'always',
    }),
}
