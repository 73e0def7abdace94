import { useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { PoolAmounts, RankingPool, RankRow } from '../../../contract/ranking.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { showFigure } from '../../lib/precision.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { LoadFailed, Pending } from '../../ui/States.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { userQueries } from '../user/queries.ts'
import { RecordList } from '../wallet/parts.tsx'
import { useRankingLive } from './live.ts'
import { rankingQueries } from './queries.ts'
import { dayOfIso, dayOfMs, isoOfDay } from './view.ts'
import './ranking.css'

const TABS = ['today', 'past', 'total'] as const
type Tab = (typeof TABS)[number]

const both = (a: PoolAmounts) => `${showFigure(a.USDT, 'USDT')} USDT · ${showFigure(a.NADI, 'NADI')} NADI`

function PoolCard({ name, pool, note }: { name: 'daily' | 'total'; pool: RankingPool; note: string }) {
  const t = useT()
  return (
    <section className="card pool" data-testid={`pool-${name}`}>
      <h2>{t(`ranking.pool.${name}`)}</h2>
      <div className="kv">
        <span>{t('ranking.inPool')}</span>
        <strong data-testid={`pool-${name}-balance`}>{both(pool.balance)}</strong>
      </div>
      <div className="kv">
        <span>{t('ranking.today')}</span>
        <strong className="pool-gain" data-testid={`pool-${name}-today`}>
          +{both(pool.today)}
        </strong>
      </div>
      <small className="muted">{t('ranking.poolRule', { share: pool.share, top: pool.top })}</small>
      <small className="muted block">{note}</small>
    </section>
  )
}

function Pools() {
  useSignals()
  const t = useT()
  const q = useQuery(rankingQueries.pools())
  if (q.isPending) return <Pending query={q} lines={4} />
  if (q.isError && !q.data) return <LoadFailed onRetry={() => q.refetch()} />
  const p = q.data
  const locale = LANG_TAG[lang.value]
  return (
    <>
      <Freshness updatedAt={q.dataUpdatedAt} />
      <PoolCard name="daily" pool={p.daily} note={t('ranking.dailyPays', { time: formatDateTime(p.day_end, locale) })} />
      <PoolCard name="total" pool={p.total} note={p.total_paid_day === null ? t('ranking.totalNotPaid') : t('ranking.totalPaid', { day: isoOfDay(p.total_paid_day) })} />
    </>
  )
}

function Row({ r, me }: { r: RankRow; me: number | null }) {
  const prize = [r.prize_usdt && r.prize_usdt !== '0' ? `${showFigure(r.prize_usdt, 'USDT')} USDT` : null, r.prize_nadi && r.prize_nadi !== '0' ? `${showFigure(r.prize_nadi, 'NADI')} NADI` : null].filter(Boolean).join(' · ')
  return (
    <li className={`record rank-row ${r.rank <= 3 ? `top top-${r.rank}` : ''} ${me === r.user_id ? 'me' : ''}`} data-testid="rank-row" data-user={r.user_id} data-rank={r.rank}>
      <span className="rank-no">{r.rank}</span>
      <span className="grow">
        <strong>{r.name}</strong>
        <small className="muted block">ID {r.user_id}</small>
      </span>
      <span className="amount">
        {showFigure(r.amount, 'USDT')} <small>USDT</small>
        {prize && <small className="block prize">+{prize}</small>}
      </span>
    </li>
  )
}

/** The caller's own place, pinned above the list whether or not it is on the loaded page. */
function MyRank({ day, which }: { day: number | null; which: 'daily' | 'total' }) {
  const t = useT()
  const q = useQuery(rankingQueries.mine(day))
  const m = q.data?.[which]
  return (
    <div className="my-rank card" data-testid="my-rank">
      <span>{t('ranking.mine')}</span>
      <strong data-testid="my-rank-no">{m ? (m.rank === null ? t('ranking.notRanked') : `#${m.rank}`) : '…'}</strong>
      <span className="amount" data-testid="my-rank-amount">
        {m ? showFigure(m.amount, 'USDT') : '0'} <small>USDT</small>
      </span>
    </div>
  )
}

function Daily({ day }: { day: number | null }) {
  const t = useT()
  const q = useInfiniteQuery(rankingQueries.daily(day))
  const first = q.data?.pages[0]
  const myId = useQuery(userQueries.info()).data?.id ?? null
  return (
    <>
      <MyRank day={day} which="daily" />
      {first && (first.live ? <span className="chip live-chip">{t('ranking.live')}</span> : !first.paid && <p className="muted">{t('ranking.dayNotPaid')}</p>)}
      <RecordList q={q} testId="ranking-daily" empty={t('ranking.empty')} row={(r) => <Row key={r.rank} r={r} me={myId} />} />
    </>
  )
}

function Total() {
  const t = useT()
  const q = useInfiniteQuery(rankingQueries.total())
  const myId = useQuery(userQueries.info()).data?.id ?? null
  return (
    <>
      <MyRank day={null} which="total" />
      <RecordList q={q} testId="ranking-total" empty={t('ranking.empty')} row={(r) => <Row key={r.rank} r={r} me={myId} />} />
    </>
  )
}

function Past() {
  const t = useT()
  const yesterday = dayOfMs(Date.now()) - 1
  const [day, setDay] = useState(yesterday)
  return (
    <>
      <label className="field day-pick">
        <span>{t('ranking.pickDay')}</span>
        <input
          type="date"
          max={isoOfDay(yesterday)}
          value={isoOfDay(day)}
          onChange={(e) => {
            const d = dayOfIso(e.target.value)
            if (d !== null && d <= yesterday && d >= 0) setDay(d)
          }}
          data-testid="ranking-day"
        />
      </label>
      <Daily day={day} />
    </>
  )
}

/** /ranking: the prize pools live, today's ranking with the caller's rank pinned, past days, the total (SPEC §1). */
export default function RankingScreen() {
  const t = useT()
  const [tab, setTab] = useState<Tab>('today')
  useRankingLive()
  return (
    <main className="page ranking">
      <TopBar title={t('ranking.title')} back />
      <h2 className="section-title">{t('ranking.pools')}</h2>
      <Pools />
      <div className="chips filter-row" role="tablist" aria-label={t('ranking.title')}>
        {TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`ranking-tab-${k}`}>
            {t(`ranking.tab.${k}`)}
          </button>
        ))}
      </div>
      {tab === 'today' ? <Daily day={null} /> : tab === 'past' ? <Past /> : <Total />}
    </main>
  )
}
