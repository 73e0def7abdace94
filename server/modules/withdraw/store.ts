// The withdrawal state machine (DESIGN §7): every change of status is one transaction together with
// its ledger posting, so at every commit the frozen NADI of a user equals their open withdrawals.
//
//   requested → approved → broadcast → confirmed          (settle: amount → custody:<chain>, fee → fees)
//   requested | approved | broadcast → failed              (refund: amount + fee back to available)
//
// On the asynchronous way (ctx.sql), shared by the HTTP service, the sender job and the operator's
// command line. Queries are built with Kysely; every update names the status it expects, so a change
// that lost a race (another process, an operator) changes nothing. Each change is its own transaction;
// a request runs inside the group commit's batch instead, so create takes that batch's tx.
import type { Selectable, Updateable } from 'kysely'
import { formatMoney } from '../../../contract/money.ts'
import type { Withdrawal } from '../../../contract/withdraw.ts'
import type { ChainKey } from '../../../contract/recharge.ts'
import type { Db } from '../../db/index.ts'
import type { Sql, Tx } from '../../db/query/types.ts'
import type { WithdrawalsTable } from '../../db/schema.ts'
import { balance, custody, FEES, freeze, fund, InsufficientFunds, post, unfreeze, type Move } from '../../ledger/index.ts'

export type WithdrawalRow = Selectable<WithdrawalsTable>
export type WithdrawStatus = WithdrawalRow['status']
export type FailReason = NonNullable<WithdrawalRow['fail_reason']>
/** The statuses that still hold the user's funds frozen. */
export const OPEN_STATUSES: readonly WithdrawStatus[] = ['requested', 'approved', 'broadcast']
export const COIN = 'NADI'

/** What the state machine needs: the database, Kysely to build queries, a clock. */
export interface Store {
  sql: Sql
  db: Db
  now: () => number
}

/** A withdrawal was not in a status the change starts from (or does not exist). */
export class WithdrawStateError extends Error {
  override name = 'WithdrawStateError'
  constructor(
    readonly id: bigint,
    readonly status: WithdrawStatus | null,
    readonly expected: readonly WithdrawStatus[],
  ) {
    super(status === null ? `no withdrawal ${id}` : `withdrawal ${id} is ${status}, not ${expected.join(' or ')}`)
  }
}

/** The amount and fee did not fit in the user's available NADI; nothing was written. */
export class WithdrawBalanceError extends Error {
  override name = 'WithdrawBalanceError'
  constructor(
    readonly available: bigint,
    readonly required: bigint,
  ) {
    super(`insufficient NADI: available ${formatMoney(available)}, required ${formatMoney(required)}`)
  }
}

// ── Reading ─────────────────────────────────────────────────────────────────────────────────────

export async function byId(store: Store, id: bigint): Promise<WithdrawalRow | null> {
  return (await store.sql.row(store.db.selectFrom('withdrawals').selectAll().where('id', '=', id))) ?? null
}

/** Withdrawals in the given statuses, oldest first (all chains unless one is named). */
export function inStatus(store: Store, statuses: readonly WithdrawStatus[], opts: { chain?: string; limit?: number } = {}): Promise<WithdrawalRow[]> {
  let q = store.db.selectFrom('withdrawals').selectAll().where('status', 'in', [...statuses])
  if (opts.chain !== undefined) q = q.where('chain', '=', opts.chain)
  return store.sql.rows(q.orderBy('id', 'asc').limit(opts.limit ?? 1000))
}

/** The chains that have withdrawals to send or to watch. */
export async function chainsWithWork(store: Store): Promise<string[]> {
  const q = store.db.selectFrom('withdrawals').select('chain').distinct().where('status', 'in', ['approved', 'broadcast']).orderBy('chain')
  return (await store.sql.rows(q)).map((r) => r.chain)
}

export function toWire(r: WithdrawalRow, required: number): Withdrawal {
  return {
    id: Number(r.id),
    coin: COIN,
    chain: r.chain as ChainKey,
    amount: formatMoney(r.amount),
    fee: formatMoney(r.fee),
    address: r.address,
    status: r.status,
    tx_hash: r.tx_hash,
    confirmations: Number(r.confirmations),
    required,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  }
}

// ── Changing ────────────────────────────────────────────────────────────────────────────────────

const ref = (id: bigint, step: 'freeze' | 'settle' | 'refund') => `withdraw:${id}:${step}`

export interface NewWithdrawal {
  userId: bigint
  chain: string
  amount: bigint
  fee: bigint
  /** Checksummed. */
  address: string
  /** Approved at once (below the automatic threshold) or left for an operator. */
  autoApprove: boolean
}

/**
 * Records a withdrawal and freezes amount + fee in the user's fund NADI, in the caller's transaction
 * `tx` (a request's group-commit batch). Throws WithdrawBalanceError when they do not fit in what is
 * available: before anything is written when the read already shows it, else from the ledger's
 * refusal of the freeze, after the insert — the caller's transaction (or savepoint) must roll back.
 */
export async function create(tx: Tx, store: Pick<Store, 'db' | 'now'>, w: NewWithdrawal): Promise<WithdrawalRow> {
  const { db } = store
  const now = BigInt(store.now())
  const total = w.amount + w.fee
  const { available } = await balance(tx, fund(w.userId), COIN)
  if (total > available) throw new WithdrawBalanceError(available, total)
  const row = (await tx.row(
    db
      .insertInto('withdrawals')
      .values({
        user_id: w.userId,
        coin: COIN,
        chain: w.chain,
        amount: w.amount,
        fee: w.fee,
        address: w.address,
        status: w.autoApprove ? 'approved' : 'requested',
        approved_by: w.autoApprove ? 'auto' : null,
        approved_at: w.autoApprove ? now : null,
        created_at: now,
        updated_at: now,
      })
      .returningAll(),
  ))!
  try {
    await freeze(tx, {
      ref: ref(row.id, 'freeze'),
      reason: 'withdraw_freeze',
      account: fund(w.userId),
      asset: COIN,
      amount: total,
      meta: { withdrawal: row.id, chain: w.chain, address: w.address, amount: w.amount, fee: w.fee },
      at: Number(now),
    })
  } catch (err) {
    // The read above may be stale beside another connection; the ledger's refusal is the same answer.
    if (err instanceof InsufficientFunds) throw new WithdrawBalanceError(err.current, total)
    throw err
  }
  return row
}

/**
 * Moves withdrawal `id` from one of `from` to `to` with the extra columns `set`, and runs `ledger` with
 * the updated row in the same transaction. Null when the withdrawal is not in `from` (nothing changed).
 */
function move(
  store: Store,
  id: bigint,
  from: readonly WithdrawStatus[],
  to: WithdrawStatus,
  set: Updateable<WithdrawalsTable> = {},
  ledger?: (tx: Tx, row: WithdrawalRow) => Promise<unknown>,
  opts: { durable?: boolean } = {},
): Promise<WithdrawalRow | null> {
  const { db } = store
  const now = BigInt(store.now())
  return store.sql.transaction(async (tx) => {
    const row = await tx.row(
      db
        .updateTable('withdrawals')
        .set({ ...set, status: to, updated_at: now })
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .returningAll(),
    )
    if (!row) return null
    await ledger?.(tx, row)
    return row
  }, opts)
}

async function orThrow(store: Store, id: bigint, from: readonly WithdrawStatus[], row: WithdrawalRow | null): Promise<WithdrawalRow> {
  if (row) return row
  throw new WithdrawStateError(id, (await byId(store, id))?.status ?? null, from)
}

function refund(tx: Tx, store: Store, row: WithdrawalRow, reason: FailReason) {
  return unfreeze(tx, {
    ref: ref(row.id, 'refund'),
    reason: 'withdraw_refund',
    account: fund(row.user_id),
    asset: COIN,
    amount: row.amount + row.fee,
    meta: { withdrawal: row.id, chain: row.chain, why: reason, tx_hash: row.tx_hash },
    at: store.now(),
  })
}

/** An operator approves a withdrawal that waits for one. */
export async function approve(store: Store, id: bigint): Promise<WithdrawalRow> {
  const from = ['requested'] as const
  const now = BigInt(store.now())
  return orThrow(store, id, from, await move(store, id, from, 'approved', { approved_by: 'operator', approved_at: now }))
}

/** An operator refuses a withdrawal not yet signed: it fails and its funds are returned. */
export async function reject(store: Store, id: bigint, note: string | null): Promise<WithdrawalRow> {
  const from = ['requested', 'approved'] as const
  const now = BigInt(store.now())
  const set = { fail_reason: 'rejected', fail_detail: note, finished_at: now } as const
  return orThrow(store, id, from, await move(store, id, from, 'failed', set, (tx, row) => refund(tx, store, row, 'rejected')))
}

export interface StoredTx {
  hash: string
  raw: string
  nonce: number
  /** The signing hot wallet. */
  from: string
}

/**
 * The signed transaction, committed durably before it is broadcast (the gateway's beforeBroadcast):
 * from here on the withdrawal is only ever finished by watching this very transaction. Throws
 * WithdrawStateError when the withdrawal is no longer approved (then nothing is broadcast).
 *
 * The commit is synced to disk (durable: synchronous = FULL on SQLite): NORMAL loses nothing on a
 * process crash, but could lose the last commits on a power cut, and for a signed transaction about
 * to be broadcast that would mean sending it twice.
 */
export async function markBroadcast(store: Store, id: bigint, signed: StoredTx): Promise<WithdrawalRow> {
  const from = ['approved'] as const
  const set = { tx_hash: signed.hash, raw_tx: signed.raw, nonce: BigInt(signed.nonce), from_address: signed.from, broadcast_at: BigInt(store.now()), last_error: null }
  return orThrow(store, id, from, await move(store, id, from, 'broadcast', set, undefined, { durable: true }))
}

/** A send that failed before anything was signed and stored: counted, the withdrawal stays approved. */
export async function noteAttempt(store: Store, id: bigint, error: string): Promise<WithdrawalRow | null> {
  const { sql, db } = store
  return (
    (await sql.row(
      db
        .updateTable('withdrawals')
        .set((eb) => ({ attempts: eb('attempts', '+', 1n), last_error: error.slice(0, 500), updated_at: BigInt(store.now()) }))
        .where('id', '=', id)
        .where('status', '=', 'approved')
        .returningAll(),
    )) ?? null
  )
}

/** Progress of a broadcast withdrawal: its receipt's block and confirmations (0 while not mined). */
export async function noteConfirmations(store: Store, id: bigint, confirmations: number, blockNumber: number | null, error: string | null = null): Promise<void> {
  const { sql, db } = store
  await sql.exec(
    db
      .updateTable('withdrawals')
      .set({
        confirmations: BigInt(confirmations),
        block_number: blockNumber === null ? null : BigInt(blockNumber),
        last_error: error?.slice(0, 500) ?? null,
        updated_at: BigInt(store.now()),
      })
      .where('id', '=', id)
      .where('status', '=', 'broadcast'),
  )
}

/** Enough confirmations: the amount goes to the chain's custody account and the fee to fees. */
export function confirm(store: Store, id: bigint, confirmations: number, blockNumber: number): Promise<WithdrawalRow | null> {
  const now = BigInt(store.now())
  const set = { confirmations: BigInt(confirmations), block_number: BigInt(blockNumber), finished_at: now, last_error: null }
  return move(store, id, ['broadcast'], 'confirmed', set, (tx, row) => {
    const moves: Move[] = [{ from: fund(row.user_id), to: custody(row.chain), asset: COIN, amount: row.amount, fromBucket: 'frozen' }]
    if (row.fee > 0n) moves.push({ from: fund(row.user_id), to: FEES, asset: COIN, amount: row.fee, fromBucket: 'frozen' })
    return post(tx, {
      ref: ref(row.id, 'settle'),
      reason: 'withdraw',
      userId: row.user_id,
      meta: { withdrawal: row.id, chain: row.chain, address: row.address, tx_hash: row.tx_hash, amount: row.amount, fee: row.fee },
      moves,
      at: Number(now),
    })
  })
}

/** The withdrawal cannot complete: it fails and amount + fee return to the user's available NADI. */
export function fail(store: Store, id: bigint, from: readonly WithdrawStatus[], reason: FailReason, detail: string): Promise<WithdrawalRow | null> {
  const set = { fail_reason: reason, fail_detail: detail.slice(0, 500), finished_at: BigInt(store.now()) }
  return move(store, id, from, 'failed', set, (tx, row) => refund(tx, store, row, reason))
}
