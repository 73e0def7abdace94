// Paying an activity's prizes when its window closes (issue 12 part 4): a job on the app's clock. Each
// prize is one ledger posting from the activity prize account, ref activity:<id>:rank:<rank>, written
// in the same transaction as its activity_winners row and the activity's settled_at, so a re-run or a
// second process pays nothing. An activity is paid whole or not at all: when the account holds less
// than its prizes need, nothing moves, the activity records why (`activity status` shows it, the log
// says it) and the next pass tries again once the operator has funded it (`activity fund`).
import type { Ctx } from '../../context.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { startJobs } from '../../jobs/scheduler.ts'
import * as ledger from '../../ledger/index.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { Measure } from '../../../contract/activity.ts'
import { readStoredPrizes } from './activityFile.ts'
import { payouts, sumByAsset, type Payout } from './rules.ts'
import { readTopScores } from './scores.ts'

/**
 * The payout waits this long after the close: an event stamped inside the window (a fill, a payment
 * confirmed) may commit a moment after it, and should count.
 */
export const SETTLE_GRACE_MS = 60_000
/** The ledger reason of a prize (the money log names it). */
export const PRIZE_REASON = 'activity_prize'

export class PrizeAccountShort extends Error {
  override name = 'PrizeAccountShort'
  constructor(
    readonly activityId: number,
    readonly asset: string,
    readonly available: bigint,
    readonly required: bigint,
  ) {
    super(`activity #${activityId} needs ${formatMoney(required)} ${asset} for its prizes; the activity prize account has ${formatMoney(available)}`)
  }
}

export interface ActivitySettled {
  activityId: number
  slug: string
  /** Prizes paid now. */
  paid: Payout[]
  /** Set when the payout stopped: nothing was paid. */
  halted?: string
}

interface DueRow {
  id: bigint
  slug: string
  measure: Measure
  starts_at: bigint
  ends_at: bigint
}

export const prizeRef = (activityId: number, rank: number) => `activity:${activityId}:rank:${rank}`

const S = statements({
  due: statement<DueRow, [{ cutoff: number }]>(
    'SELECT id, slug, measure, starts_at, ends_at FROM activities WHERE settled_at IS NULL AND active = 1 AND ends_at <= @cutoff ORDER BY ends_at, id',
  ),
  done: statement<{ rank: bigint }, [{ id: number }]>('SELECT rank FROM activity_winners WHERE activity_id = @id'),
  record: statement<never, [{ id: number; rank: number; user: number; score: bigint; reached: number; asset: string; amount: bigint; at: number }]>(
    'INSERT INTO activity_winners (activity_id, rank, user_id, score, reached_at, asset, amount, paid_at) VALUES (@id, @rank, @user, @score, @reached, @asset, @amount, @at)',
  ),
  settled: statement<never, [{ id: number; at: number }]>('UPDATE activities SET settled_at = @at, halted = NULL WHERE id = @id'),
  halted: statement<never, [{ id: number; why: string }]>('UPDATE activities SET halted = @why WHERE id = @id AND settled_at IS NULL'),
})

/**
 * Pays one ended activity in the caller's transaction, tx. Throws PrizeAccountShort, undoing
 * everything, when the account is short for any asset.
 */
export async function settleActivity(tx: Tx, a: DueRow, at: number): Promise<Payout[]> {
  const id = Number(a.id)
  const prizes = await readStoredPrizes(tx, id)
  // Only the places that can win, read from the board's index: the kept scores, not a recompute of
  // the window inside this write transaction.
  const ranks = prizes.length ? prizes[prizes.length - 1]!.to : 0
  const board = (await readTopScores(tx, id, ranks)).map((s, i) => ({ ...s, rank: i + 1 }))
  const done = new Set((await tx.all(S.done, { id })).map((r) => Number(r.rank)))
  const due = payouts(board, prizes).filter((p) => !done.has(p.rank))
  for (const [asset, required] of sumByAsset(due)) {
    const { available } = await ledger.balance(tx, ledger.ACTIVITY_PRIZES, asset)
    if (available < required) throw new PrizeAccountShort(id, asset, available, required)
  }
  for (const p of due) {
    await ledger.transfer(tx, {
      ref: prizeRef(id, p.rank),
      reason: PRIZE_REASON,
      userId: p.userId,
      from: ledger.ACTIVITY_PRIZES,
      to: ledger.fund(p.userId),
      asset: p.asset,
      amount: p.amount,
      at,
      meta: { activity: a.slug, activity_id: id, rank: p.rank },
    })
    await tx.run(S.record, { id, rank: p.rank, user: p.userId, score: p.score, reached: p.reachedAt, asset: p.asset, amount: p.amount, at })
  }
  await tx.run(S.settled, { id, at })
  return due
}

/**
 * One pass: every active activity closed at least SETTLE_GRACE_MS ago and not yet paid, a transaction
 * each. A short account halts that activity only (logged, recorded); the others are still paid.
 */
export async function payDueActivities(ctx: Pick<Ctx, 'sql' | 'now' | 'log'>): Promise<ActivitySettled[]> {
  const now = ctx.now()
  const due = await ctx.sql.all(S.due, { cutoff: now - SETTLE_GRACE_MS })
  const out: ActivitySettled[] = []
  for (const a of due) {
    const id = Number(a.id)
    try {
      const paid = await ctx.sql.transaction((tx) => settleActivity(tx, a, ctx.now()))
      out.push({ activityId: id, slug: a.slug, paid })
    } catch (err) {
      if (!(err instanceof PrizeAccountShort)) throw err
      ctx.log.error({ activity: a.slug, asset: err.asset, available: formatMoney(err.available), required: formatMoney(err.required) }, `activity prizes halted: ${err.message}`)
      await ctx.sql.transaction((tx) => tx.run(S.halted, { id, why: `${new Date(now).toISOString()}: ${err.message}` }))
      out.push({ activityId: id, slug: a.slug, paid: [], halted: err.message })
    }
  }
  return out
}

/** The payout job: a pass a minute on the app's clock (tests call payDueActivities with theirs). */
export function startActivityPayouts(ctx: Ctx, everyMs = 60_000): () => void {
  return startJobs(ctx, [{ name: 'activity-payouts', everyMs, run: payDueActivities }])
}
