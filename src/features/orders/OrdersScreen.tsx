import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { online } from '../../api/online.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { confirmed } from '../../ui/confirm.tsx'
import { toast } from '../../ui/toast.ts'
import { PaymentDialog } from '../payment/PaymentDialog.tsx'
import { OfflineReason, RecordList } from '../wallet/parts.tsx'
import { useServerNow } from '../../lib/countdown.ts'
import { ORDER_TABS, ordersQueries, type OrdersTab } from './queries.ts'
import { useCancelPayOrder } from './mutations.ts'
import { timeLeft } from './time.ts'
import { Amount } from '../../ui/Amount.tsx'

function OrderRow({ o, onPay }: { o: PayOrder; onPay: (o: PayOrder) => void }) {
  useSignals()
  const t = useT()
  const cancel = useCancelPayOrder()
  const waiting = o.status === 'pending_payment'
  const now = useServerNow(waiting)
  const left = waiting ? timeLeft(o.expires_at, now) : null
  const isOnline = online.value

  async function onCancel() {
    if (!(await confirmed({ title: t('orders.cancelTitle'), body: t('orders.cancelBody', { orderNo: o.order_no }), confirmText: t('orders.cancel'), cancelText: t('orders.keep'), danger: true }))) return
    try {
      await cancel.mutateAsync(o.id)
    } catch {
      return // the server's words are already shown
    }
    toast.success(t('orders.cancelled'))
  }

  return (
    <li className="record tall payorder" data-testid="payorder-row" data-id={o.id} data-status={o.status}>
      <div className="row between">
        <strong className="ellipsis">{o.title}</strong>
        <span className={`badge ${waiting ? 'gold' : o.status === 'cancelled' ? 'muted-badge' : 'teal'}`} data-testid="payorder-status">
          {t(`orders.status.${o.status}`)}
        </span>
      </div>
      <div className="row between small">
        <span className="muted">{t('orders.orderNo')}</span>
        <span className="mono" data-testid="payorder-no">
          {o.order_no}
        </span>
      </div>
      <div className="row between small">
        <span className="muted">{formatDateTime(o.created_at, LANG_TAG[lang.value])}</span>
        <span className="amount" data-testid="payorder-total">
          <Amount value={o.total} measure={o.asset} />
        </span>
      </div>
      {o.status === 'cancelled' ? (
        <p className="small muted" data-testid="payorder-cancel-reason">
          {t(o.cancelled_by === 'expiry' ? 'orders.cancelledReason.expiry' : 'orders.cancelledReason.user')}
        </p>
      ) : waiting ? (
        <div className="row between gap">
          <span className={`small ${left ? 'muted' : 'danger-text'}`} data-testid="payorder-countdown">
            {left ? t('orders.timeLeft', { time: left }) : t('orders.expired')}
          </span>
          <span className="row gap-s">
            <button type="button" className="btn ghost small" onClick={onCancel} disabled={!isOnline || cancel.isPending} data-testid="payorder-cancel">
              {cancel.isPending ? t('orders.cancelling') : t('orders.cancel')}
            </button>
            <button type="button" className="btn primary small" onClick={() => onPay(o)} disabled={!isOnline || !left} data-testid="payorder-pay">
              {t('orders.pay')}
            </button>
          </span>
        </div>
      ) : (
        <div className="row between gap">
          <span className="small muted">
            {o.payment && o.payment.required > 0 ? t('orders.confirming', { done: o.payment.confirmations, required: o.payment.required }) : t('orders.status.processing')}
          </span>
          <button type="button" className="btn ghost small" onClick={() => onPay(o)} data-testid="payorder-progress">
            {t('orders.viewPayment')}
          </button>
        </div>
      )}
    </li>
  )
}

/** /orders: the user's unpaid orders — waiting for payment (pay or cancel) and payments confirming (SPEC §2, §4). */
export default function OrdersScreen() {
  useSignals()
  const t = useT()
  const [tab, setTab] = useState<OrdersTab>('pending_payment')
  const q = useInfiniteQuery(ordersQueries.list(tab))
  const [paying, setPaying] = useState<PayOrder | null>(null)

  return (
    <main className="page">
      <TopBar title={t('orders.title')} back />
      <div className="chips filter-row" role="tablist" aria-label={t('orders.title')}>
        {ORDER_TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`payorders-tab-${k}`}>
            {t(`orders.tab.${k}`)}
          </button>
        ))}
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <OfflineReason />
      <RecordList q={q} testId={`payorders-${tab}`} empty={t(`orders.empty.${tab}`)} row={(o) => <OrderRow key={o.id} o={o} onPay={setPaying} />} />
      {paying && <PaymentDialog key={paying.id} order={paying} onClose={() => setPaying(null)} onPaid={() => toast.success(t('payment.paidToast'))} />}
    </main>
  )
}
