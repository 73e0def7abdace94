import { useInfiniteQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDate } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Skeleton } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { noticeQueries } from './queries.ts'

export default function NoticeListScreen() {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(noticeQueries.list(lang.value))
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  return (
    <main className="page with-tabbar">
      <TopBar title={t('notice.title')} />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <section className="list">
        {q.isPending ? (
          <Skeleton lines={6} />
        ) : q.isError && items.length === 0 ? (
          <LoadFailed onRetry={() => q.refetch()} />
        ) : items.length === 0 ? (
          <Empty text={t('notice.empty')} />
        ) : (
          items.map((n) => (
            <Link key={n.id} href={`/notice/detail/${n.id}`} className="card notice-item">
              <div className="row between">
                <h3>
                  {n.pinned && <span className="badge gold">{t('notice.pinned')}</span>}
                  {n.title}
                </h3>
              </div>
              <p className="muted clamp-2">{n.summary}</p>
              <time className="muted small">{formatDate(n.published_at, LANG_TAG[lang.value])}</time>
            </Link>
          ))
        )}
        {q.hasNextPage && (
          <button className="btn ghost block" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
            {q.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
          </button>
        )}
      </section>
    </main>
  )
}
