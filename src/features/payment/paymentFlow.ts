// The payment dialog's six steps (SPEC §4 "Payment flow") as a pure reducer: check balance, connect
// wallet, check authorization, confirm authorization, process payment, wait for transaction
// confirmation. The dialog does the I/O (balances, wallet, POSTs, polling) and reports each outcome
// as an event; this module decides where the flow stands, what the dialog offers next and which
// SPEC §8 message a failure shows. No React, no I/O: tests drive every path through `reduce`.
import type { PayOrder, PayTarget } from '../../../contract/orders.ts'
import type { ChainKey } from '../../../contract/recharge.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { shortAddress } from '../../lib/format.ts'

export const STEPS = ['checkBalance', 'connectWallet', 'checkAuthorization', 'confirmAuthorization', 'processPayment', 'waitConfirmation'] as const
export type StepId = (typeof STEPS)[number]

/** A message to show: a locale key with its values, or the server's own words (already in the user's language). */
export type FlowError = { key: string; params?: Record<string, string | number> } | { text: string }

/** Thrown by the dialog's own wallet calls (the authorization prompt) with the message already chosen. */
export class FlowFailure extends Error {
  constructor(
    readonly error: FlowError,
    cause?: unknown,
  ) {
    super('key' in error ? error.key : error.text, cause === undefined ? undefined : { cause })
    this.name = 'FlowFailure'
  }
}

export interface FlowState {
  orderId: number
  asset: PayOrder['asset']
  /** The order's total in units of 1e-8. */
  required: bigint
  step: StepId
  /** A call of the current step is under way. */
  busy: boolean
  /** Why the current step failed; the dialog offers a retry unless `final`. */
  error: FlowError | null
  /** The failure cannot be retried (the order was cancelled meanwhile). */
  final: boolean
  /** The fund balance of the order's asset, once known. */
  available: bigint | null
  method: 'balance' | 'wallet' | null
  wallet: WalletAt | null
  /** The signed-in user's own wallet: the server accepts chain payments from it only. */
  expected: string | null
  targets: PayTarget[] | null
  chain: ChainKey | null
  /** The wallet sent this transfer; kept until the server has it, so a retry never pays twice. */
  txHash: string | null
  /** The server accepted `txHash` and is confirming it. */
  submitted: boolean
  confirmations: number
  confirmationsRequired: number
  paid: boolean
}

/** A wallet's account and the chain it is on. */
export interface WalletAt {
  address: string
  chainId: number
}

export type FlowEvent =
  | { type: 'balanceLoaded'; available: bigint }
  | { type: 'balanceFailed' }
  | { type: 'payBalance' }
  | { type: 'balancePaid'; order: PayOrder }
  | { type: 'balanceRefused'; error: FlowError }
  | { type: 'useWallet' }
  /** Back from the wallet's steps to paying from the balance, before any transfer was sent. */
  | { type: 'useBalance' }
  | { type: 'connect' }
  | { type: 'connected'; address: string; chainId: number }
  | { type: 'connectFailed'; error: FlowError }
  /** The wallet signed in with did not reconnect by itself: the user connects as usual, no error shown. */
  | { type: 'connectSkipped' }
  /** The session's connected wallet changed (connected elsewhere, another account picked, disconnected). */
  | { type: 'walletKnown'; wallet: WalletAt | null }
  | { type: 'context'; expected: string; targets: PayTarget[] }
  | { type: 'chooseChain'; chain: ChainKey }
  | { type: 'approve' }
  | { type: 'approved'; address: string; chainId: number }
  | { type: 'approveFailed'; error: FlowError }
  | { type: 'send' }
  | { type: 'sent'; txHash: string }
  | { type: 'sendFailed'; error: FlowError }
  | { type: 'submit' }
  | { type: 'submitted'; order: PayOrder }
  /** `outcomeUnknown`: no answer came back, so the hash is kept and sent again on retry. */
  | { type: 'submitFailed'; error: FlowError; outcomeUnknown: boolean }
  | { type: 'progress'; order: PayOrder }
  | { type: 'retry' }

/** A transfer the wallet sent whose hash the server may not have yet (kept across a closed dialog). */
export interface PendingTx {
  chain: ChainKey
  txHash: string
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
const isPaid = (o: PayOrder) => o.status === 'paid' || o.status === 'completed' || o.payment?.status === 'paid'

/**
 * Where the dialog starts for `order`. `wallet` is the wallet connected already in this session (the
 * one the user signed in with): paying from it then goes straight to its authorization, without the
 * wallet picker again.
 */
export function initialFlow(order: PayOrder, pending: PendingTx | null = null, wallet: WalletAt | null = null): FlowState {
  const s: FlowState = {
    orderId: order.id,
    asset: order.asset,
    required: units(order.total),
    step: 'checkBalance',
    busy: true,
    error: null,
    final: false,
    available: null,
    method: null,
    wallet,
    expected: null,
    targets: null,
    chain: null,
    txHash: null,
    submitted: false,
    confirmations: 0,
    confirmationsRequired: 0,
    paid: false,
  }
  if (isPaid(order)) return { ...s, step: 'waitConfirmation', busy: false, method: order.payment?.method === 'chain' ? 'wallet' : 'balance', paid: true }
  const p = order.payment
  // Reopened while a chain payment confirms: straight back to watching it.
  if (order.status === 'processing' && p && p.method === 'chain' && p.tx_hash && (p.status === 'pending' || p.status === 'confirming')) {
    return {
      ...s,
      step: 'waitConfirmation',
      busy: false,
      method: 'wallet',
      chain: p.chain,
      txHash: p.tx_hash,
      submitted: true,
      confirmations: p.confirmations,
      confirmationsRequired: p.required,
    }
  }
  // The wallet sent a transfer but the server never got its hash (the dialog was closed): send it
  // again, even once the order ended — the tokens have left the wallet, and the server pays,
  // reinstates or credits them.
  if (pending) return { ...s, step: 'processPayment', busy: false, method: 'wallet', chain: pending.chain, txHash: pending.txHash }
  if (order.status === 'cancelled') return { ...s, busy: false, error: { key: 'payment.orderCancelled' }, final: true }
  return s
}

/** After the wallet connected (or the user's data arrived): is this account allowed to pay, and on which chain? */
function authorize(s: FlowState): FlowState {
  if (!s.wallet) return s
  const at: FlowState = { ...s, step: 'checkAuthorization', busy: false, error: null }
  if (s.expected === null || s.targets === null) return { ...at, busy: true }
  if (!same(s.wallet.address, s.expected)) {
    return { ...at, error: { key: 'payment.wrongAccount', params: { actual: shortAddress(s.wallet.address), expected: shortAddress(s.expected) } } }
  }
  if (s.targets.length === 0) return { ...at, error: { key: 'payment.noTargets' } }
  const only = s.targets.length === 1 ? s.targets[0] : undefined
  const chain = s.chain && s.targets.some((t) => t.chain === s.chain) ? s.chain : (only?.chain ?? null)
  if (chain === null) return at // several chains: the user picks one
  return { ...at, chain, step: 'confirmAuthorization' }
}

export function targetOf(s: FlowState): PayTarget | undefined {
  return s.targets?.find((t) => t.chain === s.chain)
}

function onProgress(s: FlowState, order: PayOrder): FlowState {
  const p = order.payment
  if (order.status === 'cancelled') {
    // Ended before this transfer confirmed: the server's words say where the money went (credited).
    const credited = p?.method === 'chain' && p.status === 'failed' && p.tx_hash && s.txHash && same(p.tx_hash, s.txHash) ? p.fail_msg : null
    return { ...s, busy: false, error: credited ? { text: credited } : { key: 'payment.orderCancelled' }, final: true }
  }
  // A reading from before this attempt (an earlier transfer's failure) says nothing about it.
  if (p?.tx_hash && s.txHash && !same(p.tx_hash, s.txHash)) return s
  if (isPaid(order)) return { ...s, step: 'waitConfirmation', busy: false, error: null, paid: true, confirmations: Math.max(s.confirmations, p?.confirmations ?? 0) }
  if (!p || p.method !== 'chain') return s
  if (p.status === 'failed') {
    return {
      ...s,
      step: 'waitConfirmation',
      busy: false,
      submitted: false,
      error: p.fail_msg ? { text: p.fail_msg } : { key: 'payment.failed' },
    }
  }
  return { ...s, step: 'waitConfirmation', busy: false, error: null, submitted: true, confirmations: p.confirmations, confirmationsRequired: p.required }
}

export function reduce(s: FlowState, e: FlowEvent): FlowState {
  if (s.paid || s.final) return s
  switch (e.type) {
    case 'balanceLoaded':
      if (s.step !== 'checkBalance' || (s.busy && s.available !== null)) return s
      // A refusal stays on screen until the user retries; a failed first load is cured by any later one.
      return { ...s, available: e.available, busy: false, error: s.available === null ? null : s.error }
    case 'balanceFailed':
      if (s.step !== 'checkBalance' || s.available !== null) return s
      return { ...s, busy: false, error: { key: 'payment.balanceLoadFailed' } }
    case 'payBalance':
      if (s.step !== 'checkBalance' || s.busy || s.available === null || s.available < s.required) return s
      return { ...s, busy: true, error: null, method: 'balance' }
    case 'balancePaid':
      if (s.step !== 'checkBalance') return s
      return { ...s, busy: false, error: null, method: 'balance', paid: true }
    case 'balanceRefused':
      if (s.step !== 'checkBalance') return s
      return { ...s, busy: false, error: e.error }
    case 'useWallet':
      if (s.step !== 'checkBalance' || s.busy) return s
      return s.wallet ? authorize({ ...s, method: 'wallet' }) : { ...s, step: 'connectWallet', busy: false, error: null, method: 'wallet' }
    case 'useBalance':
      if (!canUseBalance(s)) return s
      return { ...s, step: 'checkBalance', method: null, busy: false, error: null }
    case 'connect':
      if (s.step !== 'connectWallet' || s.busy) return s
      return { ...s, busy: true, error: null }
    case 'connected':
      if (s.step !== 'connectWallet') return s
      return authorize({ ...s, wallet: { address: e.address, chainId: e.chainId } })
    case 'connectFailed':
      if (s.step !== 'connectWallet') return s
      return { ...s, busy: false, error: e.error }
    case 'connectSkipped':
      if (s.step !== 'connectWallet') return s
      return { ...s, busy: false }
    case 'walletKnown':
      // Only before the wallet is in use: once authorization began, a change is met by its own checks.
      if (s.step === 'checkBalance' && !s.busy) return { ...s, wallet: e.wallet }
      if (s.step === 'connectWallet' && !s.busy && !s.error && e.wallet) return authorize({ ...s, wallet: e.wallet })
      return s
    case 'context': {
      const next = { ...s, expected: e.expected, targets: e.targets }
      return s.step === 'checkAuthorization' ? authorize(next) : next
    }
    case 'chooseChain':
      if (s.busy || s.txHash || !s.targets?.some((t) => t.chain === e.chain)) return s
      if (s.step !== 'checkAuthorization' && s.step !== 'confirmAuthorization' && s.step !== 'processPayment') return s
      return authorize({ ...s, chain: e.chain })
    case 'approve':
      if (s.step !== 'confirmAuthorization' || s.busy || s.error) return s
      return { ...s, busy: true }
    case 'approved': {
      if (s.step !== 'confirmAuthorization' || !s.wallet) return s
      const wallet = { address: e.address, chainId: e.chainId }
      // The wallet may have switched accounts at its prompt.
      if (!same(e.address, s.wallet.address)) return authorize({ ...s, wallet })
      const target = targetOf(s)
      if (!target) return authorize({ ...s, wallet })
      if (e.chainId !== target.chain_id) return { ...s, wallet, busy: false, error: { key: 'chainErrors.wrongChain' } }
      return { ...s, wallet, step: 'processPayment', busy: false, error: null }
    }
    case 'approveFailed':
      if (s.step !== 'confirmAuthorization') return s
      return { ...s, busy: false, error: e.error }
    case 'send':
      if (s.step !== 'processPayment' || s.busy || s.txHash || !s.wallet || !targetOf(s)) return s
      return { ...s, busy: true, error: null }
    case 'sent':
      if (s.step !== 'processPayment' || s.txHash) return s
      return { ...s, busy: true, txHash: e.txHash }
    case 'sendFailed':
      if (s.step !== 'processPayment' || s.txHash) return s
      return { ...s, busy: false, error: e.error }
    case 'submit':
      if (s.step !== 'processPayment' || s.busy || s.error || !s.txHash) return s
      return { ...s, busy: true }
    case 'submitted':
      if (s.step !== 'processPayment' || !s.txHash) return s
      return onProgress({ ...s, submitted: true, confirmations: 0, confirmationsRequired: targetOf(s)?.confirmations ?? 0 }, e.order)
    case 'submitFailed':
      if (s.step !== 'processPayment' || !s.txHash) return s
      // A refusal is final for this hash: the next try is a new transfer. No answer: the same hash again.
      return { ...s, busy: false, error: e.error, txHash: e.outcomeUnknown ? s.txHash : null }
    case 'progress':
      if (s.step !== 'waitConfirmation') return s
      return onProgress(s, e.order)
    case 'retry':
      return retry(s)
  }
}

/**
 * Whether the user may go back from the wallet's steps to the balance: on the way to a transfer,
 * not while the wallet is asked something and never once a transfer went out (its hash may pay).
 */
export function canUseBalance(s: FlowState): boolean {
  if (s.method !== 'wallet' || s.paid || s.final || s.busy || s.txHash || s.submitted) return false
  return s.step === 'connectWallet' || s.step === 'checkAuthorization' || s.step === 'confirmAuthorization' || s.step === 'processPayment'
}

function retry(s: FlowState): FlowState {
  if (!s.error || s.busy) return s
  const clear = { ...s, error: null }
  switch (s.step) {
    case 'checkBalance':
      // A refused balance payment goes back to the choice of how to pay.
      return s.available === null ? { ...clear, busy: true } : { ...clear, method: null }
    case 'connectWallet':
    case 'confirmAuthorization':
      return clear
    case 'checkAuthorization':
      // Another account (or chain list) is needed: connect again.
      return { ...clear, step: 'connectWallet', wallet: null }
    case 'processPayment':
      return clear
    case 'waitConfirmation':
      // The transfer failed on chain: a new one is needed, from the connected wallet if there is one.
      return { ...clear, step: s.wallet ? 'processPayment' : 'connectWallet', txHash: null, submitted: false, confirmations: 0 }
  }
}

/** `waiting`: the step waits for the user's choice or tap (a network, "Pay"), nothing is under way. */
export type StepStatus = 'todo' | 'current' | 'waiting' | 'done' | 'failed'

/**
 * The steps the dialog lists. Until a way to pay is chosen, the balance check only; paying from the
 * balance is that check and the payment itself; the wallet's steps belong to a wallet payment.
 */
export function stepsShown(s: FlowState): readonly StepId[] {
  if (s.method === 'wallet') return STEPS
  if (s.method === 'balance') return ['checkBalance', 'processPayment']
  return ['checkBalance']
}

/** The views in which the flow waits for the user rather than for a wallet, the chain or the server. */
const AWAITS_USER: ReadonlySet<FlowView['kind']> = new Set(['payOptions', 'connect', 'chooseChain', 'send'])

/** How each step shows in the dialog's step list (stepsShown says which are listed). */
export function stepStatuses(s: FlowState): Record<StepId, StepStatus> {
  const out = Object.fromEntries(STEPS.map((id) => [id, 'todo'])) as Record<StepId, StepStatus>
  if (s.method === 'balance') {
    out.checkBalance = 'done'
    out.processPayment = s.paid ? 'done' : s.error ? 'failed' : 'current'
    return out
  }
  const at = STEPS.indexOf(s.step)
  const waiting = AWAITS_USER.has(viewOf(s).kind)
  for (const [i, id] of STEPS.entries()) {
    if (s.paid || i < at) out[id] = 'done'
    else if (i > at) out[id] = 'todo'
    else if (s.error) out[id] = 'failed'
    // The balance is known and the user chooses how to pay: the check itself is over.
    else if (id === 'checkBalance' && waiting) out[id] = 'done'
    else out[id] = waiting ? 'waiting' : 'current'
  }
  return out
}

/** What the dialog shows and offers now. `approve` and `submit` run on their own; the others wait for the user. */
export type FlowView =
  | { kind: 'paid' }
  | { kind: 'failed'; error: FlowError; canRetry: boolean }
  | { kind: 'loading' }
  | { kind: 'payOptions'; enough: boolean; current: string; required: string }
  | { kind: 'payingBalance' }
  | { kind: 'connect' }
  | { kind: 'connecting' }
  | { kind: 'chooseChain'; targets: PayTarget[] }
  | { kind: 'approve' }
  | { kind: 'approving' }
  | { kind: 'send'; target: PayTarget }
  | { kind: 'sending' }
  | { kind: 'submit' }
  | { kind: 'submitting' }
  | { kind: 'confirming'; confirmations: number; required: number }

export function viewOf(s: FlowState): FlowView {
  if (s.paid) return { kind: 'paid' }
  if (s.error) return { kind: 'failed', error: s.error, canRetry: !s.final }
  switch (s.step) {
    case 'checkBalance':
      if (s.available === null) return { kind: 'loading' }
      if (s.busy) return { kind: 'payingBalance' }
      return { kind: 'payOptions', enough: s.available >= s.required, current: showAmount(s.available, s.asset), required: showAmount(s.required, s.asset) }
    case 'connectWallet':
      return s.busy ? { kind: 'connecting' } : { kind: 'connect' }
    case 'checkAuthorization':
      return s.busy || !s.targets ? { kind: 'loading' } : { kind: 'chooseChain', targets: s.targets }
    case 'confirmAuthorization':
      return s.busy ? { kind: 'approving' } : { kind: 'approve' }
    case 'processPayment': {
      if (s.txHash) return s.busy ? { kind: 'submitting' } : { kind: 'submit' }
      if (s.busy) return { kind: 'sending' }
      const target = targetOf(s)
      return target ? { kind: 'send', target } : { kind: 'loading' }
    }
    case 'waitConfirmation':
      return { kind: 'confirming', confirmations: s.confirmations, required: s.confirmationsRequired }
  }
}

/** The insufficient-balance message of SPEC §5 for step 1, or null when the balance covers the order. */
export function shortfall(s: FlowState): FlowError | null {
  if (s.available === null || s.available >= s.required) return null
  return { key: 'payment.insufficient', params: { asset: s.asset, current: showAmount(s.available, s.asset), required: showAmount(s.required, s.asset) } }
}

export interface ErrorContext {
  /** The chain's native coin, for the gas message. */
  coin: string
  /** The chain's name in the user's language. */
  chain: string
}

/**
 * The SPEC §8 message of anything a step threw: the wallet's chain failures (chainErrors.*), wallet
 * connection failures (wallet.*), the server's refusal in its own words, else "payment failed".
 */
export function flowErrorOf(e: unknown, ctx: ErrorContext): FlowError {
  if (e instanceof FlowFailure) return withContext(e.error, ctx)
  const o = e as { name?: unknown; key?: unknown; status?: unknown; code?: unknown; message?: unknown } | null
  if (o && typeof o === 'object') {
    if (o.name === 'PayError' && typeof o.key === 'string') return withContext({ key: `chainErrors.${o.key}` }, ctx)
    if (o.name === 'WalletError' && typeof o.key === 'string') return { key: `wallet.${o.key}` }
    // An ApiFailure: its message is already the server's words (or the SPEC §8 HTTP text) in the user's language.
    if (typeof o.status === 'number' && typeof o.code === 'number' && typeof o.message === 'string' && o.message) return { text: o.message }
  }
  return { key: 'payment.failed' }
}

function withContext(err: FlowError, ctx: ErrorContext): FlowError {
  return 'key' in err && err.key.startsWith('chainErrors.') ? { key: err.key, params: { coin: ctx.coin, chain: ctx.chain, ...err.params } } : err
}
