import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { MarketInfo, Order, OrderType, Side } from '../../../contract/trade.ts'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { confirmed } from '../../ui/confirm.tsx'
import { toast } from '../../ui/toast.ts'
import { showAmount } from '../wallet/amount.ts'
import { NumberField, OfflineReason, SummaryRow } from '../wallet/parts.tsx'
import { checkOrder, estimate, fieldsOf, marketRules, orderSummary, PERCENTS, percentFill, spendAsset } from './form.ts'
import { rateText } from './market.ts'
import { usePlaceOrder } from './mutations.ts'
import { fillToTell } from './fills.ts'
import type { OrderFormState } from './useOrderForm.ts'

interface Props {
  market: MarketInfo
  form: OrderFormState
  /** What the trade account can spend of USDT and NADI, in units; undefined while unknown. */
  available: { USDT: bigint | undefined; NADI: bigint | undefined }
  /** Best ask and best bid, to estimate a market order with. */
  best: { ask: bigint | undefined; bid: bigint | undefined }
  /** The market is halted: nothing can be placed (HaltedNote says why). */
  paused?: boolean
}

const SIDES: readonly Side[] = ['buy', 'sell']
const TYPES: readonly OrderType[] = ['limit', 'market']

/** Buy or sell, limit or market, with the rules of MarketInfo checked before anything is sent. */
export function OrderForm({ market, form, available, best, paused = false }: Props) {
  useSignals()
  const t = useT()
  const place = usePlaceOrder()
  const { draft, tried } = form
  const isOnline = online.value
  const asset = spendAsset(draft.side)
  const ctx = {
    rules: marketRules(market),
    available: available[asset],
    refPrice: draft.side === 'buy' ? best.ask : best.bid,
  }
  const check = checkOrder(draft, ctx)
  const errors = tried ? check.errors : {}
  const est = estimate(draft, ctx)
  const fields = fieldsOf(draft.side, draft.type)
  const avail = available[asset]

  function onPercent(pct: number) {
    const fill = percentFill(pct, draft, ctx)
    if (fill.ok) form.setField(fill.field, fill.text)
    else toast.info(t(fill.problem.key, fill.problem.params))
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    form.setTried(true)
    const req = check.request
    if (!req || !isOnline) return
    const summary = orderSummary(req)
    if (!(await confirmed({ title: t(`trade.confirm.title.${req.side}`), body: t(summary.key, summary.params), confirmText: t(`trade.form.submit.${req.side}`) }))) return
    let order: Order
    try {
      order = await place.mutateAsync(req)
    } catch {
      return // the server's words are already shown; the same press again reuses this order's id
    }
    // Filled at once: told here, unless its push was faster and told it already.
    if (order.status !== 'filled' || fillToTell(order)) toast.success(t(`trade.placed.${order.status}`))
    form.clearAmounts()
  }

  return (
    <form className="order-form stack" onSubmit={onSubmit} noValidate data-testid="order-form" data-side={draft.side}>
      <div className="side-switch" role="group" aria-label={t('trade.form.side')}>
        {SIDES.map((s) => (
          <button key={s} type="button" className={`side-btn ${s} ${draft.side === s ? 'active' : ''}`} aria-pressed={draft.side === s} onClick={() => form.setSide(s)}>
            {t(`trade.side.${s}`)}
          </button>
        ))}
      </div>
      <div className="type-switch" role="group" aria-label={t('trade.form.type')}>
        {TYPES.map((ty) => (
          <button key={ty} type="button" className={`chip ${draft.type === ty ? 'gold' : ''}`} aria-pressed={draft.type === ty} onClick={() => form.setType(ty)}>
            {t(`trade.type.${ty}`)}
          </button>
        ))}
      </div>

      {fields.includes('price') ? (
        <NumberField compact label={t('trade.form.price')} name="price" unit="USDT" value={draft.price} onChange={(v) => form.setField('price', v)} problem={errors.price} placeholder={t('trade.form.pricePlaceholder')} />
      ) : (
        <div className="field">
          <span className="small muted">{t('trade.form.price')}</span>
          <span className="market-price muted">{t('trade.form.marketPrice')}</span>
        </div>
      )}
      {fields.includes('size') && (
        <NumberField compact label={t('trade.form.size')} name="size" unit="NADI" value={draft.size} onChange={(v) => form.setField('size', v)} problem={errors.size} placeholder={t('trade.form.sizePlaceholder')} />
      )}
      {fields.includes('amount') && (
        <NumberField compact label={t('trade.form.amount')} name="amount" unit="USDT" value={draft.amount} onChange={(v) => form.setField('amount', v)} problem={errors.amount} placeholder={t('trade.form.amountPlaceholder')} />
      )}

      <div className="percents" role="group" aria-label={t('trade.form.percentOf')}>
        {PERCENTS.map((p) => (
          <button key={p} type="button" className="chip" onClick={() => onPercent(p)} disabled={avail === undefined}>
            {p}%
          </button>
        ))}
      </div>

      <div className="avail-row small">
        <span className="muted">{t('trade.form.available')}</span>
        <span className="mono" data-testid="trade-available">
          {avail === undefined ? '—' : showAmount(avail, asset)} {asset}
        </span>
        <Link href={`/draw?asset=${asset}`} className="transfer-link" data-testid="trade-transfer-link">
          {t('trade.form.transferIn')}
        </Link>
      </div>

      <div className="callout rules">
        <SummaryRow label={est.approx ? t('trade.form.totalApprox') : t('trade.form.total')}>
          <span data-testid="trade-total">{est.total === null ? '—' : `${showAmount(est.total, 'USDT')} USDT`}</span>
        </SummaryRow>
        {est.size !== null && <SummaryRow label={t('trade.form.sizeApprox')}>{showAmount(est.size, 'NADI')} NADI</SummaryRow>}
        <SummaryRow label={t('trade.form.feeRate')}>{t('trade.form.fees', { maker: rateText(market.maker_fee), taker: rateText(market.taker_fee) })}</SummaryRow>
      </div>

      <OfflineReason />
      <button className={`btn block submit-${draft.side}`} type="submit" disabled={!isOnline || paused || place.isPending} data-testid="place-order">
        {place.isPending ? t('trade.form.placing') : paused ? t('trade.halted.title') : t(`trade.form.submit.${draft.side}`)}
      </button>
    </form>
  )
}
