import { useEffect, useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { ACTIVITY_STATUSES, type ActivityStatus } from '../../../contract/activity.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { RecordList } from '../wallet/parts.tsx'
import { activityQueries } from './queries.ts'
import { ActivityCard } from './parts.tsx'
import './activity.css'

const isTab = (v: string | null): v is ActivityStatus => (ACTIVITY_STATUSES as readonly (string | null)[]).includes(v)

function Tab({ status }: { status: ActivityStatus }) {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(activityQueries.list(status, lang.value))
  return (
    <>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId={`activity-list-${status}`} empty={t(`activity.empty.${status}`)} row={(a) => <ActivityCard key={a.id} a={a} />} />
    </>
  )
}

/** /activity: the campaigns, upcoming, running and ended (SPEC §2). `?tab=` opens one; running by default. */
export default function ActivityListScreen() {
  const t = useT()
  const asked = new URLSearchParams(useSearch()).get('tab')
  const [tab, setTab] = useState<ActivityStatus>(isTab(asked) ? asked : 'running')
  useEffect(() => {
    if (isTab(asked)) setTab(asked)
  }, [asked])
  return (
    <main className="page">
      <TopBar title={t('activity.title')} back />
      <div className="chips filter-row" role="tablist" aria-label={t('activity.title')}>
        {ACTIVITY_STATUSES.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`activity-tab-${k}`}>
            {t(`activity.tab.${k}`)}
          </button>
        ))}
      </div>
      <p className="small muted">{t('activity.automatic')}</p>
      <Tab key={tab} status={tab} />
    </main>
  )
}
