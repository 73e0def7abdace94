import { describe, expect, it } from 'vitest'
import type { PayOrder, PaymentState, PayTarget } from '../../../contract/orders.ts'
import { WalletError } from '../../../src/wallet/errors.ts'
import {
  canUseBalance,
  FlowFailure,
  flowErrorOf,
  initialFlow,
  reduce,
  shortfall,
  stepsShown,
  stepStatuses,
  viewOf,
  type FlowEvent,
  type FlowState,
} from '../../../src/features/payment/paymentFlow.ts'

const ME = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'
const HASH = '0x' + 'ab'.repeat(32)
const HASH2 = '0x' + 'cd'.repeat(32)
const U = 100_000_000n // one whole coin in units

const BSC: PayTarget = { chain: 'bsc', chain_id: 56, token: '0x3333333333333333333333333333333333333333', to: '0x4444444444444444444444444444444444444444', confirmations: 3 }
const NADI: PayTarget = { chain: 'nadi', chain_id: 7777, token: '0x5555555555555555555555555555555555555555', to: '0x6666666666666666666666666666666666666666', confirmations: 2 }

function order(over: Partial<PayOrder> = {}): PayOrder {
  return {
    id: 7,
    order_no: 'P20250101000007',
    type: 'device',
    title: 'Tablet miner',
    asset: 'USDT',
    total: '100',
    status: 'pending_payment',
    created_at: 0,
    expires_at: 30 * 60_000,
    payment: null,
    ...over,
  }
}

function payment(over: Partial<PaymentState> = {}): PaymentState {
  return { method: 'chain', status: 'pending', chain: 'bsc', tx_hash: HASH, confirmations: 0, required: 3, fail_msg: null, ...over }
}

const run = (s: FlowState, ...events: FlowEvent[]) => events.reduce(reduce, s)

/** A fresh dialog whose balance is short, through to a connected wallet of the signed-in user. */
function connected(targets: PayTarget[] = [BSC], address = ME): FlowState {
  return run(
    initialFlow(order()),
    { type: 'balanceLoaded', available: 40n * U },
    { type: 'context', expected: ME, targets },
    { type: 'useWallet' },
    { type: 'connect' },
    { type: 'connected', address, chainId: 1 },
  )
}

/** …then authorized on BSC: ready to send. */
const ready = () => run(connected(), { type: 'approve' }, { type: 'approved', address: ME, chainId: 56 })

describe('payment flow: step 1, check balance', () => {
  it('starts at the balance check and waits for the balance', () => {
    const s = initialFlow(order())
    expect(s.step).toBe('checkBalance')
    expect(viewOf(s)).toEqual({ kind: 'loading' })
    expect(stepStatuses(s).checkBalance).toBe('current')
  })

  it('a balance that covers the total offers paying from it, and paying from balance completes at once', () => {
    let s = reduce(initialFlow(order()), { type: 'balanceLoaded', available: 100n * U })
    expect(viewOf(s)).toMatchObject({ kind: 'payOptions', enough: true })
    expect(shortfall(s)).toBeNull()
    s = reduce(s, { type: 'payBalance' })
    expect(viewOf(s)).toEqual({ kind: 'payingBalance' })
    s = reduce(s, { type: 'balancePaid', order: order({ status: 'paid', payment: payment({ method: 'balance', status: 'paid', chain: null, tx_hash: null }) }) })
    expect(s.paid).toBe(true)
    expect(viewOf(s)).toEqual({ kind: 'paid' })
    const st = stepStatuses(s)
    expect(st.checkBalance).toBe('done')
    expect(st.processPayment).toBe('done')
  })

  it("a payment from balance lists the balance check and the payment only, never the wallet's steps", () => {
    let s = reduce(initialFlow(order()), { type: 'balanceLoaded', available: 100n * U })
    // Before a way to pay is chosen: the balance is checked (done), the choice waits below it.
    expect(stepsShown(s)).toEqual(['checkBalance'])
    expect(stepStatuses(s).checkBalance).toBe('done')
    s = reduce(s, { type: 'payBalance' })
    expect(stepsShown(s)).toEqual(['checkBalance', 'processPayment'])
    expect(stepStatuses(s).processPayment).toBe('current')
    expect(stepsShown(reduce(s, { type: 'balancePaid', order: order({ status: 'paid' }) }))).toEqual(['checkBalance', 'processPayment'])
    // Choosing the wallet lists all six.
    expect(stepsShown(reduce(reduce(initialFlow(order()), { type: 'balanceLoaded', available: 0n }), { type: 'useWallet' }))).toHaveLength(6)
  })

  it('a short balance shows the current and required amounts and offers the wallet, never the balance', () => {
    const s = reduce(initialFlow(order({ asset: 'NADI', total: '250.5' })), { type: 'balanceLoaded', available: 12n * U })
    expect(viewOf(s)).toMatchObject({ kind: 'payOptions', enough: false, current: '12', required: '250.5' })
    expect(shortfall(s)).toEqual({ key: 'payment.insufficient', params: { asset: 'NADI', current: '12', required: '250.5' } })
    expect(reduce(s, { type: 'payBalance' })).toBe(s)
    const w = reduce(s, { type: 'useWallet' })
    expect(w.step).toBe('connectWallet')
    expect(stepStatuses(w).checkBalance).toBe('done')
  })

  it("the server's refusal of a balance payment is shown in its own words and can be retried", () => {
    let s = run(initialFlow(order()), { type: 'balanceLoaded', available: 100n * U }, { type: 'payBalance' })
    s = reduce(s, { type: 'balanceRefused', error: { text: 'Insufficient NADI: current 1, required 100' } })
    expect(viewOf(s)).toEqual({ kind: 'failed', error: { text: 'Insufficient NADI: current 1, required 100' }, canRetry: true })
    expect(stepStatuses(s).processPayment).toBe('failed')
    // A balance refresh does not hide the refusal…
    s = reduce(s, { type: 'balanceLoaded', available: 1n * U })
    expect(s.error).not.toBeNull()
    // …the retry does, and shows the fresh balance.
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toMatchObject({ kind: 'payOptions', enough: false })
    expect(stepsShown(s)).toEqual(['checkBalance'])
  })

  it('a balance that cannot be loaded says so and the retry waits for it again', () => {
    let s = reduce(initialFlow(order()), { type: 'balanceFailed' })
    expect(viewOf(s)).toMatchObject({ kind: 'failed', error: { key: 'payment.balanceLoadFailed' } })
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'loading' })
    s = reduce(s, { type: 'balanceLoaded', available: 0n })
    expect(viewOf(s)).toMatchObject({ kind: 'payOptions', enough: false })
  })
})

describe('payment flow: steps 2–4, wallet and authorization', () => {
  it('the signed-in wallet on a single target chain goes straight to the authorization prompt', () => {
    const s = connected()
    expect(s.step).toBe('confirmAuthorization')
    expect(s.chain).toBe('bsc')
    expect(viewOf(s)).toEqual({ kind: 'approve' })
    const st = stepStatuses(s)
    expect([st.checkBalance, st.connectWallet, st.checkAuthorization, st.confirmAuthorization]).toEqual(['done', 'done', 'done', 'current'])
  })

  it('an account check waits for the user data and the pay targets when the wallet connects first', () => {
    let s = run(initialFlow(order()), { type: 'balanceLoaded', available: 0n }, { type: 'useWallet' }, { type: 'connect' }, { type: 'connected', address: ME, chainId: 56 })
    expect(s.step).toBe('checkAuthorization')
    expect(viewOf(s)).toEqual({ kind: 'loading' })
    s = reduce(s, { type: 'context', expected: ME.toUpperCase().replace('0X', '0x'), targets: [BSC] })
    expect(s.step).toBe('confirmAuthorization')
  })

  it('a wallet that is not the signed-in account is stopped before paying, and the retry connects again', () => {
    let s = connected([BSC], OTHER)
    expect(s.step).toBe('checkAuthorization')
    expect(viewOf(s)).toEqual({ kind: 'failed', error: { key: 'payment.wrongAccount', params: { actual: '0x2222…2222', expected: '0x1111…1111' } }, canRetry: true })
    expect(reduce(s, { type: 'approve' })).toBe(s)
    expect(reduce(s, { type: 'send' })).toBe(s)
    s = reduce(s, { type: 'retry' })
    expect(s.step).toBe('connectWallet')
    expect(s.wallet).toBeNull()
    s = run(s, { type: 'connect' }, { type: 'connected', address: ME, chainId: 56 })
    expect(s.step).toBe('confirmAuthorization')
  })

  it('several target chains wait for the user to choose one: the step waits for them, it is not "in progress"', () => {
    let s = connected([BSC, NADI])
    expect(s.step).toBe('checkAuthorization')
    expect(viewOf(s)).toEqual({ kind: 'chooseChain', targets: [BSC, NADI] })
    expect(stepStatuses(s).checkAuthorization).toBe('waiting')
    expect(reduce(s, { type: 'approve' })).toBe(s)
    s = reduce(s, { type: 'chooseChain', chain: 'nadi' })
    expect(s.step).toBe('confirmAuthorization')
    expect(s.chain).toBe('nadi')
  })

  it('no chain to pay on is a failure, not a spinner', () => {
    expect(viewOf(connected([]))).toMatchObject({ kind: 'failed', error: { key: 'payment.noTargets' } })
  })

  it('a wallet that stays on another chain after the prompt fails with the wrong-chain message', () => {
    let s = run(connected(), { type: 'approve' }, { type: 'approved', address: ME, chainId: 1 })
    expect(s.step).toBe('confirmAuthorization')
    expect(viewOf(s)).toMatchObject({ kind: 'failed', error: { key: 'chainErrors.wrongChain' } })
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'approve' })
    s = run(s, { type: 'approve' }, { type: 'approved', address: ME, chainId: 56 })
    expect(s.step).toBe('processPayment')
  })

  it('a rejected authorization prompt shows chainErrors.userRejected and can be asked again', () => {
    let s = run(connected(), { type: 'approve' }, { type: 'approveFailed', error: { key: 'chainErrors.userRejected' } })
    expect(stepStatuses(s).confirmAuthorization).toBe('failed')
    expect(viewOf(s)).toMatchObject({ kind: 'failed', error: { key: 'chainErrors.userRejected' }, canRetry: true })
    // While failed, nothing runs on its own.
    expect(reduce(s, { type: 'approve' })).toBe(s)
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'approve' })
  })

  it('switching accounts at the prompt sends the flow back to the account check', () => {
    const s = run(connected(), { type: 'approve' }, { type: 'approved', address: OTHER, chainId: 56 })
    expect(s.step).toBe('checkAuthorization')
    expect(s.error).toMatchObject({ key: 'payment.wrongAccount' })
  })

  it('a connection the user refuses shows the wallet message and leaves the connect button', () => {
    let s = run(initialFlow(order()), { type: 'balanceLoaded', available: 0n }, { type: 'useWallet' }, { type: 'connect' })
    expect(viewOf(s)).toEqual({ kind: 'connecting' })
    s = reduce(s, { type: 'connectFailed', error: { key: 'wallet.userRejected' } })
    expect(stepStatuses(s).connectWallet).toBe('failed')
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'connect' })
  })
})

describe('payment flow: the wallet connected in this session', () => {
  it('pays from it without the wallet picker: "pay from my wallet" goes straight to its authorization', () => {
    let s = run(initialFlow(order(), null, { address: ME, chainId: 56 }), { type: 'balanceLoaded', available: 40n * U }, { type: 'context', expected: ME, targets: [BSC] })
    expect(stepsShown(s)).toEqual(['checkBalance'])
    s = reduce(s, { type: 'useWallet' })
    expect(s.step).toBe('confirmAuthorization')
    expect(viewOf(s)).toEqual({ kind: 'approve' })
    expect(stepStatuses(s).connectWallet).toBe('done')
  })

  it('a wallet connected while the dialog is open is taken up before paying, and at the connect step moves on', () => {
    let s = reduce(initialFlow(order()), { type: 'balanceLoaded', available: 0n })
    s = reduce(s, { type: 'walletKnown', wallet: { address: ME, chainId: 56 } })
    expect(s.wallet).toEqual({ address: ME, chainId: 56 })
    expect(s.step).toBe('checkBalance')

    let c = run(initialFlow(order()), { type: 'balanceLoaded', available: 0n }, { type: 'context', expected: ME, targets: [BSC] }, { type: 'useWallet' })
    expect(viewOf(c)).toEqual({ kind: 'connect' })
    expect(stepStatuses(c).connectWallet).toBe('waiting')
    c = reduce(c, { type: 'walletKnown', wallet: { address: ME, chainId: 56 } })
    expect(c.step).toBe('confirmAuthorization')
  })

  it('a change of wallet once authorization began changes nothing: the flow checks the account itself', () => {
    const s = connected()
    expect(reduce(s, { type: 'walletKnown', wallet: { address: OTHER, chainId: 56 } })).toBe(s)
    expect(reduce(s, { type: 'walletKnown', wallet: null })).toBe(s)
  })
})

describe('payment flow: back to the balance', () => {
  it('"pay from my wallet instead" can be taken back until a transfer goes out: the balance is offered again', () => {
    const rich = run(initialFlow(order()), { type: 'balanceLoaded', available: 500n * U }, { type: 'context', expected: ME, targets: [BSC, NADI] }, { type: 'useWallet' })
    expect(canUseBalance(rich)).toBe(true)
    const back = reduce(rich, { type: 'useBalance' })
    expect(back.step).toBe('checkBalance')
    expect(back.method).toBeNull()
    expect(viewOf(back)).toMatchObject({ kind: 'payOptions', enough: true })
    expect(stepsShown(back)).toEqual(['checkBalance'])
    // From a network to choose, from "Pay", and from a failed authorization alike.
    const atChoice = run(rich, { type: 'connect' }, { type: 'connected', address: ME, chainId: 1 })
    expect(viewOf(atChoice).kind).toBe('chooseChain')
    expect(reduce(atChoice, { type: 'useBalance' }).step).toBe('checkBalance')
    expect(reduce(ready(), { type: 'useBalance' }).step).toBe('checkBalance')
    const refused = run(connected(), { type: 'approve' }, { type: 'approveFailed', error: { key: 'chainErrors.userRejected' } })
    expect(reduce(refused, { type: 'useBalance' })).toMatchObject({ step: 'checkBalance', error: null })
  })

  it('not while the wallet is asked, nor once a transfer was sent: its hash may still pay the order', () => {
    const asking = run(connected(), { type: 'approve' })
    expect(reduce(asking, { type: 'useBalance' })).toBe(asking)
    const sent = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH })
    expect(canUseBalance(sent)).toBe(false)
    expect(reduce(sent, { type: 'useBalance' })).toBe(sent)
    const balanceOnly = run(initialFlow(order()), { type: 'balanceLoaded', available: 500n * U })
    expect(reduce(balanceOnly, { type: 'useBalance' })).toBe(balanceOnly)
  })
})

describe('payment flow: steps 5–6, pay and confirm', () => {
  it('a sent transfer is handed to the server, then its confirmations count up until paid', () => {
    let s = ready()
    expect(viewOf(s)).toEqual({ kind: 'send', target: BSC })
    expect(stepStatuses(s).processPayment).toBe('waiting')
    s = reduce(s, { type: 'send' })
    expect(stepStatuses(s).processPayment).toBe('current')
    expect(viewOf(s)).toEqual({ kind: 'sending' })
    s = reduce(s, { type: 'sent', txHash: HASH })
    expect(viewOf(s)).toEqual({ kind: 'submitting' })
    s = reduce(s, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    expect(s.step).toBe('waitConfirmation')
    expect(viewOf(s)).toEqual({ kind: 'confirming', confirmations: 0, required: 3 })
    s = reduce(s, { type: 'progress', order: order({ status: 'processing', payment: payment({ status: 'confirming', confirmations: 2 }) }) })
    expect(viewOf(s)).toEqual({ kind: 'confirming', confirmations: 2, required: 3 })
    expect(stepStatuses(s).waitConfirmation).toBe('current')
    s = reduce(s, { type: 'progress', order: order({ status: 'paid', payment: payment({ status: 'paid', confirmations: 3 }) }) })
    expect(s.paid).toBe(true)
    expect(Object.values(stepStatuses(s))).toEqual(['done', 'done', 'done', 'done', 'done', 'done'])
    // Nothing moves a paid flow.
    expect(reduce(s, { type: 'retry' })).toBe(s)
  })

  it('insufficient gas in the wallet fails the payment step and the retry sends again', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sendFailed', error: { key: 'chainErrors.insufficientGas' } })
    expect(stepStatuses(s).processPayment).toBe('failed')
    expect(s.txHash).toBeNull()
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'send', target: BSC })
  })

  it('a hash the server refuses is dropped: the retry asks for a new transfer', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH })
    s = reduce(s, { type: 'submitFailed', error: { text: 'This transaction has already been used' }, outcomeUnknown: false })
    expect(viewOf(s)).toMatchObject({ kind: 'failed', error: { text: 'This transaction has already been used' } })
    expect(s.txHash).toBeNull()
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'send', target: BSC })
  })

  it('a hash whose submission got no answer is kept and sent again, never a second transfer', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH })
    s = reduce(s, { type: 'submitFailed', error: { text: 'Network error' }, outcomeUnknown: true })
    expect(s.txHash).toBe(HASH)
    s = reduce(s, { type: 'retry' })
    expect(viewOf(s)).toEqual({ kind: 'submit' })
    expect(reduce(s, { type: 'send' })).toBe(s)
    s = run(s, { type: 'submit' }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    expect(s.step).toBe('waitConfirmation')
  })

  it('a payment that fails on chain shows the server reason and the retry starts a new transfer', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    s = reduce(s, { type: 'progress', order: order({ status: 'pending_payment', payment: payment({ status: 'failed', fail_msg: 'The transaction failed on chain' }) }) })
    expect(stepStatuses(s).waitConfirmation).toBe('failed')
    expect(viewOf(s)).toEqual({ kind: 'failed', error: { text: 'The transaction failed on chain' }, canRetry: true })
    s = reduce(s, { type: 'retry' })
    expect(s.step).toBe('processPayment')
    expect(s.txHash).toBeNull()
    expect(viewOf(s)).toEqual({ kind: 'send', target: BSC })
  })

  it('a failure without a reason falls back to "payment failed"', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    s = reduce(s, { type: 'progress', order: order({ status: 'pending_payment', payment: payment({ status: 'failed' }) }) })
    expect(s.error).toEqual({ key: 'payment.failed' })
  })

  it("a reading about another transaction (an earlier attempt) does not move this one", () => {
    const s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    expect(reduce(s, { type: 'progress', order: order({ payment: payment({ tx_hash: HASH2, status: 'failed', fail_msg: 'old' }) }) })).toBe(s)
  })

  it('an order cancelled while confirming ends the flow without a retry', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    s = reduce(s, { type: 'progress', order: order({ status: 'cancelled', payment: payment() }) })
    expect(viewOf(s)).toEqual({ kind: 'failed', error: { key: 'payment.orderCancelled' }, canRetry: false })
    expect(reduce(s, { type: 'retry' })).toBe(s)
  })

  it('a transfer whose order ended before it confirmed ends the flow with the server’s words on where the money went', () => {
    let s = run(ready(), { type: 'send' }, { type: 'sent', txHash: HASH }, { type: 'submitted', order: order({ status: 'processing', payment: payment() }) })
    const credited = 'The order expired before your payment arrived; the 7 USDT you paid was credited to your fund account'
    s = reduce(s, { type: 'progress', order: order({ status: 'cancelled', payment: payment({ status: 'failed', fail_msg: credited }) }) })
    expect(viewOf(s)).toEqual({ kind: 'failed', error: { text: credited }, canRetry: false })
  })
})

describe('payment flow: reopening the dialog', () => {
  it('an order whose chain payment confirms reopens at the confirmation count', () => {
    const s = initialFlow(order({ status: 'processing', payment: payment({ status: 'confirming', confirmations: 1 }) }))
    expect(s.step).toBe('waitConfirmation')
    expect(viewOf(s)).toEqual({ kind: 'confirming', confirmations: 1, required: 3 })
  })

  it('a transfer sent but never acknowledged is handed to the server again', () => {
    const s = initialFlow(order(), { chain: 'bsc', txHash: HASH })
    expect(s.step).toBe('processPayment')
    expect(viewOf(s)).toEqual({ kind: 'submit' })
  })

  it('a transfer sent but never acknowledged is handed to the server even once its order ended: the tokens have left the wallet', () => {
    const s = initialFlow(order({ status: 'cancelled' }), { chain: 'bsc', txHash: HASH })
    expect(s.step).toBe('processPayment')
    expect(s.final).toBe(false)
    expect(viewOf(s)).toEqual({ kind: 'submit' })
  })

  it('a paid order opens as paid, a cancelled one as final', () => {
    expect(viewOf(initialFlow(order({ status: 'paid' })))).toEqual({ kind: 'paid' })
    expect(viewOf(initialFlow(order({ status: 'cancelled' })))).toMatchObject({ kind: 'failed', canRetry: false })
  })
})

describe('payment flow: SPEC §8 messages', () => {
  const ctx = { coin: 'BNB', chain: 'BNB Smart Chain' }

  it("a wallet's chain failure maps to its chainErrors key with the coin and chain", () => {
    const payError = Object.assign(new Error('chainErrors.insufficientGas'), { name: 'PayError', key: 'insufficientGas' })
    expect(flowErrorOf(payError, ctx)).toEqual({ key: 'chainErrors.insufficientGas', params: ctx })
  })

  it('a wallet connection failure maps to its wallet key', () => {
    expect(flowErrorOf(new WalletError('userRejected'), ctx)).toEqual({ key: 'wallet.userRejected' })
  })

  it("an API failure shows the server's message as it is", () => {
    const apiFailure = Object.assign(new Error('Insufficient NADI: current 1, required 5'), { code: 400, status: 400 })
    expect(flowErrorOf(apiFailure, ctx)).toEqual({ text: 'Insufficient NADI: current 1, required 5' })
  })

  it("the dialog's own authorization failure keeps its message", () => {
    expect(flowErrorOf(new FlowFailure({ key: 'chainErrors.userRejected' }), ctx)).toEqual({ key: 'chainErrors.userRejected', params: ctx })
  })

  it('anything else is "payment failed"', () => {
    expect(flowErrorOf(new Error('boom'), ctx)).toEqual({ key: 'payment.failed' })
    expect(flowErrorOf(undefined, ctx)).toEqual({ key: 'payment.failed' })
  })
})
