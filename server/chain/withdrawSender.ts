// The withdrawal sender (DESIGN §7): a job that sends approved withdrawals from the hot wallet and
// follows each transaction to its confirmations.
//
// Crash safety rests on one order of events. The gateway signs the transfer and hands it to
// beforeBroadcast, which commits {tx_hash, raw, nonce} durably (status broadcast) BEFORE the gateway
// broadcasts it. So whatever moment the process dies at:
//   - before that commit: nothing was broadcast; the withdrawal is still approved and is signed anew;
//   - after it: the withdrawal is only ever finished by watching that very transaction. Each pass
//     broadcasts the stored bytes again while no receipt is seen; a node that already has them (or
//     mined them) accepts that as a no-op, so the transfer happens at most once.
// Nothing new is sent on a chain while one of its stored transactions is unknown to the node, so a
// restart never hands a stored transaction's nonce to another withdrawal.
//
// Every change of a withdrawal is a transaction of its own (the store's), never opened around a chain
// call: it commits on its own and is never a savepoint another request's rollback could undo.
//
// Outcomes: enough confirmations → confirmed (amount → custody:<chain>, fee → fees); a send that fails
// before anything is stored (the hot wallet holds too little, the transfer would revert, or the node
// stays unreachable for `sendAttempts` passes) → failed and refunded; a reverted transaction, or one
// whose nonce another transaction took, once that is `required` blocks deep → failed and refunded.
import type { Ctx } from '../context.ts'
import type { Job } from '../jobs/scheduler.ts'
import {
  chainsWithWork,
  COIN,
  confirm,
  fail,
  inStatus,
  markBroadcast,
  noteAttempt,
  noteConfirmations,
  WithdrawStateError,
  type WithdrawalRow,
} from '../modules/withdraw/store.ts'
import type { WithdrawSettings } from '../config.ts'
import { HotWalletBalanceError, type TxReceipt } from './gateway.ts'
import { AmountError, toTokenUnits } from './units.ts'

export interface SenderHooks {
  /** Runs right after a signed transaction is stored and before it is broadcast (tests put a crash here). */
  afterStore?: (w: WithdrawalRow) => void | Promise<void>
}

export interface PassReport {
  /** Transactions broadcast for the first time. */
  sent: number
  confirmed: number
  failed: number
  /** Broadcast withdrawals still short of their confirmations. */
  confirming: number
}

export interface WithdrawSender {
  /** One pass over every chain with work. Passes on one database never overlap, whoever starts them. */
  tick(): Promise<PassReport>
  /** Resolves once no pass is running (shutdown waits for it before the chains close). */
  idle(): Promise<void>
  /** The scheduler's entry. */
  job: Job
}

/** Sends per chain and pass; the rest wait for the next pass. */
const PER_PASS = 20
const BACKOFF_MAX_MS = 60_000

/** One chain of passes per database, shared by every sender on it (the app's job, a test's own). */
const passes = new WeakMap<object, Promise<unknown>>()

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300)

/** A send that failed before anything was stored and cannot succeed by trying again. */
function isPermanent(err: unknown): boolean {
  if (err instanceof HotWalletBalanceError || err instanceof RangeError || err instanceof AmountError) return true
  const code = (err as { code?: unknown } | null)?.code
  // CALL_EXCEPTION: the gas estimate says the transfer would revert.
  return code === 'CALL_EXCEPTION' || code === 'INVALID_ARGUMENT'
}

function isNonceTaken(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === 'NONCE_EXPIRED' || /nonce too low|nonce has already been used/i.test(message(err))
}

/** The receipt shows the hot wallet paying exactly this withdrawal. */
function paysOut(r: TxReceipt, w: WithdrawalRow): boolean {
  const amount = toTokenUnits(w.amount)
  return r.transfers.some((t) => t.token === COIN && t.from === w.from_address && t.to === w.address && t.amount === amount)
}

export function createWithdrawSender(ctx: Ctx, settings: WithdrawSettings, hooks: SenderHooks = {}): WithdrawSender {
  const gw = ctx.chain
  const log = ctx.log.child({ job: 'withdrawSender' })
  const required = ctx.config.limits.withdrawConfirmations
  const afterStore =
    hooks.afterStore ??
    (settings.failpoint === 'crash-after-store' && ctx.config.env !== 'production'
      ? () => {
          log.warn('failpoint crash-after-store: killing the process')
          process.kill(process.pid, 'SIGKILL')
        }
      : undefined)

  /** chain → when sending may be tried again after a failure that may heal, and how many in a row. */
  const backoff = new Map<string, { until: number; streak: number }>()
  /** withdrawal id → block height at which its stored transaction was first seen to have lost its nonce. */
  const noncesLost = new Map<bigint, number>()

  /** Follows the chain's broadcast withdrawals; answers whether one is unknown to the node (then nothing new is sent). */
  async function watch(chain: string, report: PassReport): Promise<boolean> {
    const watching = await inStatus(ctx, ['broadcast'], { chain })
    if (watching.length === 0) return false
    const head = await gw.blockNumber(chain)
    let blocked = false
    for (const w of watching) {
      const r = await gw.receipt(chain, w.tx_hash!)
      if (r) {
        noncesLost.delete(w.id)
        const confirmations = Math.max(1, head - r.blockNumber + 1)
        if (confirmations < required) {
          if (BigInt(confirmations) !== w.confirmations || BigInt(r.blockNumber) !== w.block_number) await noteConfirmations(ctx, w.id, confirmations, r.blockNumber)
          report.confirming++
        } else if (r.status === 'reverted') {
          if (await fail(ctx, w.id, ['broadcast'], 'reverted', `transaction ${w.tx_hash} reverted in block ${r.blockNumber}`)) {
            report.failed++
            log.warn({ withdrawal: Number(w.id), chain, tx: w.tx_hash }, 'withdrawal transaction reverted: refunded')
          }
        } else if (!paysOut(r, w)) {
          // Cannot happen for bytes we signed; if it does, a person must look before money moves.
          await noteConfirmations(ctx, w.id, confirmations, r.blockNumber, 'the receipt does not show this transfer')
          log.error({ withdrawal: Number(w.id), chain, tx: w.tx_hash }, 'withdrawal receipt does not show the expected transfer; left for an operator')
        } else if (await confirm(ctx, w.id, confirmations, r.blockNumber)) {
          report.confirmed++
          log.info({ withdrawal: Number(w.id), chain, tx: w.tx_hash, block: r.blockNumber }, 'withdrawal confirmed')
        }
        continue
      }
      // Not mined (yet, or any more after a reorg): make sure the node has the stored bytes.
      if (w.confirmations !== 0n) await noteConfirmations(ctx, w.id, 0, null)
      try {
        await gw.rebroadcast(chain, w.raw_tx!)
        noncesLost.delete(w.id)
        report.confirming++
      } catch (err) {
        if (isNonceTaken(err)) {
          // Another transaction took its nonce, so these bytes can never be mined. Wait until that is
          // `required` blocks deep, so no reorg can bring them back, then give the funds back.
          const since = noncesLost.get(w.id) ?? head
          noncesLost.set(w.id, since)
          if (head - since + 1 >= required) {
            noncesLost.delete(w.id)
            if (await fail(ctx, w.id, ['broadcast'], 'dropped', `nonce ${w.nonce} was used by another transaction: ${message(err)}`)) {
              report.failed++
              log.warn({ withdrawal: Number(w.id), chain, tx: w.tx_hash, nonce: Number(w.nonce) }, 'withdrawal transaction dropped: refunded')
            }
            continue
          }
        }
        blocked = true
        await noteConfirmations(ctx, w.id, 0, null, `broadcast again failed: ${message(err)}`)
        log.warn({ withdrawal: Number(w.id), chain, tx: w.tx_hash, err: message(err) }, 'stored withdrawal transaction not accepted by the node; retrying')
      }
    }
    return blocked
  }

  type Outcome = 'sent' | 'gone' | 'failed' | 'retry'

  async function send(w: WithdrawalRow, report: PassReport): Promise<Outcome> {
    const state = { stored: false }
    try {
      const hash = await gw.sendToken(w.chain, COIN, w.address, toTokenUnits(w.amount), {
        // The gateway awaits this before it broadcasts: markBroadcast commits it on its own, durably
        // (synced to disk), before the bytes leave.
        beforeBroadcast: async (tx) => {
          const row = await markBroadcast(ctx, w.id, { ...tx, from: gw.hotWalletAddress() })
          state.stored = true
          await afterStore?.(row)
        },
      })
      report.sent++
      backoff.delete(w.chain)
      log.info({ withdrawal: Number(w.id), chain: w.chain, tx: hash }, 'withdrawal broadcast')
      return 'sent'
    } catch (err) {
      if (state.stored) {
        // Stored, so it is this transaction or nothing: the next pass broadcasts the same bytes again.
        log.warn({ withdrawal: Number(w.id), chain: w.chain, err: message(err) }, 'withdrawal stored but its broadcast failed; retrying')
        return 'retry'
      }
      if (err instanceof WithdrawStateError) return 'gone' // rejected meanwhile: nothing was sent
      if (isPermanent(err)) {
        if (await fail(ctx, w.id, ['approved'], 'send_failed', message(err))) report.failed++
        log.warn({ withdrawal: Number(w.id), chain: w.chain, err: message(err) }, 'withdrawal could not be sent: refunded')
        return 'failed'
      }
      const row = await noteAttempt(ctx, w.id, message(err))
      if (row && row.attempts >= BigInt(settings.sendAttempts)) {
        if (await fail(ctx, w.id, ['approved'], 'send_failed', `gave up after ${row.attempts} attempts: ${message(err)}`)) report.failed++
        log.warn({ withdrawal: Number(w.id), chain: w.chain, err: message(err) }, 'withdrawal could not be sent after every attempt: refunded')
      } else {
        log.warn({ withdrawal: Number(w.id), chain: w.chain, attempt: Number(row?.attempts ?? 0), err: message(err) }, 'withdrawal send failed; retrying')
      }
      const streak = (backoff.get(w.chain)?.streak ?? 0) + 1
      backoff.set(w.chain, { streak, until: ctx.now() + Math.min(settings.everyMs * 2 ** (streak - 1), BACKOFF_MAX_MS) })
      return 'retry'
    }
  }

  async function chainPass(chain: string, report: PassReport): Promise<void> {
    if (await watch(chain, report)) return
    const wait = backoff.get(chain)
    if (wait && ctx.now() < wait.until) return
    for (const w of await inStatus(ctx, ['approved'], { chain, limit: PER_PASS })) {
      const outcome = await send(w, report)
      if (outcome === 'retry') return
    }
  }

  async function pass(): Promise<PassReport> {
    const report: PassReport = { sent: 0, confirmed: 0, failed: 0, confirming: 0 }
    await Promise.all(
      (await chainsWithWork(ctx)).map((chain) =>
        chainPass(chain, report).catch((err: unknown) => log.error({ chain, err: message(err) }, 'withdrawal pass failed on this chain; retried next pass')),
      ),
    )
    return report
  }

  const sender: WithdrawSender = {
    tick() {
      const run = (passes.get(ctx.sql) ?? Promise.resolve()).then(pass)
      passes.set(ctx.sql, run.catch(() => undefined))
      return run
    },
    async idle() {
      await passes.get(ctx.sql)
    },
    job: { name: 'withdrawSender', everyMs: settings.everyMs, run: () => sender.tick() },
  }
  return sender
}
