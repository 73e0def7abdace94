import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDate } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { noticeQueries } from './queries.ts'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { NOTICE_READ_ACTION, queuedReads, readState } from './read.ts'

export default function NoticeListScreen() {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(noticeQueries.list(lang.value))
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  // Which notices the caller has not read, and which reads wait in the outbox (issue 12 part 5).
  const unread = useQuery({ ...noticeQueries.unread(), enabled: account.value !== 'anon' })
  const queued = queuedReads(useOutbox(account.value === 'anon' ? null : account.value, NOTICE_READ_ACTION))
  return (
    <main className="page with-tabbar">
      <TopBar title={t('notice.title')} />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      {unread.data && unread.data.count > 0 && (
        <p className="muted small" data-testid="notice-unread-count">
          {t('notice.unreadCount', { count: unread.data.count })}
        </p>
      )}
      <section className="list">
        {q.isPending ? (
          <Pending query={q} lines={6} />
        ) : q.isError && items.length === 0 ? (
          <LoadFailed onRetry={() => q.refetch()} />
        ) : items.length === 0 ? (
          <Empty text={t('notice.empty')} />
        ) : (
          items.map((n) => {
            const state = readState(n.id, unread.data, queued)
            return (
              <Link key={n.id} href={`/notice/detail/${n.id}`} className={`card notice-item${state === 'unread' ? ' unread' : ''}`} data-testid="notice-item" data-read={state}>
                <div className="row between">
                  <h3>
                    {state === 'unread' && (
                      <span className="badge red" data-testid="notice-unread">
                        {t('notice.unread')}
                      </span>
                    )}
                    {n.pinned && <span className="badge gold">{t('notice.pinned')}</span>}
                    {n.title}
                  </h3>
                </div>
                {state === 'pending' && (
                  <small className="muted" data-testid="notice-read-pending">
                    {t('notice.readPending')}
                  </small>
                )}
                <p className="muted clamp-2">{n.summary}</p>
                <time className="muted small">{formatDate(n.published_at, LANG_TAG[lang.value])}</time>
              </Link>
              )
          })
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
