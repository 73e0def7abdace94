import { useEffect, useId, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useLocation, useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { PayOrder } from '../../../contract/orders.ts'
import { ApiFailure } from '../../api/client.ts'
import { online } from '../../api/online.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { confirm, ConfirmCancelled } from '../../ui/confirm.tsx'
import { toast } from '../../ui/toast.ts'
import { addressQueries } from '../address/queries.ts'
import { GoodsFacts } from '../goods/GoodsCard.tsx'
import { hasPower, linePower, lineTotal, showMoney } from '../goods/price.ts'
import { goodsQueries } from '../goods/queries.ts'
import { PaymentDialog } from '../payment/PaymentDialog.tsx'
import { OfflineReason, SummaryRow } from '../wallet/parts.tsx'
import { AddressPicker } from './AddressPicker.tsx'
import { confirmHref, DETAIL_PATH, ORDER_LIST_PATH, orderBody, parseConfirm, pickAddress, REMARK_MAX, remarkLength, remarkProblem, type ConfirmTarget } from './confirm.ts'
import { usePlaceOrder } from './mutations.ts'

/** Unpaid orders wait here (SPEC §2 /orders). */
const UNPAID_PATH = '/orders'

function ConfirmOrder({ target }: { target: ConfirmTarget }) {
  useSignals()
  const t = useT()
  const [, navigate] = useLocation()
  const remarkId = useId()
  const { area } = target
  const detail = useQuery(goodsQueries.detail(area, target.goodsId, lang.value))
  const d = detail.data
  const spec = d?.specs.find((s) => s.id === target.specId)
  const ships = d?.ships ?? false
  const addresses = useQuery({ ...addressQueries.list(), enabled: ships })
  const defaultAddress = useQuery({ ...addressQueries.defaultAddress(), enabled: ships })
  const [chosen, setChosen] = useState<number | undefined>(undefined)
  const [remark, setRemark] = useState('')
  const [addressError, setAddressError] = useState(false)
  const [placed, setPlaced] = useState<PayOrder | null>(null)
  const [paying, setPaying] = useState<PayOrder | null>(null)
  const paid = useRef(false)
  const place = usePlaceOrder()
  const isOnline = online.value

  // An address added on the way (the "add an address" round trip) is the one this order goes to.
  const seen = useRef<Set<number> | null>(null)
  useEffect(() => {
    const list = addresses.data
    if (!list) return
    const added = seen.current ? list.filter((a) => !seen.current!.has(a.id)) : []
    seen.current = new Set(list.map((a) => a.id))
    const newest = added.at(-1)
    if (newest) {
      setChosen(newest.id)
      setAddressError(false)
    }
  }, [addresses.data])

  const address = pickAddress(addresses.data, chosen, defaultAddress.data)
  const remarkErr = remarkProblem(remark)
  const here = confirmHref(target)

  if (!d) {
    return detail.isPending ? (
      <Pending query={detail} lines={8} />
    ) : detail.isError && !(detail.error instanceof ApiFailure && detail.error.status === 404) ? (
      <LoadFailed onRetry={() => detail.refetch()} />
    ) : (
      <Empty text={t('goods.notFound')} />
    )
  }
  if (!spec) return <Empty text={t('preOrder.specGone')} />

  const short = spec.stock < target.quantity
  const total = lineTotal(spec.price, target.quantity)

  /** SPEC §2: after the order, a popup asks whether to pay now — confirm opens the payment dialog; "Pay later" or a tap outside leaves it to /orders. */
  async function askToPay(order: PayOrder, resumed: boolean) {
    try {
      await confirm({ title: t(resumed ? 'preOrder.resumedTitle' : 'preOrder.placedTitle'), body: t('preOrder.placedBody', { orderNo: order.order_no, total: showMoney(order.total, order.asset), asset: order.asset }), confirmText: t('preOrder.payNow'), cancelText: t('preOrder.payLater') })
      setPaying(order)
    } catch (e) {
      if (!(e instanceof ConfirmCancelled)) throw e
      toast.info(t('preOrder.waiting'))
    }
  }

  async function onSubmit() {
    if (ships && !address) {
      setAddressError(true)
      return
    }
    if (remarkErr) return
    let placedNow: { order: PayOrder; resumed: boolean }
    try {
      placedNow = await place.mutateAsync(orderBody(target, { ships, addressId: address?.id, remark, shownTotal: total }))
    } catch {
      return // the server's words are already shown (a price that moved: the new total, the detail read again)
    }
    setPlaced(placedNow.order)
    await askToPay(placedNow.order, placedNow.resumed)
  }

  function onPaymentClosed() {
    setPaying(null)
    if (paid.current) {
      // Done with this order: a later visit to this screen starts a new one.
      setPlaced(null)
      paid.current = false
      navigate(ORDER_LIST_PATH[area], { replace: true })
    }
    else toast.info(t('preOrder.waiting'))
  }

  return (
    <>
      <Freshness updatedAt={detail.dataUpdatedAt} />
      {ships ? (
        <AddressPicker
          addresses={addresses.data}
          loading={addresses.isPending && defaultAddress.isPending}
          selected={address}
          onSelect={(id) => {
            setChosen(id)
            setAddressError(false)
          }}
          back={here}
          error={addressError && !address ? t('preOrder.addressRequired') : undefined}
        />
      ) : (
        <p className="callout small order-note" data-testid="order-no-shipping">
          {t('preOrder.noShipping')}
        </p>
      )}

      <section className="card order-item" data-testid="order-item">
        <Link href={DETAIL_PATH[area](d.id)} className="row gap order-product">
          <img src={d.cover} alt="" width={72} height={72} className="order-thumb" />
          <span className="stack-s grow">
            <strong className="clamp-2">{d.name}</strong>
            <span className="muted small">
              {spec.name} × {target.quantity}
            </span>
            <GoodsFacts item={{ power: '0', release: d.release }} />
          </span>
        </Link>
        <SummaryRow label={t('goods.unitPrice')}>{showMoney(spec.price)} USDT</SummaryRow>
        <SummaryRow label={t('goods.quantity')}>
          <span data-testid="order-quantity">{target.quantity}</span>
        </SummaryRow>
        {hasPower(spec.power) && <SummaryRow label={t('preOrder.power')}>{showMoney(linePower(spec.power, target.quantity), 'power')}</SummaryRow>}
        {short && (
          <p className="form-error small" role="alert">
            {spec.stock > 0 ? t('preOrder.onlyLeft', { stock: spec.stock }) : t('goods.soldOut')}
          </p>
        )}
        {area === 'gold' && <p className="muted small">{t('mall.priceNote')}</p>}
      </section>

      <section className="card">
        <label className={`field ${remarkErr ? 'invalid' : ''}`} htmlFor={remarkId}>
          <span className="row between">
            <span>{t('preOrder.remark')}</span>
            <small className={remarkLength(remark) > REMARK_MAX ? 'danger-text' : 'muted'}>
              {remarkLength(remark)}/{REMARK_MAX}
            </small>
          </span>
          <textarea
            id={remarkId}
            name="remark"
            rows={2}
            value={remark}
            maxLength={REMARK_MAX * 2}
            onChange={(e) => setRemark(e.target.value)}
            placeholder={t('preOrder.remarkPlaceholder')}
            data-testid="order-remark"
          />
          {remarkErr && (
            <small className="form-error" role="alert" data-field="remark">
              {t(remarkErr.key, remarkErr.params)}
            </small>
          )}
        </label>
      </section>

      <div className="bottom-action order-bar">
        <OfflineReason />
        {placed ? (
          <div className="stack-s order-placed" data-testid="order-placed" data-order={placed.id}>
            <span className="small">{t('preOrder.placedWaiting', { orderNo: placed.order_no })}</span>
            <div className="row gap">
              <Link href={UNPAID_PATH} className="btn ghost grow">
                {t('preOrder.unpaidOrders')}
              </Link>
              <button type="button" className="btn primary grow" disabled={!isOnline} onClick={() => setPaying(placed)} data-testid="order-pay">
                {t('preOrder.payNow')}
              </button>
            </div>
          </div>
        ) : (
          <div className="row gap order-submit">
            <span className="order-total">
              <small className="muted">{t('preOrder.total')}</small>
              <strong data-testid="order-total">
                {showMoney(total)} <small>USDT</small>
              </strong>
            </span>
            <button type="button" className="btn primary grow" disabled={!isOnline || place.isPending || short || !!remarkErr} onClick={onSubmit} data-testid="order-submit">
              {place.isPending ? t('preOrder.submitting') : t('preOrder.submit')}
            </button>
          </div>
        )}
      </div>

      {paying && (
        <PaymentDialog
          key={paying.id}
          order={paying}
          onClose={onPaymentClosed}
          onPaid={() => {
            paid.current = true
            toast.success(t('payment.paidToast'))
          }}
        />
      )}
    </>
  )
}

/**
 * /shop/orderConfirm and /mall/orderConfirm (SPEC §2; cars: /shop/orderConfirm?area=car): what is
 * bought, where it goes (address choice, or add one and come back), a remark, the total, and "Place
 * order"; then the pay-now popup and the payment dialog. The order is read from the address.
 */
export default function OrderConfirmScreen() {
  useSignals()
  const t = useT()
  const [path] = useLocation()
  const search = useSearch()
  // Kept alive while another screen shows (the address form): keep the order it was opened for.
  const last = useRef<ConfirmTarget | null>(null)
  const live = path.endsWith('/orderConfirm') ? parseConfirm(path, search) : last.current
  if (path.endsWith('/orderConfirm')) last.current = live
  const target = live
  const key = target ? `${target.area}:${target.goodsId}:${target.specId}:${target.quantity}` : 'none'

  return (
    <main className="page has-bottom-action order-confirm">
      <TopBar title={t('preOrder.title')} back />
      {target ? <ConfirmOrder key={key} target={target} /> : <Empty text={t('preOrder.missing')} />}
    </main>
  )
}
