// Loans against a node's frozen stake (SPEC §1 lending plan, §7 lending/list and lending/info; issue
// 11 part 6). Borrowing lends USDT from the platform's loans account into the borrower's fund account,
// up to the plan's loan-to-value of the stake less what the node's open loans already owe; each settled
// day (from the day after borrowing) adds floor(debt × daily rate) to the debt, recorded per day in
// loan_interest; a repayment (part or whole, never above the debt) moves USDT back to the loans
// account, and a loan owing nothing is repaid. The stake stays frozen while a loan against it is open
// (the node's stake-return step skips it). Past the plan's days interest keeps accruing; nothing is
// seized (the stake simply is not returned until the debt is paid).
import type { LendingInfo, Loan, LoanPlan } from '../../../contract/lending.ts'
import type { BorrowBody, RepayBody } from '../../../contract/lending.ts'
import { formatMoney, parseAmount } from '../../../contract/money.ts'
import { lastDayOf, termOf } from '../../../contract/term.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { badRequest, conflict, invalidField, notFound } from '../../http/errors.ts'
import * as ledger from '../../ledger/index.ts'
import { dayOf, dayStart } from '../release/schedule.ts'
import { onSettle } from '../settlement/service.ts'
import { borrowable, ppmPercent } from '../node/rules.ts'
import { holdActiveNode } from '../node/service.ts'

interface PlanRow {
  id: bigint
  ltv_ppm: bigint
  daily_rate_ppm: bigint
  max_days: bigint
  active: bigint
}
interface LoanRow {
  id: bigint
  user_id: bigint
  plan_id: bigint
  node_id: bigint
  status: 'open' | 'repaid'
  principal: bigint
  interest: bigint
  repaid: bigint
  debt: bigint
  daily_rate_ppm: bigint
  start_day: bigint
  due_day: bigint
  created_at: bigint
  repaid_at: bigint | null
}

type NodeOf = { id: bigint; user_id: bigint; amount: bigint; status: string }

const S = statements({
  plan: statement<PlanRow, [id: number]>('SELECT * FROM loan_plans WHERE id = ? AND active = 1'),
  node: statement<NodeOf, [id: number]>('SELECT id, user_id, amount, status FROM node_orders WHERE id = ?'),
  nodeDebt: statement<{ debt: bigint }, [nodeId: bigint]>("SELECT coalesce(sum(debt), 0) AS debt FROM loans WHERE node_id = ? AND status = 'open'"),
  loan: statement<LoanRow, [id: number | bigint]>('SELECT * FROM loans WHERE id = ?'),
  insert: statement<{ id: bigint }, [userId: number, planId: bigint, nodeId: bigint, principal: bigint, debt: bigint, ratePpm: bigint, startDay: number, dueDay: number, at: number]>(
    `INSERT INTO loans (user_id, plan_id, node_id, principal, debt, daily_rate_ppm, start_day, due_day, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ),
  repay: statement<never, [{ amount: bigint; at: number; id: bigint; seen: bigint }]>(`UPDATE loans SET repaid = repaid + @amount, debt = debt - @amount,
            status = CASE WHEN debt - @amount = 0 THEN 'repaid' ELSE status END,
            repaid_at = CASE WHEN debt - @amount = 0 THEN @at ELSE repaid_at END
          WHERE id = @id AND status = 'open' AND debt >= @amount AND repaid = @seen`),
  // A settled day's interest, set-based: floor(debt × rate / 1e6) without overflowing 64 bits.
  interest: statement<never, [{ day: number; end: number }]>(`INSERT INTO loan_interest (loan_id, day, amount)
             SELECT id, @day, (debt / 1000000) * daily_rate_ppm + ((debt % 1000000) * daily_rate_ppm) / 1000000
             FROM loans WHERE status = 'open' AND start_day <= @day AND created_at < @end
             ON CONFLICT DO NOTHING`),
  accrue: statement<never, [{ day: number }]>(`UPDATE loans SET interest = interest + li.amount, debt = debt + li.amount
           FROM loan_interest li WHERE li.day = @day AND li.loan_id = loans.id AND loans.status = 'open'`),
  userDebt: statement<{ debt: bigint }, [userId: number]>("SELECT coalesce(sum(debt), 0) AS debt FROM loans WHERE user_id = ? AND status = 'open'"),
})

/** What the lending screens read, outside any transaction. */
const READS = statements({
  plans: statement<PlanRow, []>('SELECT * FROM loan_plans WHERE active = 1 ORDER BY sort, id'),
  nodes: statement<{ id: bigint; amount: bigint; type: 'elite' | 'core' | 'genesis' }, [userId: number]>(
    "SELECT n.id, n.user_id, n.amount, n.status, t.type FROM node_orders n JOIN node_tiers t ON t.id = n.tier_id WHERE n.user_id = ? AND n.status = 'active' ORDER BY n.id",
  ),
  loans: statement<LoanRow, [userId: number]>("SELECT * FROM loans WHERE user_id = ? ORDER BY (status = 'open') DESC, id DESC LIMIT 100"),
})

const planWire = (p: PlanRow): LoanPlan => ({ id: Number(p.id), ltv: ppmPercent(p.ltv_ppm), daily_rate: ppmPercent(p.daily_rate_ppm), max_days: Number(p.max_days) })

const loanWire = (l: LoanRow): Loan => ({
  id: Number(l.id),
  plan_id: Number(l.plan_id),
  node_order_id: Number(l.node_id),
  status: l.status,
  principal: formatMoney(l.principal),
  interest: formatMoney(l.interest),
  repaid: formatMoney(l.repaid),
  debt: formatMoney(l.debt),
  daily_rate: ppmPercent(l.daily_rate_ppm),
  created_at: Number(l.created_at),
  due_at: dayStart(lastDayOf({ endDay: Number(l.due_day) })),
  repaid_at: l.repaid_at === null ? null : Number(l.repaid_at),
})

function amountOf(text: string): bigint {
  // The schema checked the format; what is left to refuse is more than the ledger holds.
  const a = parseAmount(text)
  if (a === null) throw invalidField('amount')
  if (a <= 0n) throw badRequest('errors.amountZero')
  return a
}

export type LendingService = ReturnType<typeof createLendingService>

export function createLendingService(ctx: Ctx) {
  async function info(userId: number): Promise<LendingInfo> {
    const plans = await ctx.sql.all(READS.plans)
    const nodes = await ctx.sql.all(READS.nodes, userId)
    const loans = await ctx.sql.all(READS.loans, userId)
    const debt = loans.filter((l) => l.status === 'open').reduce((a, l) => a + l.debt, 0n)
    const owing = await Promise.all(nodes.map(async (n) => (await ctx.sql.get(S.nodeDebt, n.id))!.debt))
    return {
      collateral: nodes.map((n, i) => {
        const owed = owing[i]!
        return {
          node_order_id: Number(n.id),
          type: n.type,
          stake: formatMoney(n.amount),
          debt: formatMoney(owed),
          capacity: plans.map((p) => ({ plan_id: Number(p.id), amount: formatMoney(borrowable(n.amount, p.ltv_ppm, owed)) })),
        }
      }),
      loans: loans.map(loanWire),
      debt: formatMoney(debt),
      balance: formatMoney((await ledger.balance(ctx.sql, ledger.fund(userId), 'USDT')).available),
    }
  }

  return {
    list: async (): Promise<LoanPlan[]> => (await ctx.sql.all(READS.plans)).map(planWire),
    info,

    async borrow(userId: number, body: BorrowBody): Promise<Loan> {
      const amount = amountOf(body.amount)
      // The answer is read in the borrow's own transaction, so a keyed request records it with the effect.
      return ctx.commits.write(async (tx) => {
        const plan = await tx.get(S.plan, body.plan_id)
        if (!plan) throw notFound('errors.loanPlanNotFound')
        const node = await tx.get(S.node, body.node_order_id)
        // Another user's node is as unknown as one that does not exist.
        if (!node || Number(node.user_id) !== userId) throw notFound('errors.nodeOrderNotFound')
        if (node.status !== 'active') throw conflict('errors.loanNodeNotActive')
        // Borrows against one node queue here and each reads the debt the previous one committed; without
        // it, borrows on two processes each read the debt without the other's loan and both pass the LTV.
        if (!(await holdActiveNode(tx, node.id))) throw conflict('errors.loanNodeNotActive')
        const owed = (await tx.get(S.nodeDebt, node.id))!.debt
        const left = borrowable(node.amount, plan.ltv_ppm, owed)
        if (amount > left) throw badRequest('errors.loanBeyondLimit', { amount: formatMoney(left) })
        if ((await ledger.balance(tx, ledger.LOANS, 'USDT')).available < amount) throw conflict('errors.loanFundsShort')
        const now = ctx.now()
        const term = termOf(dayOf(now), Number(plan.max_days))
        const loanId = (await tx.get(S.insert, userId, plan.id, node.id, amount, amount, plan.daily_rate_ppm, term.startDay, term.endDay, now))!.id
        try {
          await ledger.transfer(tx, { ref: `loan:${loanId}:borrow`, reason: 'loan_borrow', userId, from: ledger.LOANS, to: ledger.fund(userId), asset: 'USDT', amount, at: now, meta: { loan: loanId, node: node.id } })
        } catch (e) {
          // The loans account read enough above, but another borrow took it meanwhile: the ledger
          // refuses to go below zero, and the user is told as if it had been short at once.
          if (e instanceof ledger.InsufficientFunds) throw conflict('errors.loanFundsShort')
          throw e
        }
        return loanWire((await tx.get(S.loan, loanId))!)
      })
    },

    async repay(userId: number, body: RepayBody): Promise<Loan> {
      const amount = amountOf(body.amount)
      return ctx.commits.write(async (tx) => {
        const l = await tx.get(S.loan, body.loan_id)
        if (!l || Number(l.user_id) !== userId) throw notFound('errors.loanNotFound')
        if (l.status !== 'open') throw conflict('errors.loanRepaid')
        if (amount > l.debt) throw badRequest('errors.repayAboveDebt', { debt: formatMoney(l.debt) })
        const has = (await ledger.balance(tx, ledger.fund(userId), 'USDT')).available
        if (has < amount) throw badRequest('errors.amountAboveAvailable', { available: formatMoney(has), asset: 'USDT' })
        const now = ctx.now()
        // The ref carries what was repaid before: each repayment of a loan is its own posting.
        await ledger.transfer(tx, { ref: `loan:${l.id}:repay:${l.repaid}`, reason: 'loan_repay', userId, from: ledger.fund(userId), to: ledger.LOANS, asset: 'USDT', amount, at: now, meta: { loan: l.id } })
        // Only if nobody repaid since it was read: two repayments that read the same figure share the
        // posting's ref, so the second moved no money and must not lower the debt again.
        if ((await tx.run(S.repay, { amount, at: now, id: l.id, seen: l.repaid })).changes !== 1) throw conflict('errors.concurrentChange')
        return loanWire((await tx.get(S.loan, l.id))!)
      })
    },
  }
}

/** A settled day's interest on every open loan (from the day after borrowing), once per (loan, day). */
export async function accrueInterest(tx: Tx, day: number): Promise<void> {
  await tx.run(S.interest, { day, end: dayStart(day + 1) })
  await tx.run(S.accrue, { day })
}

export function registerLendingSteps(ctx: Pick<Ctx, 'sql'>): void {
  // Before the node steps' stake return reads the open loans (registration order is run order).
  onSettle(ctx, { name: 'loan-interest', run: (tx, day) => accrueInterest(tx, day) })
}

/** What the user's open loans owe now, USDT (the wallet counts it against what they hold). */
export async function openLoanDebt(q: Queryable, userId: number): Promise<bigint> {
  return (await q.get(S.userDebt, userId))?.debt ?? 0n
}
