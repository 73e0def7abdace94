import { useRef, useState, type FormEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import type { MiningInfo } from '../../../contract/mining.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { online } from '../../api/online.ts'
import { secondsLeft } from '../../lib/countdown.ts'
import { useT } from '../../i18n/index.ts'
import { toast } from '../../ui/toast.ts'
import { PaymentDialog } from '../payment/PaymentDialog.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { availableOf } from '../wallet/balances.ts'
import { AmountField, OfflineReason, SummaryRow } from '../wallet/parts.tsx'
import { useServerNow } from '../../lib/countdown.ts'
import { walletQueries } from '../wallet/queries.ts'
import { refreshAfterMiningPaid, useMiningOrder } from './mutations.ts'
import { miningQueries } from './queries.ts'
import { ASSET_OF, checkMiningAmount, orderBody, previewPower, type MiningKind } from './view.ts'

/**
 * Destroy (burn NADI) or joint mining (contribute USDT) for power: the amount checked as the server
 * checks it, the power it buys previewed, then an order to pay in the payment dialog. A money
 * action: off offline, saying why.
 */
export function MiningForm({ kind, info }: { kind: MiningKind; info: MiningInfo | undefined }) {
  useSignals()
  const t = useT()
  const qc = useQueryClient()
  const balances = useQuery(walletQueries.balances())
  const order = useMiningOrder(kind)
  // Joint mining is confirmed at a price the server locked for a while (issue 33 §4): shown with its
  // countdown, previewed at, and asked for again when it runs out.
  const quote = useQuery({ ...miningQueries.jointQuote(), enabled: kind === 'joint' && online.value })
  const q = kind === 'joint' ? quote.data : undefined
  const now = useServerNow(q !== undefined)
  const left = q ? secondsLeft(q.expires_at, now) : 0
  const quoteLive = q !== undefined && left > 0 && !quote.isFetching
  const [amount, setAmount] = useState('')
  const [tried, setTried] = useState(false)
  const [paying, setPaying] = useState<PayOrder | null>(null)
  const sending = useRef(false)
  const asset = ASSET_OF[kind]
  const available = availableOf(balances.data, asset, 'fund')
  const min = info ? units(kind === 'destroy' ? info.destroy_min : info.joint_min) : undefined
  const check = checkMiningAmount(kind, amount, { min, available })
  const terms = info && kind === 'joint' ? (q ? { ...info, nadi_price: q.price } : undefined) : info
  const preview = check.ok && terms ? previewPower(kind, check.units, terms) : null
  const isOnline = online.value

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setTried(true)
    // A second tap before the button shows it is busy (the pending state renders a tick later) would
    // send the order again: the ref knows at once.
    if (!check.ok || !info || !isOnline || sending.current || (kind === 'joint' && !quoteLive)) return
    sending.current = true
    try {
      setPaying(await order.mutateAsync(orderBody(kind, check.wire, q)))
      // A quote places one order: the next one is confirmed at a new price.
      if (kind === 'joint') void quote.refetch()
    } catch {
      // the server's words are already shown
    } finally {
      sending.current = false
    }
  }

  return (
    <>
      <form className="stack form" onSubmit={onSubmit} noValidate data-testid={`mining-form-${kind}`}>
        <section className="card stack">
          <SummaryRow label={t('mining.minimum')}>
            <span data-testid="mining-min">{min === undefined ? '—' : `${showAmount(min, asset)} ${asset}`}</span>
          </SummaryRow>
          <SummaryRow label={t('mining.multiplier')}>{info ? `${kind === 'destroy' ? info.destroy_multiplier : info.joint_multiplier}×` : '—'}</SummaryRow>
          <SummaryRow label={t('mining.giftPercent')}>{info ? `${info.gift_percent}%` : '—'}</SummaryRow>
          {kind === 'joint' && (
            <>
              <SummaryRow label={t('mining.nadiPrice')}>
                <span data-testid="mining-quote-price">{q ? `${showAmount(units(q.price), 'price')} USDT` : '—'}</span>
              </SummaryRow>
              <p className={`quote-timer small ${q && !quoteLive ? 'expired' : ''}`} role="timer" data-testid="mining-quote-timer">
                {q && quoteLive ? t('mining.priceLocked', { seconds: left }) : t('mining.priceRefreshing')}
              </p>
            </>
          )}
        </section>
        <AmountField
          label={t(kind === 'destroy' ? 'mining.destroyAmount' : 'mining.jointAmount')}
          value={amount}
          onChange={setAmount}
          asset={asset}
          max={available}
          available={available}
          problem={tried && !check.ok ? check.problem : undefined}
        />
        <section className="card stack" aria-live="polite">
          <SummaryRow label={t('mining.buyPower')}>
            <span className="amount"><span data-testid="mining-preview-power">{preview ? showAmount(preview.power, 'power') : '—'}</span> <small className="muted">{t('mining.powerUnit')}</small></span>
          </SummaryRow>
          <SummaryRow label={t('mining.giftPower')}>
            <span className="amount"><span data-testid="mining-preview-gift">{preview ? showAmount(preview.gift, 'power') : '—'}</span> <small className="muted">{t('mining.powerUnit')}</small></span>
          </SummaryRow>
          <SummaryRow label={t('mining.totalPower')} strong>
            <span className="amount"><span data-testid="mining-preview-total">{preview ? showAmount(preview.total, 'power') : '—'}</span> <small className="muted">{t('mining.powerUnit')}</small></span>
          </SummaryRow>
          <p className="small muted">{t(kind === 'destroy' ? 'mining.howDestroy' : 'mining.howJoint', { release: info?.release_percent ?? '—' })}</p>
        </section>
        <OfflineReason />
        <button className="btn primary block" type="submit" disabled={!isOnline || order.isPending || !info || (kind === 'joint' && !quoteLive)} data-testid={`mining-submit-${kind}`}>
          {order.isPending ? t('mining.sending') : t(kind === 'destroy' ? 'mining.submitDestroy' : 'mining.submitJoint')}
        </button>
      </form>
      {paying && (
        <PaymentDialog
          key={paying.id}
          order={paying}
          onClose={() => {
            setPaying(null)
            void refreshAfterMiningPaid(qc)
          }}
          onPaid={() => {
            setAmount('')
            setTried(false)
            toast.success(t('mining.paid'))
            void refreshAfterMiningPaid(qc)
          }}
        />
      )}
    </>
  )
}
