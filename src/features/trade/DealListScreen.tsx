import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { Deal } from '../../../contract/trade.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { RecordList } from '../wallet/parts.tsx'
import { tradeQueries } from './queries.ts'
import { useOrderPushes } from './live.ts'
import { Cell, SideText } from './parts.tsx'

function DealRow({ d }: { d: Deal }) {
  useSignals()
  const t = useT()
  return (
    <li className="record tall" data-testid="deal-row" data-id={d.id}>
      <div className="row between">
        <strong>
          <SideText side={d.side} /> <span className="muted small">NADI/USDT</span>
        </strong>
        <span className={`badge ${d.role === 'maker' ? 'teal' : 'muted-badge'}`}>{t(`trade.deals.role.${d.role}`)}</span>
      </div>
      <div className="order-grid">
        <Cell label={t('trade.orders.price')}>{showAmount(units(d.price), 'price')}</Cell>
        <Cell label={t('trade.orders.amount', { asset: 'NADI' })}>{showAmount(units(d.size), 'NADI')}</Cell>
        <Cell label={t('trade.deals.total')}>{showAmount(units(d.quote), 'USDT')}</Cell>
        <Cell label={t('trade.orders.fee')}>
          {showAmount(units(d.fee), d.fee_asset)} {d.fee_asset}
        </Cell>
        <Cell label={t('trade.orders.time')}>{formatDateTime(d.created_at, LANG_TAG[lang.value])}</Cell>
      </div>
    </li>
  )
}

/** /trade/close: the user's fills, newest first, 10 at a time. */
export default function DealListScreen() {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(tradeQueries.deals())
  useOrderPushes()
  return (
    <main className="page">
      <TopBar title={t('trade.deals.title')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId="deal-list" empty={t('trade.deals.empty')} row={(d) => <DealRow key={d.id} d={d} />} />
    </main>
  )
}
