import { LANG_TAG } from '../../../contract/constants.ts'
import type { ReleasePlan } from '../../../contract/release.ts'
import { lang, useT } from '../../i18n/index.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { formatReleaseDay, releasedPercent } from './progress.ts'
import { Amount } from '../../ui/Amount.tsx'

/** The progress of one plan: released of total with a bar, the daily amount, days, dates, status. */
export function ReleaseProgress({ plan }: { plan: ReleasePlan }) {
  const t = useT()
  const pct = releasedPercent(plan.released, plan.total)
  const locale = LANG_TAG[lang.value]
  return (
    <div className="release-progress" data-testid="release-progress">
      <div className="row gap">
        <span className="progress release-bar" role="progressbar" aria-label={t('release.progress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <span style={{ width: `${pct}%` }} />
        </span>
        <span className="small mono" data-testid="release-percent">
          {pct}%
        </span>
      </div>
      <dl className="release-figures">
        <div>
          <dt className="muted small">{t('release.total')}</dt>
          <dd data-testid="release-total">
            <Amount value={plan.total} measure={plan.asset} />
          </dd>
        </div>
        <div>
          <dt className="muted small">{t('release.released')}</dt>
          <dd data-testid="release-released">
            <Amount value={plan.released} measure={plan.asset} />
          </dd>
        </div>
        <div>
          <dt className="muted small">{t('release.daily')}</dt>
          <dd data-testid="release-daily">
            {plan.status === 'completed' ? '—' : showAmount(units(plan.daily), plan.asset)} {plan.status !== 'completed' && <small className="muted">{plan.asset}</small>}
          </dd>
        </div>
        <div>
          <dt className="muted small">{t('release.days')}</dt>
          <dd data-testid="release-days">{t('release.daysOf', { done: plan.released_days, days: plan.days })}</dd>
        </div>
      </dl>
      <p className="small muted release-dates" data-testid="release-dates">
        {t('release.dates', { start: formatReleaseDay(plan.start_date, locale), end: formatReleaseDay(plan.end_date, locale) })}
      </p>
    </div>
  )
}

export function ReleaseStatusBadge({ plan }: { plan: Pick<ReleasePlan, 'status'> }) {
  const t = useT()
  return (
    <span className={`badge ${plan.status === 'releasing' ? 'gold' : 'teal'}`} data-testid="release-status">
      {t(`release.status.${plan.status}`)}
    </span>
  )
}

/** One release plan of the record lists: the product, then its progress. */
export function ReleaseCard({ plan }: { plan: ReleasePlan }) {
  const t = useT()
  return (
    <li className="card release-plan" data-testid="release-plan" data-id={plan.id} data-order-id={plan.order_id} data-status={plan.status}>
      <div className="release-head">
        {plan.cover ? <img className="thumb" src={plan.cover} alt="" width={48} height={48} loading="lazy" /> : <span className="thumb" />}
        <div className="grow">
          <strong className="clamp-2" data-testid="release-title">
            {plan.title}
          </strong>
          <span className="small muted mono">{t('release.orderNo', { orderNo: plan.order_no })}</span>
        </div>
        <ReleaseStatusBadge plan={plan} />
      </div>
      <ReleaseProgress plan={plan} />
    </li>
  )
}
