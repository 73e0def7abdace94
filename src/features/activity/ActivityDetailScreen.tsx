import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { ApiFailure } from '../../api/client.ts'
import { lang, useT } from '../../i18n/index.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { SummaryRow } from '../wallet/parts.tsx'
import { activityQueries } from './queries.ts'
import { PrizeList, StatusBadge, WindowCountdown, when } from './parts.tsx'
import { idParam } from './view.ts'
import './activity.css'

/** /activity/detail/{id}: cover, status and countdown, window, measure, prizes, the rules text, and the leaderboard link. */
export default function ActivityDetailScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  const id = idParam(params.id)
  const q = useQuery(activityQueries.detail(id, lang.value))
  const a = q.data
  const notFound = id === 0 || (q.isError && q.error instanceof ApiFailure && (q.error.status === 404 || q.error.status === 400))
  return (
    <main className="page activity-detail">
      <TopBar title={a?.title ?? t('activity.detailTitle')} back />
      {notFound ? (
        <Empty text={t('activity.errors.notFound')} />
      ) : q.isPending ? (
        <Pending query={q} lines={8} />
      ) : !a ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <img className="activity-cover" src={a.cover} alt="" width={750} height={300} />
          <section className="card stack">
            <div>
              <StatusBadge status={a.status} />
              <strong className="activity-title" data-testid="activity-title">
                {a.title}
              </strong>
            </div>
            <WindowCountdown a={a} skewMs={a.server_time - q.dataUpdatedAt} />
            <SummaryRow label={t('activity.starts')}>{when(a.starts_at)}</SummaryRow>
            <SummaryRow label={t('activity.ends')}>{when(a.ends_at)}</SummaryRow>
            <SummaryRow label={t('activity.rankedBy')}>
              <span data-testid="activity-measure">{t(`activity.measure.${a.measure}`)}</span>
            </SummaryRow>
            <p className="small muted">{t(`activity.measureHow.${a.measure}`)}</p>
          </section>
          <section className="card stack" aria-label={t('activity.prizes')}>
            <strong>{t('activity.prizes')}</strong>
            <PrizeList prizes={a.prizes} />
            <p className="small muted">{t(a.settled ? 'activity.paidNote' : 'activity.payNote')}</p>
          </section>
          <section className="card">
            <p className="activity-body" data-testid="activity-body">
              {a.body}
            </p>
          </section>
          {a.status === 'upcoming' ? (
            <p className="small muted">{t('activity.rankOpensAtStart')}</p>
          ) : (
            <Link href={`/activity/rank/${a.id}`} className="btn primary block" data-testid="activity-rank-link">
              {t('activity.viewRank')}
            </Link>
          )}
        </>
      )}
    </main>
  )
}
