import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { ApiFailure } from '../../api/client.ts'
import { lang, useT } from '../../i18n/index.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { activityQueries } from './queries.ts'
import { RankRow, StatusBadge, WindowCountdown } from './parts.tsx'
import { idParam } from './view.ts'
import './activity.css'

/**
 * /activity/rank/{id}: the live leaderboard with the user's own place pinned above it, even when it is
 * outside the top shown; refreshed while the activity runs, final once it has ended.
 */
export default function ActivityRankScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  const id = idParam(params.id)
  const detail = useQuery(activityQueries.detail(id, lang.value))
  const q = useQuery(activityQueries.rank(id, lang.value, detail.data?.status !== 'ended'))
  const r = q.data
  const refused = q.isError && q.error instanceof ApiFailure && q.error.status >= 400 && q.error.status < 500 ? q.error.message : null
  return (
    <main className="page">
      <TopBar title={t('activity.rankTitle')} back />
      {id === 0 ? (
        <Empty text={t('activity.errors.notFound')} />
      ) : refused && !r ? (
        <Empty text={refused} />
      ) : q.isPending ? (
        <Pending query={q} lines={10} />
      ) : !r ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <section className="card stack rank-head">
            <div>
              <StatusBadge status={r.status} />
              <strong className="activity-title">{r.title}</strong>
            </div>
            <span className="small muted">
              {t(`activity.measure.${r.measure}`)} · {t('activity.participants', { count: r.participants })}
            </span>
            {r.status === 'running' ? <WindowCountdown a={{ starts_at: 0, ends_at: r.ends_at }} skewMs={detail.data ? detail.data.server_time - detail.dataUpdatedAt : 0} /> : <span className="small">{t(r.settled ? 'activity.finalPaid' : 'activity.final')}</span>}
          </section>
          <section className="card rank-me" data-testid="rank-me" aria-label={t('activity.myRank')}>
            {r.me ? (
              <ul className="records">
                <RankRow e={r.me} measure={r.measure} mine />
              </ul>
            ) : (
              <p data-testid="rank-me-none">
                {t('activity.notRanked')} <span className="muted">{t(`activity.joinHint.${r.measure}`)}</span>
              </p>
            )}
          </section>
          <section className="card">
            {r.top.length === 0 ? (
              <Empty text={t('activity.noScores')} />
            ) : (
              <ol className="records" data-testid="rank-top">
                {r.top.map((e) => (
                  <RankRow key={e.rank} e={e} measure={r.measure} mine={e.user_id === r.me?.user_id} />
                ))}
              </ol>
            )}
            {r.participants > r.top.length && <p className="small muted">{t('activity.topOf', { shown: r.top.length, count: r.participants })}</p>}
          </section>
        </>
      )}
    </main>
  )
}
