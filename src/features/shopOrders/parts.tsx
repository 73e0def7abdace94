// The pieces both order screens draw: the product lines, the express row, the receipt controls, and
// the full details (an expanded device card, and /mall/orderDetail).
import type { ReactNode } from 'react'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { OrderLine, ShopOrder } from '../../../contract/preOrder.ts'
import { failureReason } from '../../api/failure.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDate, formatDateTime } from '../../lib/format.ts'
import { confirmed } from '../../ui/confirm.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { toast } from '../../ui/toast.ts'
import { ReleaseProgress, ReleaseStatusBadge } from '../release/ReleaseCard.tsx'
import { useCancelQueuedReceipt, useConfirmReceipt } from './mutations.ts'
import type { OrderArea } from './queries.ts'
import { canConfirm, orderTimes, statusTone, type QueuedReceipt } from './view.ts'
import { Amount } from '../../ui/Amount.tsx'

export function StatusBadge({ order }: { order: Pick<ShopOrder, 'status'> }) {
  const t = useT()
  if (order.status === null) return null
  return (
    <span className={`badge ${statusTone(order.status)}`} data-testid="shop-order-status">
      {t(`shopOrders.status.${order.status}`)}
    </span>
  )
}

function Line({ line, asset }: { line: OrderLine; asset: string }) {
  const t = useT()
  return (
    <li className="order-line" data-testid="shop-order-line">
      {line.cover ? <img className="thumb" src={line.cover} alt="" width={56} height={56} loading="lazy" /> : <span className="thumb" />}
      <div className="grow">
        <strong className="clamp-2">{line.name}</strong>
        <span className="small muted">{t('shopOrders.spec', { spec: line.spec_name })}</span>
      </div>
      <div className="order-line-price">
        <span className="small">
          <Amount value={line.unit_price} measure={asset} />
        </span>
        <span className="small muted" data-testid="shop-order-qty">
          ×{line.quantity}
        </span>
      </div>
    </li>
  )
}

export function OrderLines({ order }: { order: ShopOrder }) {
  return (
    <ul className="order-lines">
      {order.lines.map((l) => (
        <Line key={`${l.goods_id}:${l.spec_id}`} line={l} asset={order.asset} />
      ))}
    </ul>
  )
}

/** The carrier and tracking number, with a copy button (SPEC §8 "copy failed, copy manually" when refused). */
export function ExpressRow({ order }: { order: ShopOrder }) {
  const t = useT()
  if (!order.express_no) return null
  return (
    <div className="order-express" data-testid="shop-order-express">
      <span className="muted small">{t('shopOrders.express')}</span>
      <span className="order-express-value">
        <span>{order.express_company}</span>{' '}
        <span className="mono" data-testid="shop-order-express-no">
          {order.express_no}
        </span>
        <CopyButton text={order.express_no} label={t('shopOrders.copyNo')} />
      </span>
    </div>
  )
}

/**
 * The demo's activation codes, one per device: a real order carries them in the box; the demo, which
 * ships by itself, shows them here so the buyer can activate the devices under Mining.
 */
export function ActivationCodes({ order }: { order: ShopOrder }) {
  const t = useT()
  const codes = order.activation_codes ?? []
  if (codes.length === 0) return null
  return (
    <div className="order-express" data-testid="shop-order-codes">
      <span className="muted small">{t('shopOrders.activationCodes')}</span>
      <ul className="order-express-value">
        {codes.map((c) => (
          <li key={c.device_id} data-testid="shop-order-code" data-device={c.device_id}>
            <span className="mono">{c.code}</span> <CopyButton text={c.code} label={t('shopOrders.copyCode')} />
          </li>
        ))}
      </ul>
      <p className="small muted">{t('shopOrders.activationCodesDemo')}</p>
    </div>
  )
}

/** "Confirm receipt" (asked first), or the confirmation waiting in the outbox: pending, or refused with the server's words. */
export function ReceiptControls({ area, order, queued }: { area: OrderArea; order: ShopOrder; queued: QueuedReceipt | undefined }) {
  const t = useT()
  const receive = useConfirmReceipt(area)
  const undo = useCancelQueuedReceipt()

  async function onConfirm() {
    if (!(await confirmed({ title: t('shopOrders.receiptTitle'), body: t('shopOrders.receiptBody', { orderNo: order.order_no }), confirmText: t('shopOrders.confirmReceipt') }))) return
    try {
      const r = await receive.mutateAsync(order.id)
      if (r.queued) toast.info(t('shopOrders.receiptQueued'))
      else if (r.result?.already) toast.info(r.result.already)
      else toast.success(t('shopOrders.receiptDone'))
    } catch (e) {
      // The server's reason alone ("not shipped"), not "request failed" above it: the toast says what failed.
      toast.error(t('shopOrders.receiptFailed', { reason: failureReason(e, t) }))
    }
  }

  if (queued) {
    return (
      <div className="order-queued" data-testid="shop-order-queued" data-state={queued.state}>
        <div className="row between gap">
          {queued.state === 'failed' ? (
            <span className="badge red">{t('shopOrders.receiptNotSent')}</span>
          ) : (
            <span className="badge muted-badge">{t('shopOrders.receiptPending')}</span>
          )}
          {queued.state !== 'sending' && (
            <button type="button" className="btn ghost small" onClick={() => undo.mutate(queued.outboxId)} data-testid="shop-order-undo">
              {queued.state === 'failed' ? t('outbox.discard') : t('outbox.cancel')}
            </button>
          )}
        </div>
        {queued.state === 'failed' && queued.error && (
          <p className="form-error small" role="alert">
            {queued.error}
          </p>
        )}
      </div>
    )
  }
  if (!canConfirm(order, queued)) return null
  return (
    <button type="button" className="btn primary small" onClick={onConfirm} disabled={receive.isPending} data-testid="shop-order-receive">
      {receive.isPending ? t('shopOrders.confirming') : t('shopOrders.confirmReceipt')}
    </button>
  )
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="order-row" data-testid={testId}>
      <dt className="muted small">{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** Everything about an order beyond its card: number, address, remark, times, automatic confirmation, release. */
export function OrderDetails({ order }: { order: ShopOrder }) {
  const t = useT()
  const locale = LANG_TAG[lang.value]
  return (
    <div className="order-details" data-testid="shop-order-details">
      <dl className="order-rows">
        <Row label={t('shopOrders.orderNo')}>
          <span className="mono">{order.order_no}</span>
        </Row>
        {order.ship_to && (
          <Row label={t('shopOrders.shipTo')} testId="shop-order-address">
            <span>
              {order.ship_to.name} <span className="mono muted">{order.ship_to.phone}</span>
            </span>
            <span className="small muted order-address">
              {order.ship_to.area} {order.ship_to.address}
            </span>
          </Row>
        )}
        <Row label={t('shopOrders.remark')} testId="shop-order-remark">
          {order.remark || <span className="muted">{t('shopOrders.noRemark')}</span>}
        </Row>
        {orderTimes(order).map(({ key, at }) => (
          <Row key={key} label={t(`shopOrders.time.${key}`)} testId={`shop-order-time-${key}`}>
            <span className="mono small">{formatDateTime(at, locale)}</span>
          </Row>
        ))}
        {order.status === 'pending_receipt' && order.auto_confirm_at !== null && (
          <Row label={t('shopOrders.autoConfirm')} testId="shop-order-auto-confirm">
            <span className="small">{t('shopOrders.autoConfirmOn', { date: formatDate(order.auto_confirm_at, locale) })}</span>
          </Row>
        )}
      </dl>
      {order.release && (
        <section className="order-release" data-testid="shop-order-release">
          <div className="row between">
            <h3>{t('shopOrders.release')}</h3>
            <ReleaseStatusBadge plan={order.release} />
          </div>
          <ReleaseProgress plan={order.release} />
        </section>
      )}
    </div>
  )
}
