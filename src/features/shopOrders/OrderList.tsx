import { useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Link, useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { SHOP_ORDER_TABS, type ShopOrder, type ShopOrderTab } from '../../../contract/preOrder.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { RecordList } from '../wallet/parts.tsx'
import { ActivationCodes, ExpressRow, OrderDetails, OrderLines, ReceiptControls, StatusBadge } from './parts.tsx'
import { shopOrderQueries, type OrderArea } from './queries.ts'
import { queuedReceipts, unitCount, type QueuedItem, type QueuedReceipt } from './view.ts'
import { Amount } from '../../ui/Amount.tsx'

const isTab = (v: string | null): v is ShopOrderTab => v !== null && (SHOP_ORDER_TABS as readonly string[]).includes(v)

/**
 * One order in the list: its lines, total, status and time; the express number once shipped; receipt
 * to confirm while pending receipt. Gold orders open /mall/orderDetail; device orders, which have no
 * detail route in SPEC, unfold their details in place.
 */
function OrderCard({ area, order, queued }: { area: OrderArea; order: ShopOrder; queued: QueuedReceipt | undefined }) {
  const t = useT()
  const [open, setOpen] = useState(false)
  return (
    <li className="card shop-order" data-testid="shop-order" data-id={order.id} data-status={order.status ?? ''} data-pending={queued ? 'true' : undefined}>
      <div className="row between gap">
        <span className="small muted mono ellipsis">{order.order_no}</span>
        <StatusBadge order={order} />
      </div>
      <OrderLines order={order} />
      <div className="order-sum">
        <span className="small muted" data-testid="shop-order-created">
          {formatDateTime(order.create_time, LANG_TAG[lang.value])}
        </span>
        <span className="small">
          {t('shopOrders.totalOf', { count: unitCount(order) })}{' '}
          <strong className="amount" data-testid="shop-order-total">
            <Amount value={order.total_price} measure={order.asset} />
          </strong>
        </span>
      </div>
      <ExpressRow order={order} />
      <ActivationCodes order={order} />
      {area === 'machine' && open && <OrderDetails order={order} />}
      <div className="order-actions">
        {area === 'gold' ? (
          <Link href={`/mall/orderDetail?id=${order.id}`} className="btn ghost small" data-testid="shop-order-open">
            {t('shopOrders.details')}
            <Icon name="chevron" size={16} />
          </Link>
        ) : (
          <button type="button" className="btn ghost small" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="shop-order-toggle">
            {open ? t('shopOrders.hideDetails') : t('shopOrders.details')}
          </button>
        )}
        <ReceiptControls area={area} order={order} queued={queued} />
      </div>
    </li>
  )
}

/**
 * The orders of one shop after payment, by the SPEC §4 tabs, 10 at a time with "load more". Shown from
 * the saved cache at once (offline too) with when it is from; `?status=<tab>` opens a tab. `queue` is
 * the outbox's confirmations of receipt (the screen reads it: useOutbox stays in the screens' chunks).
 */
export function OrderList({ area, title, queue }: { area: OrderArea; title: string; queue: readonly QueuedItem[] }) {
  useSignals()
  const t = useT()
  const asked = new URLSearchParams(useSearch()).get('status')
  const [tab, setTab] = useState<ShopOrderTab>(isTab(asked) ? asked : 'all')
  const q = useInfiniteQuery(shopOrderQueries.list(area, tab))
  const queued = queuedReceipts(queue, area)
  return (
    <main className="page">
      <TopBar title={title} back records={{ href: area === 'gold' ? '/shop/orderRelease?area=gold' : '/shop/orderRelease', label: t('release.title') }} />
      <div className="chips filter-row" role="tablist" aria-label={title}>
        {SHOP_ORDER_TABS.map((k) => (
          <button key={k} role="tab" aria-selected={k === tab} className={`chip ${k === tab ? 'gold' : ''}`} onClick={() => setTab(k)} data-testid={`shop-orders-tab-${k}`}>
            {t(`shopOrders.tab.${k}`)}
          </button>
        ))}
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList
        q={q}
        testId={`shop-orders-${tab}`}
        empty={t(`shopOrders.empty.${tab}`)}
        row={(o) => <OrderCard key={o.id} area={area} order={o} queued={queued.get(o.id)} />}
      />
    </main>
  )
}
