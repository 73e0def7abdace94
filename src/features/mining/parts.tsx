// Pieces the mining screens share: the power summary, a destroy record and a power log row.
import type { FetchStatus } from '@tanstack/react-query'
import { useDeferredValue } from 'react'
import { Link } from 'wouter'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { DestroyRecord, MiningInfo, MiningPause, PowerLogItem } from '../../../contract/mining.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { Icon } from '../../ui/Icon.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { RecordList } from '../wallet/parts.tsx'
import { destroyStatusWord, releasedPercent, releaseRule, type DestroyStatusWord } from './view.ts'
import { Figure } from '../../ui/Figure.tsx'
import { Amount } from '../../ui/Amount.tsx'

// One formatter per language: the power log draws a date per row, and building an Intl formatter
// per row is what a 100-row first render would spend most of its time on.
const dayFormats = new Map<string, Intl.DateTimeFormat>()
/** A settlement day (UTC midnight on the wire) in the interface language. */
export function utcDay(ms: number, locale: string): string {
  let f = dayFormats.get(locale)
  if (!f) dayFormats.set(locale, (f = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' })))
  return f.format(ms)
}

/** Why power is paused and since when, and that the paused days are paid when it resumes (SPEC §4 status 2). */
export function PauseNote({ pause }: { pause: MiningPause | null }) {
  const t = useT()
  if (!pause) return null
  return (
    <p className="warn-note" role="status" data-testid="mining-pause" data-reason={pause.reason}>
      {t(`mining.pause.${pause.reason}`, { date: utcDay(pause.since, LANG_TAG[lang.value]) })}
    </p>
  )
}

/** Issue 11 part 7: total power, today's estimate and yesterday's earnings, the account's two pools (SPEC §3), with the two records' links. */
export function PowerSummary({ info }: { info: MiningInfo | undefined }) {
  const t = useT()
  const show = (v: string | undefined, measure: string) => (v === undefined ? '—' : showAmount(units(v), measure))
  return (
    <section className="card mining-summary" aria-label={t('mining.power')} data-testid="mining-summary">
      <div className="stat">
        <span className="muted small">{t('mining.power')}</span>
        <strong className="big" data-testid="mining-power">
          {show(info?.power, 'power')}
        </strong>
        <small className="muted">{t('mining.powerUnit')}</small>
        {info && units(info.trial_power) > 0n && (
          <span className="small muted" data-testid="mining-trial-power">
            {t(units(info.trial_power) === units(info.power) ? 'mining.trialOnly' : 'mining.trialIncluded', { power: show(info.trial_power, 'power') })}
          </span>
        )}
      </div>
      <dl className="mining-figures">
        <Figure label={t('mining.todayEstimate')} testId="mining-today">
          {show(info?.today_estimate, 'NADI')} <small className="muted">NADI</small>
        </Figure>
        <Figure label={t('mining.yesterday')} testId="mining-yesterday">
          {show(info?.yesterday, 'NADI')} <small className="muted">NADI</small>
        </Figure>
        <Figure label={t('mining.destroyPool')} testId="mining-destroy-pool">
          {show(info?.destroy_pool, 'NADI')} <small className="muted">NADI</small>
        </Figure>
        <Figure label={t('mining.flowPool')} testId="mining-flow-pool">
          {show(info?.flow_pool, 'NADI')} <small className="muted">NADI</small>
        </Figure>
      </dl>
      <p className="muted small">{t('mining.poolsHint')}</p>
      <PauseNote pause={info?.pause ?? null} />
      <nav className="mining-links" aria-label={t('mining.records')}>
        <Link href="/destoryList" className="menu-item" data-testid="mining-destroy-list-link">
          <Icon name="list" size={20} />
          <span className="grow">{t('mining.destroyList')}</span>
          <Icon name="chevron" size={18} />
        </Link>
        <Link href="/mingLog" className="menu-item" data-testid="mining-power-log-link">
          <Icon name="receipt" size={20} />
          <span className="grow">{t('mining.powerLog')}</span>
          <Icon name="chevron" size={18} />
        </Link>
      </nav>
    </section>
  )
}

const STATUS_TONE: Record<DestroyStatusWord, string> = { trial: 'gold', paused: 'muted-badge', permanent: 'teal', unknown: 'muted-badge' }

/** SPEC §3 destroy record: price, amount, USDT value, purchase date, status (§4 wording). */
export function DestroyRow({ r }: { r: DestroyRecord }) {
  const t = useT()
  const word = destroyStatusWord(r.status)
  return (
    <li className="card mining-record" data-testid="destroy-record" data-id={r.id} data-type={r.type} data-status={r.status}>
      <div className="row gap">
        <strong className="grow">{t(`mining.type.${r.type}`)}</strong>
        <span className={`badge ${STATUS_TONE[word]}`} data-testid="destroy-status">
          {t(`mining.status.${word}`)}
        </span>
      </div>
      <PauseNote pause={r.pause} />
      {r.type === 'trial' && (
        <p className="small muted" data-testid="destroy-trial-note">
          {t('mining.trialRecord')}
        </p>
      )}
      <dl className="mining-figures">
        <Figure label={t('mining.amount')} testId="destroy-amount">
          <Amount value={r.amount} measure={r.asset} />
        </Figure>
        <Figure label={t('mining.price')}>
          {showAmount(units(r.price), 'price')} <small className="muted">USDT</small>
        </Figure>
        <Figure label={t('mining.usdtValue')} testId="destroy-usdt">
          <Amount value={r.usdt_value} measure="USDT" />
        </Figure>
        <Figure label={t('mining.date')}>{formatDateTime(r.created_at, LANG_TAG[lang.value])}</Figure>
      </dl>
    </li>
  )
}

/** SPEC §3 power log: type, bought, gift, released and remaining power, and what it releases a day. */
export function PowerRow({ p }: { p: PowerLogItem }) {
  const t = useT()
  const pct = releasedPercent(p)
  return (
    <li className="card mining-record" data-testid="power-row" data-id={p.id} data-type={p.type} data-status={p.status}>
      <div className="row gap">
        <strong className="grow">{t(`mining.type.${p.type}`)}</strong>
        <span className={`badge ${p.status === 'active' ? 'teal' : 'muted-badge'}`} data-testid="power-status">
          {t(`mining.logStatus.${p.status}`)}
        </span>
      </div>
      <PauseNote pause={p.pause} />
      {pct !== null && (
        <div className="row gap">
          <span className="progress release-bar" role="progressbar" aria-label={t('mining.released')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
            <span style={{ width: `${pct}%` }} />
          </span>
          <span className="small muted mono">{pct}%</span>
        </div>
      )}
      <dl className="mining-figures">
        <Figure label={t('mining.buyPower')} testId="power-buy">
          <Amount value={p.buy_power} measure="power" unit={t('mining.powerUnit')} />
        </Figure>
        <Figure label={t('mining.giftPower')} testId="power-gift">
          <Amount value={p.gift_power} measure="power" unit={t('mining.powerUnit')} />
        </Figure>
        <Figure label={t('mining.released')} testId="power-released">
          <Amount value={p.released} measure="NADI" />
        </Figure>
        <Figure label={t('mining.remaining')} testId="power-remaining">
          {p.remaining === null ? t('mining.noEnd') : <Amount value={p.remaining} measure="power" unit={t('mining.powerUnit')} />}
        </Figure>
        <Figure label={t('mining.daily')} testId="power-daily">
          <Amount value={p.daily} measure="NADI" />
        </Figure>
        <Figure label={t('mining.startDate')}>{utcDay(p.start_date, LANG_TAG[lang.value])}</Figure>
      </dl>
      <p className="small muted" data-testid="power-rule">
        {t(...releaseRule(p))}
      </p>
    </li>
  )
}

interface PowerPages {
  fetchStatus: FetchStatus
  data: { pages: { list: PowerLogItem[] }[] } | undefined
  isPending: boolean
  isError: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  refetch: () => unknown
  fetchNextPage: () => unknown
}

/**
 * The power log as a paged list. A saved log of many pages (100 positions) would hold up the screen's
 * first paint, so the first page shows at once and the rest follows in a render React may interrupt.
 */
export function PowerList({ q }: { q: PowerPages }) {
  const t = useT()
  const pages = q.data?.pages
  const shown = useDeferredValue(pages, pages?.slice(0, 1))
  return <RecordList q={{ ...q, data: shown && { pages: shown } }} testId="power-log" empty={t('mining.emptyLog')} row={(p) => <PowerRow key={p.id} p={p} />} />
}
