// Loans against a node's frozen stake over HTTP (issue 11 part 6): plans, the borrowing capacity,
// a loan beyond it refused, daily interest added by the settlement once per day, repayment in part
// and whole (never above the debt), another user's ids answered as unknown, and the stake kept past
// its term while a loan is open. Every amount through the ledger; the audit passes after each test.

import { describe, expect, it } from 'vitest'
import { parseUnits } from 'ethers'
import { idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { LendingInfo, Loan, LoanPlan } from '../../contract/lending.ts'
import type { MyNode, NodeConfig } from '../../contract/node.ts'
import type { PayOrder } from '../../contract/orders.ts'
import { translate } from '../../server/i18n.ts'
import { LOANS, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { settleDue } from '../../server/modules/settlement/service.ts'

const YEARS = String(10 * 365 * 86_400_000)
const start = useServers({ env: { NADI_SESSION_IDLE_MS: YEARS, NADI_SESSION_MAX_AGE_MS: YEARS, NADI_GOLD_WALK_MS: '0', NADI_TRIAL_POWER: '0' } }, { audited: true })
const API = '/api/v1'
const DAY = 86_400_000
const units = (n: string) => parseUnits(n, 8)
let refs = 0
const credit = (s: TestServer, userId: number, amount: string) =>
  transfer(s.ctx.sql, { ref: `test:lending:${++refs}`, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: units(amount) })
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
const get = <T>(s: TestServer, who: SignedIn, path: string) => s.get<T>(`${API}/${path}`, { token: who.token, lang: 'EN' })
const post = <T>(s: TestServer, who: SignedIn, path: string, body: unknown) => s.post<T>(`${API}/${path}`, body, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const usdt = (s: TestServer, userId: number) => balance(s.ctx.sql, fund(userId), 'USDT')

/** A signed-in user holding a paid core node (stake 5000 USDT): the node's id. */
async function coreHolder(s: TestServer): Promise<{ who: SignedIn; node: number }> {
  const who = await s.signIn()
  await credit(s, who.userId, '5000')
  const core = (await get<NodeConfig>(s, who, 'node/config')).body_.data.tiers.find((t) => t.type === 'core')!
  const order = (await post<PayOrder>(s, who, 'node/buy', { node_id: core.id })).body_.data
  expect((await post(s, who, 'orders/payByBalance', { id: order.id })).statusCode).toBe(200)
  const node = (await post<PagedList<MyNode>>(s, who, 'node/getOrder', {})).body_.data.list[0]!
  return { who, node: node.id }
}

describe('loans against a node', () => {
  it('lists the plans and the capacity; borrows up to LTV × stake, refuses beyond it, and interest accrues daily', async () => {
    const s = await start()
    const { who, node } = await coreHolder(s)
    const plans = (await get<LoanPlan[]>(s, who, 'lending/list')).body_.data
    expect(plans.map((p) => [p.ltv, p.daily_rate, p.max_days])).toEqual([
      ['50', '0.05', 30],
      ['70', '0.08', 90],
    ])
    const plan = plans[0]!
    const info = (await get<LendingInfo>(s, who, 'lending/info')).body_.data
    expect(info.collateral).toEqual([{ node_order_id: node, type: 'core', stake: '5000', debt: '0', capacity: [{ plan_id: plans[0]!.id, amount: '2500' }, { plan_id: plans[1]!.id, amount: '3500' }] }])
    expect(info).toMatchObject({ loans: [], debt: '0', balance: '0' })

    const loansBefore = (await balance(s.ctx.sql, LOANS, 'USDT')).available
    const beyond = await post(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '2500.00000001' })
    expect(beyond.statusCode).toBe(400)
    expect(beyond.body_.msg).toBe(msg('errors.loanBeyondLimit', { amount: '2500' }))
    for (const [amount, status] of [['0', 400], ['1.123456789', 400], ['-1', 400], ['abc', 400]] as const) {
      expect((await post(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount })).statusCode).toBe(status)
    }
    expect((await post(s, who, 'lending/borrow', { plan_id: 999, node_order_id: node, amount: '1' })).statusCode).toBe(404)
    expect(await s.count('SELECT count(*) FROM loans')).toBe(0)
    expect((await usdt(s, who.userId)).available).toBe(0n)

    const loan = await post<Loan>(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '2000' })
    expect(loan.statusCode).toBe(200)
    expect(loan.body_.data).toMatchObject({ status: 'open', principal: '2000', debt: '2000', interest: '0', daily_rate: '0.05' })
    // A 30-day loan is due on the 30th day after the day it is taken (11/26 → 12/26).
    expect(loan.body_.data.due_at).toBe((Math.floor(s.clock.now() / DAY) + 30) * DAY)
    expect(await usdt(s, who.userId)).toEqual({ available: units('2000'), frozen: units('5000') })
    expect((await balance(s.ctx.sql, LOANS, 'USDT')).available).toBe(loansBefore - units('2000'))
    const after = (await get<LendingInfo>(s, who, 'lending/info')).body_.data
    expect(after.collateral[0]!.capacity[0]!.amount).toBe('500')
    expect(after.debt).toBe('2000')
    // The other plan's limit counts the same node's debt.
    const over = await post(s, who, 'lending/borrow', { plan_id: plans[1]!.id, node_order_id: node, amount: '1500.00000001' })
    expect(over.body_.msg).toBe(msg('errors.loanBeyondLimit', { amount: '1500' }))

    // Interest from the day after borrowing: 0.05 % of the debt a day, on the debt as it grows.
    s.clock.advance(DAY)
    await settleDue(s.ctx)
    expect(await s.count('SELECT count(*) FROM loan_interest')).toBe(0)
    s.clock.advance(2 * DAY)
    await settleDue(s.ctx)
    const l = (await get<LendingInfo>(s, who, 'lending/info')).body_.data.loans[0]!
    expect(l).toMatchObject({ interest: '2.0005', debt: '2002.0005' })
    expect(await s.count('SELECT count(*) FROM loan_interest')).toBe(2)
    expect(await settleDue(s.ctx)).toEqual([])
    expect(await s.count('SELECT count(*) FROM loan_interest')).toBe(2)
    expect((await post<PagedList<MyNode>>(s, who, 'node/getOrder', {})).body_.data.list[0]!.loan_debt).toBe('2002.0005')
  })

  it('repays in part and whole, never above the debt; another user’s loan and node are unknown', async () => {
    const s = await start()
    const { who, node } = await coreHolder(s)
    const stranger = await coreHolder(s)
    const plan = (await get<LoanPlan[]>(s, who, 'lending/list')).body_.data[0]!
    const loan = (await post<Loan>(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '1000' })).body_.data

    const theirs = await post(s, stranger.who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '1' })
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body_.msg).toBe(msg('errors.nodeOrderNotFound'))
    await credit(s, stranger.who.userId, '10')
    const repayTheirs = await post(s, stranger.who, 'lending/repay', { loan_id: loan.id, amount: '1' })
    expect(repayTheirs.statusCode).toBe(404)
    expect(repayTheirs.body_.msg).toBe(msg('errors.loanNotFound'))
    expect((await post(s, who, 'lending/repay', { loan_id: 999, amount: '1' })).statusCode).toBe(404)

    const above = await post(s, who, 'lending/repay', { loan_id: loan.id, amount: '1000.00000001' })
    expect(above.statusCode).toBe(400)
    expect(above.body_.msg).toBe(msg('errors.repayAboveDebt', { debt: '1000' }))
    expect((await post(s, who, 'lending/repay', { loan_id: loan.id, amount: '1', extra: 1 })).statusCode).toBe(400)
    expect((await usdt(s, who.userId)).available).toBe(units('1000'))

    const part = await post<Loan>(s, who, 'lending/repay', { loan_id: loan.id, amount: '400' })
    expect(part.body_.data).toMatchObject({ status: 'open', repaid: '400', debt: '600' })
    expect((await usdt(s, who.userId)).available).toBe(units('600'))
    // More than the balance holds: refused with the balance named.
    await transfer(s.ctx.sql, { ref: `test:lending:out:${++refs}`, reason: 'withdraw', from: fund(who.userId), to: custody('bsc'), asset: 'USDT', amount: units('100') })
    const short = await post(s, who, 'lending/repay', { loan_id: loan.id, amount: '600' })
    expect(short.statusCode).toBe(400)
    expect(short.body_.msg).toBe(msg('errors.amountAboveAvailable', { available: '500', asset: 'USDT' }))
    await credit(s, who.userId, '100')
    const whole = await post<Loan>(s, who, 'lending/repay', { loan_id: loan.id, amount: '600' })
    expect(whole.body_.data).toMatchObject({ status: 'repaid', repaid: '1000', debt: '0' })
    expect(whole.body_.data.repaid_at).not.toBeNull()
    const again = await post(s, who, 'lending/repay', { loan_id: loan.id, amount: '1' })
    expect(again.statusCode).toBe(409)
    expect(again.body_.msg).toBe(msg('errors.loanRepaid'))
  })

  it('keeps the stake past its term while a loan is open, and returns it the day after the loan is repaid', async () => {
    const s = await start()
    const { who, node } = await coreHolder(s)
    const plan = (await get<LoanPlan[]>(s, who, 'lending/list')).body_.data[0]!
    const loan = (await post<Loan>(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '100' })).body_.data
    s.clock.advance(272 * DAY) // the 270-day term ended
    await settleDue(s.ctx)
    const held = (await post<PagedList<MyNode>>(s, who, 'node/getOrder', {})).body_.data.list[0]!
    expect(held).toMatchObject({ status: 'active', days_left: 0 })
    expect((await usdt(s, who.userId)).frozen).toBe(units('5000'))
    const debt = (await get<LendingInfo>(s, who, 'lending/info')).body_.data.loans[0]!.debt
    expect(Number(debt)).toBeGreaterThan(100)
    await credit(s, who.userId, '50')
    expect((await post<Loan>(s, who, 'lending/repay', { loan_id: loan.id, amount: debt })).body_.data.status).toBe('repaid')
    s.clock.advance(DAY)
    await settleDue(s.ctx)
    expect((await post<PagedList<MyNode>>(s, who, 'node/getOrder', {})).body_.data.list[0]!.status).toBe('returned')
    expect((await usdt(s, who.userId)).frozen).toBe(0n)
    // A returned node is no collateral any more.
    expect((await get<LendingInfo>(s, who, 'lending/info')).body_.data.collateral).toEqual([])
    const refused = await post(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '1' })
    expect(refused.statusCode).toBe(409)
    expect(refused.body_.msg).toBe(msg('errors.loanNodeNotActive'))
  })
  it('a drained loans account refuses a borrow within the limit with 409 loanFundsShort, writing nothing', async () => {
    const s = await start()
    const { who, node } = await coreHolder(s)
    const plan = (await get<LoanPlan[]>(s, who, 'lending/list')).body_.data[0]!
    const left = (await balance(s.ctx.sql, LOANS, 'USDT')).available
    await transfer(s.ctx.sql, { ref: 'test:lending:drain', reason: 'withdraw', from: LOANS, to: custody('bsc'), asset: 'USDT', amount: left - units('1') })
    const refused = await post(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '2' })
    expect(refused.statusCode).toBe(409)
    expect(refused.body_.msg).toBe(msg('errors.loanFundsShort'))
    expect(await s.count('SELECT count(*) FROM loans')).toBe(0)
    expect((await usdt(s, who.userId)).available).toBe(0n)
    expect((await balance(s.ctx.sql, LOANS, 'USDT')).available).toBe(units('1'))
    const lent = await post<Loan>(s, who, 'lending/borrow', { plan_id: plan.id, node_order_id: node, amount: '1' })
    expect(lent.statusCode).toBe(200)
    expect((await balance(s.ctx.sql, LOANS, 'USDT')).available).toBe(0n)
  })
})
