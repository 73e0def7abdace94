import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'

// Loans against a node's frozen stake (SPEC §1 "a lending (loan) plan linked from node detail", §7
// lending/list and lending/info; issue 11 part 6). USDT is lent from the platform's loans account into
// the fund account, up to the plan's loan-to-value of the stake; interest is added to the debt each
// settled day; the stake is not returned while a loan against it is open.

export const LoanPlan = Type.Object({
  id: Type.Integer(),
  /** Loan-to-value, percent of the stake one may owe. */
  ltv: Type.String(),
  /** Interest added to the debt each day, percent. */
  daily_rate: Type.String(),
  max_days: Type.Integer(),
})
export type LoanPlan = Static<typeof LoanPlan>

/** An active node one may borrow against: the stake, the open loans' debt against it, what is left. */
export const LoanCollateral = Type.Object({
  node_order_id: Type.Integer(),
  type: Type.Union([Type.Literal('elite'), Type.Literal('core'), Type.Literal('genesis')]),
  stake: Money,
  debt: Money,
  /** Per plan id: what one may still borrow against this node under that plan. */
  capacity: Type.Array(Type.Object({ plan_id: Type.Integer(), amount: Money })),
})
export type LoanCollateral = Static<typeof LoanCollateral>

export const Loan = Type.Object({
  id: Type.Integer(),
  plan_id: Type.Integer(),
  node_order_id: Type.Integer(),
  status: Type.Union([Type.Literal('open'), Type.Literal('repaid')]),
  principal: Money,
  interest: Money,
  repaid: Money,
  debt: Money,
  daily_rate: Type.String(),
  created_at: Millis,
  /** The end of the plan's term (UTC midnight); interest keeps being added after it until repaid. */
  due_at: Millis,
  repaid_at: Type.Union([Millis, Type.Null()]),
})
export type Loan = Static<typeof Loan>

export const LendingInfo = Type.Object({
  collateral: Type.Array(LoanCollateral),
  loans: Type.Array(Loan),
  /** What the open loans owe in all, USDT. */
  debt: Money,
  /** The caller's available USDT in the fund account, to repay from. */
  balance: Money,
})
export type LendingInfo = Static<typeof LendingInfo>

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })

export const BorrowBody = Type.Object({ plan_id: Id, node_order_id: Id, amount: Money }, { additionalProperties: false })
export type BorrowBody = Static<typeof BorrowBody>

export const RepayBody = Type.Object({ loan_id: Id, amount: Money }, { additionalProperties: false })
export type RepayBody = Static<typeof RepayBody>
