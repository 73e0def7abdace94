// Loan screen helpers. Pure; tested in tests/unit/node/rules.test.ts and tests/unit/loan/view.test.ts.
import type { LendingInfo, LoanPlan } from '../../../contract/lending.ts'
import { lastDayOf, termOf } from '../../../contract/term.ts'
import { DAY_MS, percentToPpm, periodIncome } from '../../../contract/pledgeRules.ts'

/** What one may still borrow against a node under a plan, as the server computed it ("0" when unknown). */
export function capacityOf(info: LendingInfo | undefined, nodeId: number | undefined, planId: number | undefined): string {
  const c = info?.collateral.find((x) => x.node_order_id === nodeId)
  return c?.capacity.find((x) => x.plan_id === planId)?.amount ?? '0'
}

/** What the borrow confirm shows before anything is lent: the terms of a loan taken at `now`. */
export interface LoanQuote {
  amount: bigint
  /** Interest added to the debt each day, percent, as the plan states it. */
  dailyRate: string
  /** The first day's interest on the amount, floored to the unit as the settlement adds it. */
  dailyInterest: bigint
  days: number
  /** When the loan is due: the start (UTC midnight, ms) of its last day, as the server shows it. */
  dueAt: number
  /** The node's stake, which stays frozen while the loan is open. */
  stake: bigint
}

export function loanQuote(plan: Pick<LoanPlan, 'daily_rate' | 'max_days'>, stake: bigint, amount: bigint, now: number): LoanQuote {
  const dueDay = lastDayOf(termOf(Math.floor(now / DAY_MS), plan.max_days))
  return {
    amount,
    dailyRate: plan.daily_rate,
    dailyInterest: periodIncome(amount, percentToPpm(plan.daily_rate) ?? 0n),
    days: plan.max_days,
    dueAt: dueDay * DAY_MS,
    stake,
  }
}
