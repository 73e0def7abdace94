import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { ActivityItem, ActivityPrize, ActivityStatus, Measure, RankEntry } from '../../../contract/activity.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { clock, countdown, phase, rankRange, unitOf } from './view.ts'
import { Amount } from '../../ui/Amount.tsx'

export const when = (ms: number) => formatDateTime(ms, LANG_TAG[lang.value])

export function StatusBadge({ status }: { status: ActivityStatus }) {
  const t = useT()
  const tone = status === 'running' ? 'teal' : status === 'upcoming' ? 'gold' : 'muted-badge'
  return (
    <span className={`badge ${tone}`} data-testid="activity-status" data-status={status}>
      {t(`activity.status.${status}`)}
    </span>
  )
}

/** A score with its unit: an amount of USDT or NADI, or a count of members. */
export function Score({ measure, score }: { measure: Measure; score: string }) {
  const t = useT()
  const unit = unitOf(measure)
  return unit === 'members' ? <>{t('activity.membersCount', { count: score })}</> : <Amount value={score} measure={unit} />
}

export function prizeText(p: Pick<ActivityPrize, 'asset' | 'amount'>) {
  return `${showAmount(units(p.amount), p.asset)} ${p.asset}`
}

/**
 * Counts down to the start or the end on the server's clock: `skewMs` is how far the phone's clock is
 * behind the server's (from the answer's server_time), so a wrong phone clock does not move the end.
 */
export function WindowCountdown({ a, skewMs = 0 }: { a: { starts_at: number; ends_at: number }; skewMs?: number }) {
  const t = useT()
  const [now, setNow] = useState(() => Date.now() + skewMs)
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now() + skewMs), 1000)
    return () => clearInterval(id)
  }, [skewMs])
  const p = phase(a, now)
  if (p.status === 'ended') return <span data-testid="activity-countdown">{t('activity.endedAt', { time: when(a.ends_at) })}</span>
  const c = countdown(p.leftMs)
  return (
    <span data-testid="activity-countdown">
      {t(p.status === 'upcoming' ? 'activity.startsIn' : 'activity.endsIn')}{' '}
      <span className="activity-countdown">{c.days > 0 ? `${t('activity.days', { days: c.days })} ${clock(c)}` : clock(c)}</span>
    </span>
  )
}

export function PrizeList({ prizes }: { prizes: ActivityPrize[] }) {
  const t = useT()
  return (
    <ul className="activity-prizes" data-testid="activity-prizes">
      {prizes.map((p) => (
        <li key={p.from}>
          <span>{t('activity.rankNo', { rank: rankRange(p) })}</span>
          <span>{p.from === p.to ? prizeText(p) : t('activity.prizeEach', { prize: prizeText(p) })}</span>
        </li>
      ))}
    </ul>
  )
}

/** One activity in the list: cover, title, status, window and the first prize; opens its detail. */
export function ActivityCard({ a }: { a: ActivityItem }) {
  const t = useT()
  const first = a.prizes[0]
  return (
    <li className="card activity-card" data-testid="activity-card" data-id={a.id}>
      <Link href={`/activity/detail/${a.id}`}>
        <img className="activity-cover" src={a.cover} alt="" loading="lazy" width={750} height={300} />
        <div className="activity-info">
          <div>
            <StatusBadge status={a.status} />
            <span className="activity-title">{a.title}</span>
          </div>
          <span className="small muted">{t('activity.window', { start: when(a.starts_at), end: when(a.ends_at) })}</span>
          <span className="small">
            {t(`activity.measure.${a.measure}`)}
            {first && ` · ${t('activity.firstPrize', { prize: prizeText(first) })}`}
          </span>
          {a.status !== 'ended' && (
            <span className="small muted">
              <WindowCountdown a={a} />
            </span>
          )}
        </div>
      </Link>
    </li>
  )
}

/** One leaderboard line: rank, name and ID, score, and the prize the rank wins. */
export function RankRow({ e, measure, mine }: { e: RankEntry; measure: Measure; mine?: boolean }) {
  const t = useT()
  return (
    <li className={`rank-row rank-top-${e.rank}${mine ? ' mine' : ''}`} data-testid="rank-row" data-rank={e.rank} data-user={e.user_id}>
      <span className="rank-no">{e.rank}</span>
      <span className="rank-who">
        <span className="rank-name">
          <span className="ellipsis">{e.name}</span>
          {mine && <span className="badge gold">{t('activity.you')}</span>}
        </span>
        <small className="muted">
          ID {e.user_id}
          {e.prize && ` · ${prizeText(e.prize)}`}
        </small>
      </span>
      <span className="rank-score" data-testid="rank-score">
        <Score measure={measure} score={e.score} />
      </span>
    </li>
  )
}
