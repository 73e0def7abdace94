import type { FetchStatus } from '@tanstack/react-query'
import type { GoodsItem } from '../../../contract/goods.ts'
import { useT } from '../../i18n/index.ts'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { GoodsGrid } from './GoodsCard.tsx'

interface PagedGoods {
  /** 'paused': offline with nothing saved (ui/States Pending). */
  fetchStatus: FetchStatus
  data: { pages: { list: GoodsItem[] }[] } | undefined
  isPending: boolean
  isError: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  refetch: () => unknown
  fetchNextPage: () => unknown
}

/** A paged catalog list in two columns: skeleton, failure with retry, empty text, cards, and "load more". */
export function GoodsList({ q, hrefOf, empty, testId }: { q: PagedGoods; hrefOf: (item: GoodsItem) => string; empty: string; testId: string }) {
  const t = useT()
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  return (
    <section className="list">
      {q.isPending ? (
        <Pending query={q} lines={6} />
      ) : q.isError && items.length === 0 ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : items.length === 0 ? (
        <Empty text={empty} />
      ) : (
        <GoodsGrid items={items} hrefOf={hrefOf} testId={testId} />
      )}
      {q.hasNextPage && (
        <button type="button" className="btn ghost block" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
          {q.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      )}
    </section>
  )
}
