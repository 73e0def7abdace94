import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { ChainKey } from '../../../contract/recharge.ts'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { Sheet } from '../../ui/Sheet.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { toast } from '../../ui/toast.ts'
import { walletQueries } from '../wallet/queries.ts'
import { availableOf } from '../wallet/balances.ts'
import { maxAmount, showAmount, units } from '../wallet/amount.ts'
import { AmountField, Chips, OfflineReason, ProblemText, SummaryRow, useChainName } from '../wallet/parts.tsx'
import { withdrawQueries } from './queries.ts'
import { useWithdraw } from './mutations.ts'
import { validateWithdraw, withdrawTotals } from './validation.ts'
import { useMoneyPushes } from '../wallet/live.ts'
import { isString, useDraft } from '../../app/drafts.ts'

interface Review {
  chain: ChainKey
  address: string
  amount: string
  units: bigint
}

/** /withdraw: NADI only, to a checksummed address, at least the minimum, the fee on top (SPEC §5, DESIGN §7). */
export default function WithdrawScreen() {
  useMoneyPushes()
  useSignals()
  const t = useT()
  const chainName = useChainName()
  const [, navigate] = useLocation()
  const cfg = useQuery(withdrawQueries.config())
  const balances = useQuery(walletQueries.balances())
  const withdraw = useWithdraw()
  // Kept through an expired login: signing in again brings the form back as typed.
  const [chain, setChain, clearChain] = useDraft<ChainKey | undefined>('withdraw.chain', undefined, (v): v is ChainKey => isString(v) && v.length <= 16)
  const [address, setAddress, clearAddress] = useDraft('withdraw.address', '', isString)
  const [amount, setAmount, clearAmount] = useDraft('withdraw.amount', '', isString)
  const [tried, setTried] = useState(false)
  const [review, setReview] = useState<Review | null>(null)
  const isOnline = online.value

  const c = cfg.data
  const chosen = chain ?? c?.chains[0]
  const available = availableOf(balances.data, 'NADI', 'fund')
  const fee = units(c?.fee)
  const min = units(c?.min)
  const check = validateWithdraw({ address, amount }, { available, min, fee })
  const errors = tried ? check.errors : {}
  const totals = check.ok ? withdrawTotals(check.ok.units, fee) : null

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    if (!check.ok || !chosen || !isOnline) return
    setReview({ chain: chosen, ...check.ok })
  }

  async function onConfirm() {
    if (!review) return
    try {
      await withdraw.mutateAsync({ coin: 'NADI', chain: review.chain, amount: review.amount, address: review.address })
    } catch {
      return // the server's words are already shown; the summary stays open to try again
    }
    setReview(null)
    clearChain()
    clearAddress()
    clearAmount()
    setTried(false)
    toast.success(t('withdraw.submitted'))
    navigate('/withdraw/list')
  }

  return (
    <main className="page">
      <TopBar
        title={t('withdraw.title')}
        back
        records={{ href: '/withdraw/list', label: t('withdraw.listTitle') }}
      />
      {balances.data && <Freshness updatedAt={balances.dataUpdatedAt} />}
      {cfg.isPending ? (
        <Pending query={cfg} lines={6} />
      ) : cfg.isError || !c ? (
        <LoadFailed onRetry={() => cfg.refetch()} />
      ) : c.chains.length === 0 ? (
        <Empty text={t('withdraw.unavailable')} />
      ) : (
        <form className="stack form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <span>{t('withdraw.coin')}</span>
            <div className="row gap-s">
              <span className="chip gold" data-testid="withdraw-coin">
                {c.coin}
              </span>
              <small className="muted">{t('withdraw.nadiOnly')}</small>
            </div>
          </div>
          <Chips label={t('withdraw.chain')} options={c.chains} value={chosen} onPick={setChain} name={chainName} />
          <label className={`field ${errors.address ? 'invalid' : ''}`}>
            <span>{t('withdraw.address')}</span>
            <input
              name="address"
              className="mono"
              value={address}
              onChange={(e) => setAddress(e.target.value.trim())}
              placeholder={t('withdraw.addressPlaceholder')}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={42}
            />
            <ProblemText problem={errors.address} field="address" />
          </label>
          <AmountField
            label={t('withdraw.amount')}
            value={amount}
            onChange={setAmount}
            asset="NADI"
            max={available === undefined ? undefined : maxAmount(available, fee)}
            available={available}
            problem={errors.amount}
          />
          <section className="callout rules">
            <SummaryRow label={t('withdraw.fee')}>{showAmount(fee, 'NADI')} NADI</SummaryRow>
            <SummaryRow label={t('withdraw.min')}>{showAmount(min, 'NADI')} NADI</SummaryRow>
            <SummaryRow label={t('withdraw.arrival')}>{t('recharge.confirmations', { count: c.confirmations })}</SummaryRow>
            {totals && (
              <SummaryRow label={t('withdraw.total')} strong>
                {showAmount(totals.total, 'NADI')} NADI
              </SummaryRow>
            )}
          </section>
          <OfflineReason />
          <button className="btn primary block" type="submit" disabled={!isOnline || withdraw.isPending}>
            {t('withdraw.submit')}
          </button>
        </form>
      )}

      <Sheet open={review !== null} onClose={() => !withdraw.isPending && setReview(null)} title={t('withdraw.confirmTitle')} center closable={!withdraw.isPending}>
        {review && (
          <div className="stack" data-testid="withdraw-review">
            <div>
              <SummaryRow label={t('withdraw.amount')}>{showAmount(review.units, 'NADI')} NADI</SummaryRow>
              <SummaryRow label={t('withdraw.fee')}>{showAmount(fee, 'NADI')} NADI</SummaryRow>
              <SummaryRow label={t('withdraw.receive')} strong>
                {showAmount(withdrawTotals(review.units, fee).receive, 'NADI')} NADI
              </SummaryRow>
              <SummaryRow label={t('withdraw.total')}>{showAmount(withdrawTotals(review.units, fee).total, 'NADI')} NADI</SummaryRow>
              <SummaryRow label={t('withdraw.chain')}>{chainName(review.chain)}</SummaryRow>
            </div>
            <div>
              <span className="muted small">{t('withdraw.address')}</span>
              <p className="mono deposit-address">{review.address}</p>
            </div>
            <p className="warn-note small" role="note">
              <Icon name="warning" size={18} />
              <span>{t('withdraw.irreversible')}</span>
            </p>
            <OfflineReason />
            <div className="row gap">
              <button className="btn ghost grow" onClick={() => setReview(null)} disabled={withdraw.isPending}>
                {t('common.cancel')}
              </button>
              <button className="btn primary grow" onClick={onConfirm} disabled={!isOnline || withdraw.isPending}>
                {withdraw.isPending ? t('withdraw.sending') : t('withdraw.confirm')}
              </button>
            </div>
          </div>
        )}
      </Sheet>
    </main>
  )
}
