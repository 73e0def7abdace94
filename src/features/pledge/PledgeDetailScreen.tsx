import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { PledgeMode } from '../../../contract/pledgeRules.ts'
import { ApiFailure } from '../../api/client.ts'
import { online } from '../../api/online.ts'
import { lang, useT } from '../../i18n/index.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { toast } from '../../ui/toast.ts'
import { walletQueries } from '../wallet/queries.ts'
import { availableOf } from '../wallet/balances.ts'
import { checkAmount, showAmount, units } from '../wallet/amount.ts'
import { Amount } from '../../ui/Amount.tsx'
import { AmountField, Chips, OfflineReason, SummaryRow } from '../wallet/parts.tsx'
import { pledgeQueries } from './queries.ts'
import { usePledge } from './mutations.ts'
import { estimateIncome, offeredModes, pledgeQuote } from './view.ts'
import { confirmed } from '../../ui/confirm.tsx'
import { formatReleaseDay } from '../release/progress.ts'
import { LANG_TAG } from '../../../contract/constants.ts'

const day = (ms: number) => formatReleaseDay(ms, LANG_TAG[lang.value])

/** /pledge/detail/{id}: a product's terms and the pledge form. Pledging freezes NADI: online only. */
export default function PledgeDetailScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  const [, navigate] = useLocation()
  const id = Number(params.id)
  const q = useQuery(pledgeQueries.product(id))
  const balances = useQuery(walletQueries.balances())
  const pledge = usePledge()
  const [picked, setMode] = useState<PledgeMode | undefined>(undefined)
  const [amount, setAmount] = useState('')
  const [tried, setTried] = useState(false)
  const p = q.data
  const modes = p ? offeredModes(p) : []
  const mode = picked && modes.includes(picked) ? picked : modes[0]
  const available = availableOf(balances.data, 'NADI', 'fund')
  const left = p ? units(p.left) : undefined
  const max = available !== undefined && left !== undefined ? (available < left ? available : left) : undefined
  const check = checkAmount(amount, { asset: 'NADI', available, min: p ? units(p.min_pledge) : undefined })
  const overCapacity = check.ok && left !== undefined && check.units > left
  const problem = tried ? (!check.ok ? check.problem : overCapacity ? { key: 'pledge.overCapacity', params: { left: showAmount(left, 'NADI') } } : undefined) : undefined
  const isOnline = online.value
  const notFound = q.isError && q.error instanceof ApiFailure && (q.error.status === 404 || q.error.status === 400)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    if (!p || !mode || !check.ok || overCapacity || !isOnline) return
    // Freezing NADI for a term is agreed to first, with its terms, as an order on /trade is.
    const q = pledgeQuote(p, mode, check.units, Date.now())
    const agreed = await confirmed({
      title: t('pledge.confirm.title'),
      terms: [
        { id: 'amount', label: t('pledge.confirm.amount'), value: `${showAmount(q.amount, 'NADI')} NADI` },
        { id: 'rate', label: t('pledge.confirm.rate'), value: t(q.mode === 'day' ? 'pledge.confirm.rateDay' : 'pledge.confirm.rateMonth', { rate: q.rate }) },
        { id: 'term', label: t('pledge.confirm.term'), value: t('pledge.confirm.termValue', { days: q.days, start: day(q.startAt), end: day(q.lastAt) }) },
        { id: 'income', label: t('pledge.confirm.income'), value: `${showAmount(q.income, 'NADI')} NADI` },
        { id: 'frozen', label: t('pledge.confirm.frozen'), value: t('pledge.confirm.frozenValue', { amount: showAmount(q.amount, 'NADI'), date: day(q.returnAt) }) },
      ],
      body: t('pledge.confirm.body'),
      confirmText: t('pledge.submit'),
    })
    if (!agreed) return
    try {
      await pledge.mutateAsync({ product_id: p.id, amount: check.wire, mode })
    } catch {
      return // the server's words are already shown
    }
    toast.success(t('pledge.success', { amount: showAmount(check.units, 'NADI') }))
    navigate('/pledge?tab=mine')
  }

  return (
    <main className="page">
      <TopBar title={p?.name ?? t('pledge.detailTitle')} back records={{ href: '/pledge?tab=mine', label: t('pledge.tab.mine') }} />
      {notFound || !(id > 0) ? (
        <Empty text={t('pledge.notFound')} />
      ) : q.isPending ? (
        <Pending query={q} lines={8} />
      ) : !p ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <form className="stack form" onSubmit={onSubmit} noValidate data-testid="pledge-form">
          <section className="card stack" aria-label={p.name}>
            <SummaryRow label={t('pledge.term')}>{t('pledge.days', { days: p.day })}</SummaryRow>
            {p.day_periods > 0 && <SummaryRow label={t('pledge.dayRate')}>{p.day_rate}%</SummaryRow>}
            {p.month_periods > 0 && <SummaryRow label={t('pledge.monthRate')}>{p.month_rate}%</SummaryRow>}
            <SummaryRow label={t('pledge.minPledge')}>{showAmount(units(p.min_pledge), 'NADI')} NADI</SummaryRow>
            <SummaryRow label={t('pledge.capacity')}>
              <span data-testid="pledge-left">{t('pledge.left', { left: showAmount(units(p.left), 'NADI'), total: showAmount(units(p.total_pledge), 'NADI') })}</span>
            </SummaryRow>
            <SummaryRow label={t('pledge.powerPool')}>
              <Amount value={p.power_pool} measure="power" unit={t('mining.powerUnit')} />
            </SummaryRow>
          </section>
          <Chips label={t('pledge.mode')} options={modes} value={mode} onPick={setMode} name={(m) => t(`pledge.modeName.${m}`)} />
          <AmountField label={t('pledge.amount')} value={amount} onChange={setAmount} asset="NADI" max={max} available={available} problem={problem} />
          <section className="card stack">
            <SummaryRow label={t('pledge.estimate')}>
              <span data-testid="pledge-estimate">{mode && check.ok ? showAmount(estimateIncome(p, mode, check.units), 'NADI') : '—'} NADI</span>
            </SummaryRow>
            <p className="small muted">{t(mode === 'month' ? 'pledge.howMonth' : 'pledge.howDay', { days: p.day })}</p>
          </section>
          <OfflineReason />
          <button className="btn primary block" type="submit" disabled={!isOnline || pledge.isPending || !mode} data-testid="pledge-submit">
            {pledge.isPending ? t('pledge.sending') : t('pledge.submit')}
          </button>
        </form>
      )}
    </main>
  )
}
