// Payment (DESIGN §7, issue 4 part 7): the primitive the shops call to get an order paid, from the
// user's balance or by an ERC-20 transfer on chain. A server library, no routes.
//
//   payFromBalance(ctx, { orderRef, userId, asset, amount, payee? })      → Payment ('paid')
//   submitChainPayment(ctx, { orderRef, userId, chain, asset, amount, txHash, payee? }) → Payment ('pending')
//   checkChainPayments(ctx)   one verification pass over the chain payments not settled yet (also a job)
//   paymentStatus(ctx, orderRef)                                          → Payment | null
//   onPaid(ctx, prefix, handler)   what runs in the paying transaction (an order's fulfilment)
//   onChainArrival(ctx, prefix, handler)   before it: is the order still to be paid (a late hash)?
//
// Every money write goes through ctx.commits.write (group commit) or ctx.sql.transaction; a paid payment commits with its ledger posting, ref
// `pay:<orderRef>`, so an order is paid once whatever is retried. Payee defaults to TREASURY.
//
// On chain, a pass per payment:
// - No receipt: stays 'pending' (a confirming one whose tx left the chain goes back to 'pending');
//   after `pendingTimeoutMs` (NADI_PAYMENT_PENDING_TIMEOUT_MS, 10 min) since submission with no receipt
//   it fails 'not_found' — an unknown hash, or a tx never mined, is reported, not waited on forever.
// - Reverted → failed 'reverted'. Otherwise among the receipt's decoded transfers of configured tokens:
//   none to the receiving address → 'wrong_recipient'; to it but only of another token → 'wrong_token';
//   of the right token but not from the user's registered wallet (users.wallet_address) → 'wrong_sender';
//   from it but summing less than the amount (compared exactly in token wei, amount × 1e10) →
//   'amount_too_low'. An overpayment pays the order; the excess is not credited (amount_wei keeps it).
// - Valid: 'confirming' in its block; once head − block + 1 ≥ the chain's confirmations the block hash
//   is read once more and, unchanged, the payment is marked paid with the posting custody:<chain> →
//   payee in one transaction. A changed block hash (reorg) puts it back to confirm again.
// - A hash may be submitted after its order's time is up: the tokens have left the wallet by then. In
//   the paying transaction the order's arrival handler (onChainArrival) says whether it is paid (the
//   orders module reinstates an expired order there when it may) or ended: then the payment fails
//   'order_expired' / 'order_cancelled' and each verified transfer is credited to the payer's fund
//   account under the deposit watcher's own ref, so no transfer is credited twice, by either path.
// The receiving address: NADI_PAYMENT_RECEIVING_ADDRESS when set, else the hot wallet's.

import type { Selectable } from 'kysely'
import { formatMoney } from '../../../contract/money.ts'
import { creditTransfer } from '../../chain/depositWatcher.ts'
import { ChainUnavailableError, type TransferLog, type TxReceipt } from '../../chain/gateway.ts'
import { toLedgerUnits, toTokenUnits } from '../../chain/units.ts'
import { TOKENS, type PaymentSettings, type TokenSymbol } from '../../config.ts'
import type { Ctx } from '../../context.ts'
import type { Queryable, Tx } from '../../db/query/types.ts'
import type { PaymentsTable } from '../../db/schema.ts'

import { ApiError, badRequest, conflict } from '../../http/errors.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import * as ledger from '../../ledger/index.ts'

export type PaymentStatus = PaymentsTable['status']
export type PaymentFailReason = NonNullable<PaymentsTable['fail_reason']>

/** The locale key (errors.*) that tells the user why a chain payment failed. */
export const FAIL_KEYS: Record<PaymentFailReason, string> = {
  reverted: 'errors.paymentReverted',
  not_found: 'errors.paymentTxNotFound',
  wrong_recipient: 'errors.paymentWrongRecipient',
  wrong_token: 'errors.paymentWrongToken',
  wrong_sender: 'errors.paymentWrongSender',
  amount_too_low: 'errors.paymentAmountTooLow',
  order_expired: 'errors.paymentOrderExpired',
  order_cancelled: 'errors.paymentOrderCancelled',
}

/** The fail reasons whose payment was credited to the payer's fund account instead. */
const CREDITED: readonly PaymentFailReason[] = ['order_expired', 'order_cancelled']

export interface Payment {
  id: number
  orderRef: string
  userId: number
  method: 'balance' | 'chain'
  asset: string
  /** Units of 1e-8. */
  amount: bigint
  payee: ledger.AccountRef
  status: PaymentStatus
  chain: string | null
  txHash: string | null
  confirmations: number
  required: number
  failReason: PaymentFailReason | null
  /** errors.* key for the fail reason, to show the user; null unless failed. */
  failKey: string | null
  /** The key's parameters: what was credited instead, for a payment whose order had ended. */
  failParams: Record<string, string> | null
  failDetail: string | null
  createdAt: number
  paidAt: number | null
}

export interface BalancePaymentInput {
  orderRef: string
  userId: number | bigint
  asset: string
  /** Units of 1e-8. */
  amount: bigint
  /** Who receives it; TREASURY when left out. */
  payee?: ledger.AccountRef
  /**
   * Runs inside the payment's transaction, through its `tx`, before anything is written; throw to
   * refuse (e.g. the order was cancelled a moment ago). The caller's own rules and the payment commit
   * together or not at all.
   */
  guard?: (tx: Tx) => Promise<void>
}

export interface ChainPaymentInput extends BalancePaymentInput {
  chain: string
  txHash: string
}

type Row = Selectable<PaymentsTable>

// ── What happens when an order is paid ──────────────────────────────────────────────────────────

export interface PaidEvent {
  orderRef: string
  userId: bigint
  asset: string
  amount: bigint
  paidAt: number
}

/** Awaited in the paying transaction; every statement it runs goes through `tx`. */
type PaidHandler = (tx: Tx, e: PaidEvent) => Promise<void>
const paidHandlers = new WeakMap<object, { prefix: string; handler: PaidHandler }[]>()

/**
 * Runs `handler` inside the transaction that marks a payment of an order ref starting with `prefix`
 * paid, after its ledger posting (DESIGN §10: fulfilment is an event run in the payment's
 * transaction). Throwing undoes the payment: from balance the user is told, on chain the next pass
 * tries again. Registered per database connection, so each server in a process has its own.
 */
export function onPaid(ctx: Pick<Ctx, 'sql'>, prefix: string, handler: PaidHandler): void {
  const list = paidHandlers.get(ctx.sql) ?? []
  list.push({ prefix, handler })
  paidHandlers.set(ctx.sql, list)
}

async function paid(ctx: Pick<Ctx, 'sql'>, tx: Tx, e: PaidEvent): Promise<void> {
  // One after another, in the order registered: a handler may read what an earlier one wrote.
  for (const h of paidHandlers.get(ctx.sql) ?? []) if (e.orderRef.startsWith(h.prefix)) await h.handler(tx, e)
}

export interface ChainArrival {
  orderRef: string
  userId: bigint
  /** The block time of the transfer, ms: when the user really paid, however late the hash came. */
  paidAt: number
}

/** 'pay' the order, or why it cannot be paid any more (its payment is then credited to the payer). */
export type ArrivalVerdict = 'pay' | 'order_expired' | 'order_cancelled'
/** Awaited in the paying transaction; every statement it runs goes through `tx`. */
type ArrivalHandler = (tx: Tx, e: ChainArrival) => Promise<ArrivalVerdict>
const arrivalHandlers = new WeakMap<object, { prefix: string; handler: ArrivalHandler }>()

/**
 * Decides, inside the transaction that would mark a confirmed chain payment of an order ref starting
 * with `prefix` paid and before anything is posted, whether the order is still to be paid — the
 * handler may reinstate it there, in the same transaction. Without a handler it is paid.
 */
export function onChainArrival(ctx: Pick<Ctx, 'sql'>, prefix: string, handler: ArrivalHandler): void {
  arrivalHandlers.set(ctx.sql, { prefix, handler })
}

async function arrival(ctx: Pick<Ctx, 'sql'>, tx: Tx, e: ChainArrival): Promise<ArrivalVerdict> {
  const h = arrivalHandlers.get(ctx.sql)
  return h && e.orderRef.startsWith(h.prefix) ? h.handler(tx, e) : 'pay'
}

// ── Settings ────────────────────────────────────────────────────────────────────────────────────

const settings = (ctx: Ctx): PaymentSettings => ctx.config.payment

/** Where on-chain payments must be sent (checksummed). */
export function receivingAddress(ctx: Ctx): string {
  return settings(ctx).receivingAddress ?? ctx.chain.hotWalletAddress()
}

// ── Encoding ────────────────────────────────────────────────────────────────────────────────────

export function encodePayee(p: ledger.AccountRef): string {
  return 'user' in p ? `u:${p.user}:${p.kind}` : p.platform
}

export function decodePayee(s: string): ledger.AccountRef {
  const m = /^u:(\d+):(fund|trade)$/.exec(s)
  if (m) return { user: BigInt(m[1] as string), kind: m[2] as 'fund' | 'trade' }
  return { platform: s as ledger.PlatformAccountKind }
}

function toPayment(r: Row): Payment {
  return {
    id: Number(r.id),
    orderRef: r.order_ref,
    userId: Number(r.user_id),
    method: r.method,
    asset: r.asset,
    amount: r.amount,
    payee: decodePayee(r.payee),
    status: r.status,
    chain: r.chain,
    txHash: r.tx_hash,
    confirmations: Number(r.confirmations),
    required: Number(r.required),
    failReason: r.fail_reason,
    failKey: r.fail_reason ? FAIL_KEYS[r.fail_reason] : null,
    failParams: r.fail_reason && CREDITED.includes(r.fail_reason) ? { amount: formatMoney(toLedgerUnits(BigInt(r.amount_wei ?? '0'), 'floor')), asset: r.asset } : null,
    failDetail: r.fail_detail,
    createdAt: Number(r.created_at),
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
  }
}

// ── Input checks ────────────────────────────────────────────────────────────────────────────────

const ORDER_REF_RE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/
const TX_HASH_RE = /^0x[0-9a-fA-F]{64}$/

interface Checked {
  orderRef: string
  userId: bigint
  asset: ledger.Asset
  amount: bigint
  payee: ledger.AccountRef
}

function check(input: BalancePaymentInput): Checked {
  if (typeof input.orderRef !== 'string' || !ORDER_REF_RE.test(input.orderRef)) throw badRequest('errors.paymentOrderRefInvalid')
  if (!ledger.isAsset(input.asset)) throw badRequest('errors.paymentAssetUnsupported', { asset: String(input.asset) })
  if (typeof input.amount !== 'bigint' || input.amount <= 0n) throw badRequest('errors.amountZero')
  if (input.amount > ledger.INT64_MAX) throw badRequest('errors.amountInvalid')
  const userId = BigInt(input.userId)
  if (userId <= 0n) throw badRequest('errors.userNotFound')
  return { orderRef: input.orderRef, userId, asset: input.asset, amount: input.amount, payee: input.payee ?? ledger.TREASURY }
}

const ref = (orderRef: string) => `pay:${orderRef}`

/** The insufficient-balance message of SPEC §5: "insufficient NADI: current X, required Y". */
export const insufficient = (asset: string, current: bigint, required: bigint): ApiError =>
  badRequest('errors.paymentInsufficient', { asset, current: formatMoney(current), required: formatMoney(required) })

function openPaymentOf(ctx: Ctx, tx: Tx, orderRef: string): Promise<Row | undefined> {
  return tx.row(ctx.db.selectFrom('payments').selectAll().where('order_ref', '=', orderRef).where('status', '<>', 'failed'))
}

const sameOrder = (r: Row, c: Checked) => r.user_id === c.userId && r.asset === c.asset && r.amount === c.amount && r.payee === encodePayee(c.payee)

/** The refusal for an order that already has a payment that is not `r`'s replay. */
function orderTaken(r: Row): ApiError {
  return r.status === 'paid' ? conflict('errors.orderAlreadyPaid') : conflict('errors.orderPaymentPending')
}

// ── From balance ────────────────────────────────────────────────────────────────────────────────

/**
 * Pays the order from the user's fund `asset` in one transaction. The same order paid again with the
 * same content answers the first payment (nothing moves); with other content, or while an on-chain
 * payment of it is open, 409. Too little balance: 400 errors.paymentInsufficient.
 */
export async function payFromBalance(ctx: Ctx, input: BalancePaymentInput): Promise<Payment> {
  const c = check(input)
  const now = ctx.now()
  return ctx.commits.write(async (tx) => {
    const open = await openPaymentOf(ctx, tx, c.orderRef)
    if (open) {
      if (open.method === 'balance' && open.status === 'paid' && sameOrder(open, c)) return toPayment(open)
      throw orderTaken(open)
    }
    await input.guard?.(tx)
    const current = (await ledger.balance(tx, ledger.fund(c.userId), c.asset)).available
    if (current < c.amount) throw insufficient(c.asset, current, c.amount)
    const r = (await tx.row(
      ctx.db
        .insertInto('payments')
        .values({
          order_ref: c.orderRef,
          user_id: c.userId,
          method: 'balance',
          asset: c.asset,
          amount: c.amount,
          payee: encodePayee(c.payee),
          status: 'paid',
          chain: null,
          tx_hash: null,
          from_address: null,
          to_address: null,
          amount_wei: null,
          block_number: null,
          block_hash: null,
          fail_reason: null,
          fail_detail: null,
          created_at: BigInt(now),
          updated_at: BigInt(now),
          paid_at: BigInt(now),
        })
        .returningAll(),
    ))!
    try {
      await ledger.transfer(tx, {
        ref: ref(c.orderRef),
        reason: 'payment',
        userId: c.userId,
        from: ledger.fund(c.userId),
        to: c.payee,
        asset: c.asset,
        amount: c.amount,
        at: now,
        meta: { order_ref: c.orderRef, payment_id: r.id, method: 'balance' },
      })
    } catch (err) {
      if (err instanceof ledger.InsufficientFunds) throw insufficient(c.asset, err.current, err.required)
      if (err instanceof ledger.RefConflict) throw conflict('errors.orderAlreadyPaid')
      throw err
    }
    await paid(ctx, tx, { orderRef: c.orderRef, userId: c.userId, asset: c.asset, amount: c.amount, paidAt: now })
    return toPayment(r)
  })
}

// ── On chain ────────────────────────────────────────────────────────────────────────────────────

/**
 * Records an on-chain payment to verify: 'pending' until checkChainPayments sees it mined, valid and
 * confirmed. The same submission again answers the same payment — looked for again if it had failed
 * as never mined; a tx hash already used by another order (even by a failed payment) → 409
 * errors.txHashUsed; an order already paid or being paid → 409.
 */
export async function submitChainPayment(ctx: Ctx, input: ChainPaymentInput): Promise<Payment> {
  const c = check(input)
  if (typeof input.txHash !== 'string' || !TX_HASH_RE.test(input.txHash)) throw badRequest('errors.txHashInvalid')
  const txHash = input.txHash.toLowerCase()
  let chainKey: string
  let required: number
  try {
    const settings = ctx.chain.chain(input.chain)
    ctx.chain.require(settings.key, ['rpc', c.asset as TokenSymbol])
    chainKey = settings.key
    required = settings.confirmations
  } catch (err) {
    if (err instanceof ChainUnavailableError) throw badRequest('errors.paymentChainUnsupported')
    throw err
  }
  if (!(TOKENS as readonly string[]).includes(c.asset)) throw badRequest('errors.paymentAssetUnsupported', { asset: c.asset })
  let to: string
  try {
    to = receivingAddress(ctx)
  } catch (err) {
    if (err instanceof ChainUnavailableError) throw badRequest('errors.paymentChainUnsupported')
    throw err
  }
  const user = await ctx.db.selectFrom('users').select(['wallet_address']).where('id', '=', c.userId).executeTakeFirst()
  if (!user) throw badRequest('errors.userNotFound')
  if (!user.wallet_address) throw badRequest('errors.paymentNoWallet')
  const from = user.wallet_address.toLowerCase()
  const now = ctx.now()
  return ctx.commits.write(async (tx) => {
    const used = await tx.row(ctx.db.selectFrom('payments').selectAll().where('chain', '=', chainKey).where('tx_hash', '=', txHash))
    if (used) {
      if (used.order_ref !== c.orderRef || !sameOrder(used, c)) throw conflict('errors.txHashUsed')
      if (used.status !== 'failed' || used.fail_reason !== 'not_found') return toPayment(used)
      // Reported again after it was given up as never mined: a transaction stuck for a while can be
      // mined later, its tokens gone from the wallet, so it is looked for once more.
      const open = await openPaymentOf(ctx, tx, c.orderRef)
      if (open) throw orderTaken(open)
      await input.guard?.(tx)
      const again = { status: 'pending', fail_reason: null, fail_detail: null, created_at: BigInt(now) } as const
      await tx.exec(ctx.db.updateTable('payments').set({ ...again, updated_at: BigInt(now) }).where('id', '=', used.id).where('status', '=', 'failed'))
      return toPayment({ ...used, ...again, updated_at: BigInt(now) })
    }
    const open = await openPaymentOf(ctx, tx, c.orderRef)
    if (open) throw orderTaken(open)
    await input.guard?.(tx)
    const r = (await tx.row(
      ctx.db
        .insertInto('payments')
        .values({
          order_ref: c.orderRef,
          user_id: c.userId,
          method: 'chain',
          asset: c.asset,
          amount: c.amount,
          payee: encodePayee(c.payee),
          status: 'pending',
          chain: chainKey,
          tx_hash: txHash,
          from_address: from,
          to_address: to,
          amount_wei: null,
          block_number: null,
          block_hash: null,
          required: BigInt(required),
          fail_reason: null,
          fail_detail: null,
          created_at: BigInt(now),
          updated_at: BigInt(now),
          paid_at: null,
        })
        .returningAll(),
    ))!
    return toPayment(r)
  })
}

/** The order's payment: the open or paid one, else the latest failed one; null when none. */
export function paymentStatus(ctx: Ctx, orderRef: string): Promise<Payment | null> {
  return paymentStatusIn(ctx, ctx.sql, orderRef)
}

/** paymentStatus through `q`: a transaction's tx (its writes seen), or the database outside any. */
export async function paymentStatusIn(ctx: Pick<Ctx, 'db'>, q: Queryable, orderRef: string): Promise<Payment | null> {
  const rs = await q.rows(ctx.db.selectFrom('payments').selectAll().where('order_ref', '=', orderRef).orderBy('id', 'desc'))
  const r = rs.find((x) => x.status !== 'failed') ?? rs[0]
  return r ? toPayment(r) : null
}

type Verdict = { ok: true; amountWei: bigint; transfers: TransferLog[] } | { ok: false; reason: PaymentFailReason; detail: string }

/** Sender, token, recipient and amount of a successful receipt against the payment. Pure. */
export function verifyReceipt(p: Pick<Row, 'asset' | 'amount' | 'from_address' | 'to_address'>, r: TxReceipt): Verdict {
  const to = (p.to_address ?? '').toLowerCase()
  const toUs = r.transfers.filter((t) => t.to.toLowerCase() === to)
  if (toUs.length === 0) return { ok: false, reason: 'wrong_recipient', detail: `no token transfer to ${p.to_address} in the transaction` }
  const rightToken = toUs.filter((t) => t.token === p.asset)
  if (rightToken.length === 0) return { ok: false, reason: 'wrong_token', detail: `sent ${[...new Set(toUs.map((t) => t.token))].join(', ')}, expected ${p.asset}` }
  const fromUser = rightToken.filter((t) => t.from.toLowerCase() === p.from_address)
  if (fromUser.length === 0) return { ok: false, reason: 'wrong_sender', detail: `sent from ${rightToken.map((t) => t.from).join(', ')}, expected ${p.from_address}` }
  const paid = fromUser.reduce((s, t) => s + t.amount, 0n)
  const needed = toTokenUnits(p.amount)
  if (paid < needed) return { ok: false, reason: 'amount_too_low', detail: `paid ${paid} wei, required ${needed} wei` }
  return { ok: true, amountWei: paid, transfers: fromUser }
}

export interface PaymentPass {
  checked: number
  paid: number
  failed: number
}

const inFlight = new WeakMap<Ctx, Promise<PaymentPass>>()

/** One pass over the chain payments not settled yet. Passes never overlap (a call during one runs after it). */
export function checkChainPayments(ctx: Ctx): Promise<PaymentPass> {
  const prev = inFlight.get(ctx) ?? Promise.resolve({ checked: 0, paid: 0, failed: 0 })
  const next = prev.catch(() => undefined).then(() => passAll(ctx))
  inFlight.set(ctx, next)
  return next
}

async function passAll(ctx: Ctx): Promise<PaymentPass> {
  const pass: PaymentPass = { checked: 0, paid: 0, failed: 0 }
  const open = await ctx.db.selectFrom('payments').selectAll().where('status', 'in', ['pending', 'confirming']).orderBy('id').execute()
  const heads = new Map<string, number>()
  for (const p of open) {
    try {
      const chain = p.chain!
      let head = heads.get(chain)
      if (head === undefined) heads.set(chain, (head = await ctx.chain.blockNumber(chain)))
      const outcome = await checkOne(ctx, p, head)
      pass.checked++
      if (outcome === 'paid') pass.paid++
      else if (outcome === 'failed') pass.failed++
    } catch (err) {
      ctx.log.warn({ err, payment: Number(p.id), chain: p.chain }, 'payment check failed, retried next pass')
    }
  }
  return pass
}

/** Changes the row only if it is still as read (status and block hash), so a concurrent change wins. */
function update(ctx: Ctx, tx: Tx, p: Row, set: Partial<Omit<Row, 'id'>>): Promise<number> {
  let q = ctx.db
    .updateTable('payments')
    .set({ ...set, updated_at: BigInt(ctx.now()) })
    .where('id', '=', p.id)
    .where('status', '=', p.status)
  q = p.block_hash === null ? q.where('block_hash', 'is', null) : q.where('block_hash', '=', p.block_hash)
  return tx.exec(q)
}

/** One conditional update of the row, a transaction of its own. */
const updateAlone = (ctx: Ctx, p: Row, set: Partial<Omit<Row, 'id'>>): Promise<number> => ctx.sql.transaction((tx) => update(ctx, tx, p, set))

async function fail(ctx: Ctx, p: Row, reason: PaymentFailReason, detail: string): Promise<'failed' | null> {
  const n = await updateAlone(ctx, p, { status: 'failed', fail_reason: reason, fail_detail: detail })
  if (n === 1) ctx.log.info({ payment: Number(p.id), order: p.order_ref, tx: p.tx_hash, reason, detail }, 'chain payment failed')
  return n === 1 ? 'failed' : null
}

async function checkOne(ctx: Ctx, p: Row, head: number): Promise<'paid' | 'failed' | null> {
  const chain = p.chain!
  const receipt = await ctx.chain.receipt(chain, p.tx_hash!)
  if (!receipt) {
    if (p.status === 'confirming') {
      // Its block left the chain and the tx is not (yet) mined again: wait for it from scratch.
      await updateAlone(ctx, p, { status: 'pending', block_number: null, block_hash: null, confirmations: 0n })
      return null
    }
    if (ctx.now() - Number(p.created_at) >= settings(ctx).pendingTimeoutMs) {
      return fail(ctx, p, 'not_found', `no receipt for ${p.tx_hash} on ${chain} within ${settings(ctx).pendingTimeoutMs} ms`)
    }
    return null
  }
  if (receipt.status === 'reverted') return fail(ctx, p, 'reverted', `transaction reverted in block ${receipt.blockNumber}`)
  const verdict = verifyReceipt(p, receipt)
  if (!verdict.ok) return fail(ctx, p, verdict.reason, verdict.detail)

  const confirmations = Math.max(0, head - receipt.blockNumber + 1)
  const required = Number(p.required)
  if (p.status === 'pending' || p.block_hash !== receipt.blockHash) {
    // First seen mined, or mined again in another block after a reorg: confirm from there.
    const n = await updateAlone(ctx, p, {
      status: 'confirming',
      block_number: BigInt(receipt.blockNumber),
      block_hash: receipt.blockHash,
      amount_wei: verdict.amountWei.toString(),
      confirmations: BigInt(Math.min(confirmations, required)),
    })
    if (n !== 1) return null
    p = { ...p, status: 'confirming', block_number: BigInt(receipt.blockNumber), block_hash: receipt.blockHash, amount_wei: verdict.amountWei.toString() }
  }
  if (confirmations < required) {
    if (BigInt(confirmations) !== p.confirmations) await updateAlone(ctx, p, { confirmations: BigInt(confirmations) })
    return null
  }
  // Once more, right before paying: the block must still be the one the receipt was in.
  const block = await ctx.chain.block(chain, receipt.blockNumber)
  if (block?.hash !== p.block_hash) return null // replaced or lagging: the next pass reads the receipt again
  const now = ctx.now()
  let ended: PaymentFailReason | null = null
  const done = await ctx.sql.transaction(async (tx) => {
    // The row first, as read or not at all: the arrival handler may reinstate the order, which must
    // not be written for a payment a concurrent pass settled meanwhile.
    if ((await update(ctx, tx, p, {})) !== 1) return false
    const outcome = await arrival(ctx, tx, { orderRef: p.order_ref, userId: p.user_id, paidAt: block.timestamp * 1000 })
    if (outcome !== 'pay') {
      ended = outcome
      return creditInstead(ctx, tx, p, verdict.transfers, outcome, now)
    }
    if ((await update(ctx, tx, p, { status: 'paid', confirmations: BigInt(required), paid_at: BigInt(now) })) !== 1) return false
    await ledger.transfer(tx, {
      ref: ref(p.order_ref),
      reason: 'payment',
      userId: p.user_id,
      from: ledger.custody(chain),
      to: decodePayee(p.payee),
      asset: p.asset,
      amount: p.amount,
      at: now,
      meta: { order_ref: p.order_ref, payment_id: p.id, method: 'chain', chain, tx_hash: p.tx_hash },
    })
    await paid(ctx, tx, { orderRef: p.order_ref, userId: p.user_id, asset: p.asset, amount: p.amount, paidAt: now })
    return true
  })
  if (done && ended) ctx.log.warn({ payment: Number(p.id), order: p.order_ref, tx: p.tx_hash, reason: ended }, 'chain payment of an ended order credited to its payer')
  else if (done) ctx.log.info({ payment: Number(p.id), order: p.order_ref, tx: p.tx_hash }, 'chain payment paid')
  return done ? (ended ? 'failed' : 'paid') : null
}

/**
 * In the paying transaction: the order ended before its payment confirmed, so the payment fails and
 * each verified transfer goes to the payer's fund account as the deposit it then is. The deposit
 * watcher's ref makes it one posting per transfer, whichever of the two gets there first.
 */
async function creditInstead(ctx: Ctx, tx: Tx, p: Row, transfers: TransferLog[], reason: PaymentFailReason, now: number): Promise<boolean> {
  const detail = `order ended before the payment confirmed; ${p.amount_wei} wei credited to the payer's fund account`
  if ((await update(ctx, tx, p, { status: 'failed', fail_reason: reason, fail_detail: detail, confirmations: p.required })) !== 1) return false
  for (const t of transfers) {
    const amount = toLedgerUnits(t.amount, 'floor')
    if (amount === 0n) continue
    await creditTransfer(tx, { chain: t.chain, txHash: t.txHash, logIndex: t.logIndex, userId: p.user_id, asset: t.token, amount, at: now }, (difference) =>
      ctx.log.error({ payment: Number(p.id), tx: t.txHash, logIndex: t.logIndex, difference }, 'late chain payment already credited as a deposit'),
    )
  }
  return true
}

// ── The job ─────────────────────────────────────────────────────────────────────────────────────

/** Runs checkChainPayments every pollMs while a chain is reachable; the stop waits for a pass in flight. */
export function startPaymentChecker(ctx: Ctx): () => Promise<void> {
  if (!ctx.chain.chains().some((c) => ctx.chain.missing(c.key, ['rpc']).length === 0)) return async () => {}
  const stop = startJobs(ctx, [{ name: 'payments', everyMs: settings(ctx).pollMs, run: checkChainPayments }])
  return async () => {
    stop()
    await inFlight.get(ctx)?.catch(() => undefined)
  }
}
