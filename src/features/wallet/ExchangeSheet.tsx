import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import type { Asset, Balances } from '../../../contract/wallet.ts'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { secondsLeft, useServerNow } from '../../lib/countdown.ts'
import { Sheet } from '../../ui/Sheet.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { toast } from '../../ui/toast.ts'
import { walletQueries } from './queries.ts'
import { useExchange } from './mutations.ts'
import { availableOf, otherAsset } from './balances.ts'
import { checkAmount, showAmount, units, type Problem } from './amount.ts'
import { AmountField, OfflineReason, SummaryRow } from './parts.tsx'

interface Asked {
  from: Asset
  to: Asset
  amount: string
}

/** NADI ↔ USDT from the fund account: an amount, a quote with its countdown, then confirm (issue 4 part 5). */
export function ExchangeSheet({ open, onClose, balances }: { open: boolean; onClose: () => void; balances: Balances | undefined }) {
  useSignals()
  const t = useT()
  const [from, setFrom] = useState<Asset>('USDT')
  const to = otherAsset(from)
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState<Problem>()
  const [asked, setAsked] = useState<Asked | null>(null)
  const available = availableOf(balances, from, 'fund')
  const quote = useQuery({ ...walletQueries.exchangeQuote(asked?.from ?? from, asked?.to ?? to, asked?.amount ?? '0'), enabled: open && asked !== null })
  const exchange = useExchange()
  const q = asked ? quote.data : undefined
  const now = useServerNow(q !== undefined)
  const left = q ? secondsLeft(q.expires_at, now) : 0
  const expired = q !== undefined && left === 0
  const isOnline = online.value

  const forget = () => {
    setAsked(null)
    setProblem(undefined)
  }
  const close = () => {
    forget()
    onClose()
  }

  function onQuote() {
    const c = checkAmount(amount, { asset: from, available })
    if (!c.ok) return setProblem(c.problem)
    setProblem(undefined)
    // The same amount asked again (after a refusal): ask the server again.
    if (asked && asked.from === from && asked.amount === c.wire) void quote.refetch()
    else setAsked({ from, to, amount: c.wire })
  }

  async function onConfirm() {
    if (!q || expired) return
    try {
      await exchange.mutateAsync({ quote_id: q.quote_id })
    } catch {
      // The server's words are already shown; a quote it refused is replaced by a fresh one.
      void quote.refetch()
      return
    }
    toast.success(t('exchange.success', { amount: showAmount(units(q.receive), q.to), asset: q.to }))
    setAmount('')
    close()
  }

  return (
    <Sheet open={open} onClose={close} title={t('exchange.title')}>
      <div className="stack form" data-testid="exchange-sheet">
        <div className="pair">
          <div className="pair-side">
            <span className="muted small">{t('exchange.from')}</span>
            <strong>{from}</strong>
          </div>
          <button
            type="button"
            className="icon-btn swap-btn"
            aria-label={t('exchange.swap')}
            onClick={() => {
              setFrom(to)
              forget()
            }}
          >
            <Icon name="transfer" />
          </button>
          <div className="pair-side right">
            <span className="muted small">{t('exchange.to')}</span>
            <strong>{to}</strong>
          </div>
        </div>
        <AmountField
          label={t('exchange.amount', { asset: from })}
          value={amount}
          onChange={(v) => {
            setAmount(v)
            forget()
          }}
          asset={from}
          max={available}
          available={available}
          problem={problem}
        />

        {q ? (
          <section className="quote" aria-live="polite" data-testid="exchange-quote">
            <SummaryRow label={t('exchange.receive')} strong>
              {showAmount(units(q.receive), q.to)} {q.to}
            </SummaryRow>
            <SummaryRow label={t('exchange.price')}>{t('exchange.priceValue', { price: showAmount(units(q.price), 'price') })}</SummaryRow>
            <SummaryRow label={t('exchange.fee')}>
              {showAmount(units(q.fee), q.fee_asset)} {q.fee_asset}
            </SummaryRow>
            <p className={`quote-timer small ${expired ? 'expired' : ''}`} role="timer">
              {expired || quote.isFetching ? t('exchange.refreshing') : t('exchange.expiresIn', { seconds: left })}
            </p>
          </section>
        ) : null}

        <OfflineReason />
        {q ? (
          <button className="btn primary block" disabled={!isOnline || expired || exchange.isPending || quote.isFetching} onClick={onConfirm}>
            {exchange.isPending ? t('exchange.exchanging') : t('exchange.confirm')}
          </button>
        ) : (
          <button className="btn primary block" disabled={!isOnline || (asked !== null && quote.isFetching)} onClick={onQuote}>
            {asked !== null && quote.isFetching ? t('exchange.quoting') : t('exchange.getQuote')}
          </button>
        )}
        <p className="muted small">{t('exchange.note')}</p>
      </div>
    </Sheet>
  )
}
