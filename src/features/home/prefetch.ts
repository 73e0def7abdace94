import type { QueryClient } from '@tanstack/react-query'
import type { LangCode } from '../../../contract/constants.ts'
import { commonQueries } from '../common/queries.ts'
import { noticeQueries } from '../notice/queries.ts'

/**
 * Starts the home screen's requests while the locale loads and React starts, instead of after the
 * first render, and fetches the first banner image as soon as its address is known: the banner is
 * what a newcomer sees first.
 */
export function prefetchHome(qc: QueryClient, lang: LangCode): void {
  void qc.prefetchQuery(commonQueries.banners(lang)).then(() => {
    const first = qc.getQueryData(commonQueries.banners(lang).queryKey)?.[0]
    if (first) new Image().src = first.image
  })
  void qc.prefetchQuery(commonQueries.mainInfo())
  void qc.prefetchQuery(commonQueries.config())
  void qc.prefetchQuery(noticeQueries.latest(lang))
}
