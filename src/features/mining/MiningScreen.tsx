import { useEffect, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { LoadFailed } from '../../ui/States.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { ACTIVATE_ACTION } from './devices/activate.ts'
import { MachinesPanel } from './devices/MachinesPanel.tsx'
import { MiningForm } from './MiningForm.tsx'
import { PowerList, PowerSummary } from './parts.tsx'
import { miningQueries } from './queries.ts'

const TABS = ['destroy', 'joint', 'power'] as const
type Tab = (typeof TABS)[number]
const isTab = (v: string | null): v is Tab => (TABS as readonly (string | null)[]).includes(v)

/** The power tab: the power log, the same list (and cache) as /mingLog. */
function MyPower() {
  const q = useInfiniteQuery(miningQueries.powerLog())
  return <PowerList q={q} />
}

/**
 * /ming (SPEC §2): the power summary, destroy and joint mining, the power log and my machines.
 * Everything shows from the saved cache at once (offline too) with when it is from. `?tab=` opens one.
 */
export default function MiningScreen() {
  useSignals()
  const t = useT()
  const queue = useOutbox(account.value, ACTIVATE_ACTION)
  const info = useQuery(miningQueries.info())
  const asked = new URLSearchParams(useSearch()).get('tab')
  const [tab, setTab] = useState<Tab>(isTab(asked) ? asked : 'destroy')
  // The screen is kept alive: a later visit with ?tab= opens that tab.
  useEffect(() => {
    if (isTab(asked)) setTab(asked)
  }, [asked])
  return (
    <main className="page">
      <TopBar title={t('mining.title')} back records={{ href: '/mingLog', label: t('mining.powerLog') }} />
      {info.data && <Freshness updatedAt={info.dataUpdatedAt} />}
      {info.isError && !info.data ? <LoadFailed onRetry={() => info.refetch()} /> : <PowerSummary info={info.data} />}
      <div className="chips filter-row" role="tablist" aria-label={t('mining.title')}>
        {TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`mining-tab-${k}`}>
            {t(`mining.tab.${k}`)}
          </button>
        ))}
      </div>
      {tab === 'power' ? <MyPower /> : <MiningForm key={tab} kind={tab} info={info.data} />}
      <h2 className="section-title">{t('device.title')}</h2>
      <MachinesPanel queue={queue} />
    </main>
  )
}
