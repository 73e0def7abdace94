import { useEffect, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { RecordList } from '../wallet/parts.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { pledgeQueries } from './queries.ts'
import { PledgeSummary, ProductCard, termDay } from './parts.tsx'

const TABS = ['products', 'mine', 'income'] as const
type Tab = (typeof TABS)[number]
const isTab = (v: string | null): v is Tab => (TABS as readonly (string | null)[]).includes(v)

function Products() {
  const t = useT()
  const q = useQuery(pledgeQueries.products())
  if (q.isPending) return <Pending query={q} lines={6} />
  if (q.isError && !q.data) return <LoadFailed onRetry={() => q.refetch()} />
  return (
    <>
      <Freshness updatedAt={q.dataUpdatedAt} />
      {q.data.length === 0 ? (
        <Empty text={t('pledge.noProducts')} />
      ) : (
        <ul className="records" data-testid="pledge-products">
          {q.data.map((p) => (
            <ProductCard key={p.id} p={p} />
          ))}
        </ul>
      )}
    </>
  )
}

function Mine() {
  const t = useT()
  const q = useInfiniteQuery(pledgeQueries.mine())
  return (
    <>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId="pledge-mine"
        empty={t('pledge.noPledges')}
        row={(g) => (
          <li key={g.id} className="card pledge-item" data-testid="my-pledge" data-id={g.id} data-status={g.status}>
            <PledgeSummary g={g} link />
          </li>
        )}
      />
    </>
  )
}

function Income() {
  const t = useT()
  const q = useInfiniteQuery(pledgeQueries.income())
  return (
    <>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId="pledge-income"
        empty={t('pledge.noIncome')}
        row={(l) => (
          <li key={`${l.pledge_id}:${l.day}`} className="card kv pledge-kv" data-testid="pledge-income-row">
            <span className="grow">
              <span className="clamp-2">{l.name}</span>
              <small className="muted">{termDay(l.day)}</small>
            </span>
            <strong className="pledge-gain">+{showAmount(units(l.amount), 'NADI')} NADI</strong>
          </li>
        )}
      />
    </>
  )
}

/** /pledge: the savings products, my pledges and the income record (SPEC §2, §3). `?tab=` opens one. */
export default function PledgeScreen() {
  const t = useT()
  const asked = new URLSearchParams(useSearch()).get('tab')
  const [tab, setTab] = useState<Tab>(isTab(asked) ? asked : 'products')
  // The screen is kept alive: a later visit with ?tab= (after pledging: my pledges) opens that tab.
  useEffect(() => {
    if (isTab(asked)) setTab(asked)
  }, [asked])
  return (
    <main className="page">
      <TopBar title={t('pledge.title')} back />
      <div className="chips filter-row" role="tablist" aria-label={t('pledge.title')}>
        {TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`pledge-tab-${k}`}>
            {t(`pledge.tab.${k}`)}
          </button>
        ))}
      </div>
      <section className="list">{tab === 'products' ? <Products /> : tab === 'mine' ? <Mine /> : <Income />}</section>
    </main>
  )
}
