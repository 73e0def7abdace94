import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { Loan, LoanPlan } from '../../../contract/lending.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { online } from '../../api/online.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending, pendingOf } from '../../ui/States.tsx'
import { toast } from '../../ui/toast.ts'
import { formatReleaseDay } from '../release/progress.ts'
import { checkAmount, showAmount, units } from '../wallet/amount.ts'
import { AmountField, Chips, OfflineReason, SummaryRow } from '../wallet/parts.tsx'
import { useBorrow, useRepay } from './mutations.ts'
import { loanQueries } from './queries.ts'
import { capacityOf, loanQuote } from './view.ts'
import { confirmed } from '../../ui/confirm.tsx'
import { Figure } from '../../ui/Figure.tsx'

const day = (ms: number) => formatReleaseDay(ms, LANG_TAG[lang.value])

function PlanCard({ p }: { p: LoanPlan }) {
  const t = useT()
  return (
    <li className="card node-figures loan-plan" data-testid="loan-plan" data-id={p.id}>
      <Figure label={t('loan.ltv')}>{p.ltv}%</Figure>
      <Figure label={t('loan.dailyRate')}>{p.daily_rate}%</Figure>
      <Figure label={t('loan.maxDays')}>{t('node.days', { days: p.max_days })}</Figure>
    </li>
  )
}

/** The borrow form: a node of the caller's, a plan, an amount up to what is left under it. */
function BorrowForm({ plans, nodes, capacity }: { plans: LoanPlan[]; nodes: { id: number; label: string; stake: bigint }[]; capacity: (node: number | undefined, plan: number | undefined) => string }) {
  useSignals()
  const t = useT()
  const borrow = useBorrow()
  const [node, setNode] = useState<string | undefined>(undefined)
  const [plan, setPlan] = useState<string | undefined>(undefined)
  const [amount, setAmount] = useState('')
  const [tried, setTried] = useState(false)
  const nodeId = Number(node ?? nodes[0]?.id)
  const planId = Number(plan ?? plans[0]?.id)
  const left = units(capacity(nodeId, planId))
  const check = checkAmount(amount, { asset: 'USDT' })
  const beyond = check.ok && check.units > left
  const problem = tried ? (!check.ok ? check.problem : beyond ? { key: 'loan.beyond', params: { amount: showAmount(left, 'USDT') } } : undefined) : undefined
  const isOnline = online.value

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    const chosen = plans.find((p) => p.id === planId)
    if (!check.ok || beyond || !isOnline || !chosen) return
    // Money moves on this tap: the terms are agreed first, as an order on /trade is.
    const q = loanQuote(chosen, nodes.find((n) => n.id === nodeId)?.stake ?? 0n, check.units, Date.now())
    const agreed = await confirmed({
      title: t('loan.confirm.title'),
      terms: [
        { id: 'amount', label: t('loan.confirm.amount'), value: `${showAmount(q.amount, 'USDT')} USDT` },
        { id: 'rate', label: t('loan.confirm.rate'), value: t('loan.confirm.rateValue', { rate: q.dailyRate, interest: showAmount(q.dailyInterest, 'USDT') }) },
        { id: 'term', label: t('loan.confirm.term'), value: t('node.days', { days: q.days }) },
        { id: 'due', label: t('loan.confirm.due'), value: day(q.dueAt) },
        { id: 'frozen', label: t('loan.confirm.frozen'), value: t('loan.confirm.frozenValue', { stake: showAmount(q.stake, 'USDT') }) },
      ],
      body: t('loan.confirm.body'),
      confirmText: t('loan.borrow'),
    })
    if (!agreed) return
    try {
      await borrow.mutateAsync({ plan_id: planId, node_order_id: nodeId, amount: check.wire })
    } catch {
      return
    }
    toast.success(t('loan.borrowed', { amount: showAmount(check.units, 'USDT') }))
    setAmount('')
    setTried(false)
  }

  return (
    <form className="card stack form" onSubmit={onSubmit} noValidate data-testid="borrow-form">
      <strong>{t('loan.borrowTitle')}</strong>
      <Chips label={t('loan.node')} options={nodes.map((n) => String(n.id))} value={String(nodeId)} onPick={setNode} name={(v) => nodes.find((n) => String(n.id) === v)?.label ?? v} />
      <Chips label={t('loan.plan')} options={plans.map((p) => String(p.id))} value={String(planId)} onPick={setPlan} name={(v) => { const p = plans.find((x) => String(x.id) === v); return p ? t('loan.planName', { ltv: p.ltv, rate: p.daily_rate }) : v }} />
      <AmountField label={t('loan.amount')} name="borrow" value={amount} onChange={setAmount} asset="USDT" max={left} available={left} problem={problem} />
      <SummaryRow label={t('loan.capacity')}>
        <span data-testid="loan-capacity">{showAmount(left, 'USDT')} USDT</span>
      </SummaryRow>
      <button className="btn primary block" type="submit" disabled={!isOnline || borrow.isPending || left === 0n} data-testid="borrow-submit">
        {borrow.isPending ? t('loan.sending') : t('loan.borrow')}
      </button>
    </form>
  )
}

/** One loan: what it owes, and a repay form while open (up to the debt, from the fund account). */
function LoanCard({ l, balance }: { l: Loan; balance: bigint }) {
  useSignals()
  const t = useT()
  const repay = useRepay()
  const [amount, setAmount] = useState('')
  const [tried, setTried] = useState(false)
  const debt = units(l.debt)
  const check = checkAmount(amount, { asset: 'USDT', available: balance })
  const above = check.ok && check.units > debt
  const problem = tried ? (!check.ok ? check.problem : above ? { key: 'loan.aboveDebt', params: { debt: showAmount(debt, 'USDT') } } : undefined) : undefined
  const isOnline = online.value

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    if (!check.ok || above || !isOnline) return
    try {
      await repay.mutateAsync({ loan_id: l.id, amount: check.wire })
    } catch {
      return
    }
    toast.success(t('loan.repaidToast', { amount: showAmount(check.units, 'USDT') }))
    setAmount('')
    setTried(false)
  }

  return (
    <li className="card stack" data-testid="loan" data-id={l.id} data-status={l.status}>
      <div className="row gap">
        <strong className="grow">{t('loan.loanNo', { id: l.id })}</strong>
        <span className={`badge ${l.status === 'open' ? 'gold' : 'teal'}`}>{t(`loan.status.${l.status}`)}</span>
      </div>
      <SummaryRow label={t('loan.principal')}>{showAmount(units(l.principal), 'USDT')} USDT</SummaryRow>
      <SummaryRow label={t('loan.interest')}>{showAmount(units(l.interest), 'USDT')} USDT</SummaryRow>
      <SummaryRow label={t('loan.repaid')}>{showAmount(units(l.repaid), 'USDT')} USDT</SummaryRow>
      <SummaryRow label={t('loan.debt')} strong>
        <span data-testid="loan-debt">{showAmount(debt, 'USDT')} USDT</span>
      </SummaryRow>
      <p className="small muted">{t('loan.dates', { from: day(l.created_at), due: day(l.due_at), rate: l.daily_rate })}</p>
      {l.status === 'open' && (
        <form className="stack form" onSubmit={onSubmit} noValidate data-testid="repay-form">
          <AmountField label={t('loan.repayAmount')} name={`repay-${l.id}`} value={amount} onChange={setAmount} asset="USDT" max={balance < debt ? balance : debt} available={balance} problem={problem} />
          <button className="btn block" type="submit" disabled={!isOnline || repay.isPending} data-testid="repay-submit">
            {repay.isPending ? t('loan.sending') : t('loan.repay')}
          </button>
        </form>
      )}
    </li>
  )
}

/** /loan (SPEC §2, linked from node detail): the plans, what the caller's nodes let them borrow, their loans. */
export default function LoanScreen() {
  const t = useT()
  const plans = useQuery(loanQueries.plans())
  const info = useQuery(loanQueries.info())
  const failed = (plans.isError && !plans.data) || (info.isError && !info.data)
  return (
    <main className="page">
      <TopBar title={t('loan.title')} back />
      {plans.isPending || info.isPending ? (
        <Pending query={pendingOf(plans, info)} lines={8} />
      ) : failed || !plans.data || !info.data ? (
        <LoadFailed onRetry={() => void Promise.all([plans.refetch(), info.refetch()])} />
      ) : (
        <>
          <Freshness updatedAt={Math.min(plans.dataUpdatedAt, info.dataUpdatedAt)} />
          <p className="small muted">{t('loan.intro')}</p>
          <ul className="records" data-testid="loan-plans">
            {plans.data.map((p) => (
              <PlanCard key={p.id} p={p} />
            ))}
          </ul>
          <section className="card stack">
            <SummaryRow label={t('loan.totalDebt')} strong>
              <span data-testid="loan-total-debt">{showAmount(units(info.data.debt), 'USDT')} USDT</span>
            </SummaryRow>
            <SummaryRow label={t('loan.balance')}>{showAmount(units(info.data.balance), 'USDT')} USDT</SummaryRow>
          </section>
          {info.data.collateral.length === 0 ? (
            <section className="card stack" data-testid="loan-no-node">
              <p>{t('loan.noNode')}</p>
              <Link href="/node" className="btn primary block">
                {t('loan.toNodes')}
              </Link>
            </section>
          ) : plans.data.length === 0 ? (
            <Empty text={t('loan.noPlans')} />
          ) : (
            <BorrowForm
              plans={plans.data}
              nodes={info.data.collateral.map((c) => ({ id: c.node_order_id, label: t('loan.nodeLabel', { type: t(`node.type.${c.type}`), stake: showAmount(units(c.stake), 'USDT') }), stake: units(c.stake) }))}
              capacity={(n, p) => capacityOf(info.data, n, p)}
            />
          )}
          <OfflineReason />
          <h2 className="section-title">{t('loan.mine')}</h2>
          {info.data.loans.length === 0 ? (
            <Empty text={t('loan.noLoans')} />
          ) : (
            <ul className="records" data-testid="loans">
              {info.data.loans.map((l) => (
                <LoanCard key={l.id} l={l} balance={units(info.data.balance)} />
              ))}
            </ul>
          )}
        </>
      )}
    </main>
  )
}
