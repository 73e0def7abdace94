import { Link } from 'wouter'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { MyPledge, PledgeProduct } from '../../../contract/pledge.ts'
import { lang, useT } from '../../i18n/index.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { formatReleaseDay } from '../release/progress.ts'
import { takenPercent, termPercent } from './view.ts'
import { Figure } from '../../ui/Figure.tsx'
import { Amount } from '../../ui/Amount.tsx'

/** A date of the term (UTC midnight on the wire), in the interface language. */
export const termDay = (ms: number) => formatReleaseDay(ms, LANG_TAG[lang.value])

/** One product: term, rates, minimum, capacity left with a bar; links to its detail. */
export function ProductCard({ p }: { p: PledgeProduct }) {
  const t = useT()
  const pct = takenPercent(p)
  return (
    <li className="card pledge-product" data-testid="pledge-product" data-id={p.id}>
      <Link href={`/pledge/detail/${p.id}`} className="pledge-link">
        <div className="row gap pledge-head">
          <strong className="grow clamp-2">{p.name}</strong>
          <span className="badge gold">{t('pledge.days', { days: p.day })}</span>
        </div>
        <dl className="pledge-figures">
          {p.day_periods > 0 && <Figure label={t('pledge.dayRate')}>{p.day_rate}%</Figure>}
          {p.month_periods > 0 && <Figure label={t('pledge.monthRate')}>{p.month_rate}%</Figure>}
          <Figure label={t('pledge.minPledge')}>
            <Amount value={p.min_pledge} measure="NADI" />
          </Figure>
          <Figure label={t('pledge.powerPool')}>
            <Amount value={p.power_pool} measure="power" unit={t('mining.powerUnit')} />
          </Figure>
        </dl>
        <div className="row gap">
          <span className="progress release-bar" role="progressbar" aria-label={t('pledge.taken')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
            <span style={{ width: `${pct}%` }} />
          </span>
          <span className="small muted mono">{pct}%</span>
        </div>
        <p className="small muted" data-testid="pledge-left">
          {t('pledge.left', { left: showAmount(units(p.left), 'NADI'), total: showAmount(units(p.total_pledge), 'NADI') })}
        </p>
      </Link>
    </li>
  )
}

export function PledgeStatusBadge({ status }: { status: MyPledge['status'] }) {
  const t = useT()
  return (
    <span className={`badge ${status === 'waiting' ? 'gold' : 'teal'}`} data-testid="pledge-status">
      {t(`pledge.status.${status}`)}
    </span>
  )
}

/** One of my pledges: SPEC §3 start/end date, remaining days, release amount, time and rate, status. */
export function PledgeSummary({ g, link }: { g: MyPledge; link?: boolean }) {
  const t = useT()
  const pct = termPercent(g)
  const body = (
    <>
      <div className="row gap pledge-head">
        <strong className="grow clamp-2" data-testid="pledge-name">
          {g.name}
        </strong>
        <PledgeStatusBadge status={g.status} />
      </div>
      <div className="row gap">
        <span className="progress release-bar" role="progressbar" aria-label={t('pledge.term')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <span style={{ width: `${pct}%` }} />
        </span>
        <span className="small muted">{t('pledge.remainingDays', { days: g.remaining_days })}</span>
      </div>
      <dl className="pledge-figures">
        <Figure label={t('pledge.amount')} testId="pledge-amount">
          <Amount value={g.amount} measure="NADI" />
        </Figure>
        <Figure label={t(`pledge.rate.${g.mode}`)}>{g.rate}%</Figure>
        <Figure label={t('pledge.income')} testId="pledge-income">
          <span className="amount">
            {showAmount(units(g.income), 'NADI')} / {showAmount(units(g.expected_income), 'NADI')} <small className="muted">NADI</small>
          </span>
        </Figure>
        <Figure label={t('pledge.releaseAmount')}>
          <Amount value={g.release_amount} measure="NADI" />
        </Figure>
        <Figure label={t('pledge.releaseTime')}>{termDay(g.release_time)}</Figure>
        <Figure label={t('pledge.releaseRate')}>{g.release_rate}%</Figure>
      </dl>
      <p className="small muted">{t('pledge.dates', { start: termDay(g.start_date), end: termDay(g.end_date) })}</p>
    </>
  )
  return link ? (
    <Link href={`/pledge/releaseLog/${g.id}`} className="pledge-link">
      {body}
    </Link>
  ) : (
    body
  )
}
