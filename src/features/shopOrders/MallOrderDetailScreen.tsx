import { useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { Pending } from '../../ui/States.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { ExpressRow, OrderDetails, OrderLines, ReceiptControls, StatusBadge } from './parts.tsx'
import { shopOrderQueries } from './queries.ts'
import { RECEIPT_ACTION } from './receipt.ts'
import { hasOrderData, orderIdOf, queuedReceipts } from './view.ts'
import { Amount } from '../../ui/Amount.tsx'

function Detail({ id }: { id: number }) {
  useSignals()
  const t = useT()
  const q = useQuery(shopOrderQueries.detail('gold', id))
  const queued = queuedReceipts(useOutbox(account.value, RECEIPT_ACTION), 'gold').get(id)
  const o = q.data
  // Answered, but with no order in it: say the data is missing rather than show an empty card.
  if (q.isSuccess && !hasOrderData(o, id)) return <div className="empty" data-testid="shop-order-data-missing">{t('shopOrders.dataMissing')}</div>
  if (!o) {
    if (q.isPending) return <Pending query={q} lines={8} />
    return (
      <div className="empty" data-testid="shop-order-failed">
        <p>{t('shopOrders.detailFailed')}</p>
        {q.error && <p className="small">{q.error.message}</p>}
        <button className="btn ghost small" onClick={() => q.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    )
  }
  return (
    <>
      <Freshness updatedAt={q.dataUpdatedAt} />
      <section className="card shop-order" data-testid="shop-order" data-id={o.id} data-status={o.status ?? ''} data-pending={queued ? 'true' : undefined}>
        <div className="row between gap">
          <h2 className="grow">{t('shopOrders.lines')}</h2>
          <StatusBadge order={o} />
        </div>
        <OrderLines order={o} />
        <div className="order-sum">
          <span className="small muted">{t('shopOrders.total')}</span>
          <strong className="amount" data-testid="shop-order-total">
            <Amount value={o.total_price} measure={o.asset} />
          </strong>
        </div>
        <ExpressRow order={o} />
        <div className="order-actions">
          <ReceiptControls area="gold" order={o} queued={queued} />
        </div>
      </section>
      <section className="card">
        <OrderDetails order={o} />
      </section>
    </>
  )
}

/** /mall/orderDetail?id=: one gold order in full (SPEC §2). */
export default function MallOrderDetailScreen() {
  const t = useT()
  const id = orderIdOf(useSearch())
  return (
    <main className="page">
      <TopBar title={t('shopOrders.detailTitle')} back />
      {id === null ? <div className="empty" data-testid="shop-order-id-missing">{t('shopOrders.idMissing')}</div> : <Detail key={id} id={id} />}
    </main>
  )
}
