import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { Order } from '../../../contract/trade.ts'
import { online } from '../../api/online.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { confirmed } from '../../ui/confirm.tsx'
import { toast } from '../../ui/toast.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { RecordList } from '../wallet/parts.tsx'
import { tradeQueries } from './queries.ts'
import { useCancelOrder } from './mutations.ts'
import { useOrderPushes } from './live.ts'
import { isOpen, ORDER_TABS, orderAmount, statusKey, statusTone, type OrderTab } from './status.ts'
import { Cell, SideText } from './parts.tsx'

const TABS = Object.keys(ORDER_TABS) as OrderTab[]
const TONE_CLASS = { open: 'gold', done: 'teal', cancelled: 'muted-badge' } as const

function OrderRow({ o }: { o: Order }) {
  useSignals()
  const t = useT()
  const cancel = useCancelOrder()
  const asked = orderAmount(o)

  async function onCancel() {
    if (!(await confirmed({ title: t('trade.orders.cancelTitle'), body: t('trade.orders.cancelBody'), confirmText: t('trade.orders.cancel'), cancelText: t('trade.orders.keep'), danger: true }))) return
    try {
      await cancel.mutateAsync(o.id)
    } catch {
      return // the server's words are already shown
    }
    toast.success(t('trade.orders.cancelled'))
  }

  return (
    <li className="record tall order-record" data-testid="order-row" data-status={o.status} data-id={o.id}>
      <div className="row between">
        <strong>
          <SideText side={o.side} /> <span className="muted small">{t(`trade.type.${o.type}`)}</span>
        </strong>
        <span className={`badge ${TONE_CLASS[statusTone(o.status)]}`} data-testid="order-status">
          {t(statusKey(o.status))}
        </span>
      </div>
      <div className="order-grid">
        <Cell label={t('trade.orders.price')}>{o.price === null ? t('trade.type.market') : showAmount(units(o.price), 'price')}</Cell>
        <Cell label={t('trade.orders.amount', { asset: asked.asset })}>{showAmount(units(asked.amount), asked.asset)}</Cell>
        <Cell label={t('trade.orders.filled')} testId="order-filled">
          {showAmount(units(o.filled), 'NADI')}
        </Cell>
        <Cell label={t('trade.orders.avgPrice')}>{o.avg_price === null ? '—' : showAmount(units(o.avg_price), 'price')}</Cell>
        <Cell label={t('trade.orders.fee')}>
          {showAmount(units(o.fee), o.fee_asset)} {o.fee_asset}
        </Cell>
        <Cell label={t('trade.orders.time')}>{formatDateTime(o.created_at, LANG_TAG[lang.value])}</Cell>
      </div>
      {o.cancel_reason && (
        <p className="muted small" data-testid="order-cancel-reason" data-reason={o.cancel_reason}>
          {t(`trade.cancelReason.${o.cancel_reason}`)}
        </p>
      )}
      {isOpen(o.status) && (
        <div className="row">
          <span className="grow" />
          <button type="button" className="btn ghost small" onClick={onCancel} disabled={!online.value || cancel.isPending} data-testid="cancel-order">
            {cancel.isPending ? t('trade.orders.cancelling') : t('trade.orders.cancel')}
          </button>
        </div>
      )}
    </li>
  )
}

/** /trade/orderList: current orders (cancellable) and history, 10 at a time (SPEC §2, §4, §9). */
export default function OrderListScreen() {
  useSignals()
  const t = useT()
  const initial = new URLSearchParams(useSearch()).get('tab')
  const [tab, setTab] = useState<OrderTab>(initial === 'history' ? 'history' : 'current')
  const q = useInfiniteQuery(tradeQueries.orders(tab))
  useOrderPushes()

  return (
    <main className="page">
      <TopBar title={t('trade.orders.title')} back records={{ href: '/trade/close', label: t('trade.deals.title') }} />
      <div className="chips filter-row" role="tablist" aria-label={t('trade.orders.title')}>
        {TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`orders-tab-${k}`}>
            {t(`trade.orders.tab.${k}`)}
          </button>
        ))}
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId={`orders-${tab}`} empty={t(`trade.orders.empty.${tab}`)} row={(o) => <OrderRow key={o.id} o={o} />} />
    </main>
  )
}
