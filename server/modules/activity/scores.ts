// Activity scores (issue 12 part 4), kept at event time in activity_scores (migration 022): the
// transaction that pays a product order, burns NADI, fills a trade or registers a user adds to the
// score of every activity whose window contains the event and whose measure it is, so a leaderboard
// is an indexed read with a LIMIT and the payout reads the same rows (nothing is recomputed on a
// request or inside the payout's write transaction). The raw tables stay the reference:
// readStandings() recomputes a window from them, rebuildScores() rewrites an activity's rows from them
// when the operator adds it or moves its window, and a property test checks the two always agree.
//
// Users without a wallet (the root account, the demo market's traders) are the platform's own and
// never on a leaderboard: neither the hooks nor the reference count them.
import { sql, type Kysely, type Transaction } from 'kysely'
import type { Measure } from '../../../contract/activity.ts'
import { listStatement } from '../../db/query/list.ts'
import { statement, statements, type Queryable } from '../../db/query/types.ts'
import { isSync, run, runOn, runSync, type Answer, type On, type Steps } from '../../db/steps.ts'
import type { DB } from '../../db/schema.ts'
import { rankScores, type Ranked } from './rules.ts'

/**
 * The reference, one query per measure: user_id, score and reached_at (the last counted event) for
 * events in [@from, @to). Amounts are units of 1e-8 (USDT for purchases and trading, NADI for destroy).
 * An event of 0 counts for nothing, as the hooks skip it.
 */
const MEASURE_SQL: Record<Measure, string> = {
  // Product orders (devices, gold, cars) paid in the window, at what they cost in USDT.
  purchases: `SELECT user_id, sum(total) AS score, max(paid_at) AS reached_at FROM pay_orders
    WHERE paid_at >= @from AND paid_at < @to AND type IN ('device', 'gold', 'car') AND asset = 'USDT' AND total > 0 GROUP BY user_id`,
  // NADI destroyed for mining power in the window.
  destroy: `SELECT user_id, sum(amount) AS score, max(created_at) AS reached_at FROM mining_buys
    WHERE kind = 'destroy' AND created_at >= @from AND created_at < @to AND amount > 0 GROUP BY user_id`,
  // Spot volume: the USDT value of every fill the user took part in, on either side.
  trading: `SELECT user_id, sum(quote) AS score, max(created_at) AS reached_at FROM trade_deals
    WHERE created_at >= @from AND created_at < @to AND quote > 0 GROUP BY user_id`,
  // New members anywhere below the user: each registration in the window counts once for every
  // ancestor, walked up the inviter chain by a recursive query (no recursion on the JS stack).
  team_growth: `WITH RECURSIVE up(ancestor, at) AS (
      SELECT inviter_id, created_at FROM users WHERE created_at >= @from AND created_at < @to AND inviter_id IS NOT NULL
      UNION ALL
      SELECT u.inviter_id, up.at FROM up JOIN users u ON u.id = up.ancestor WHERE u.inviter_id IS NOT NULL
    )
    SELECT ancestor AS user_id, count(*) AS score, max(at) AS reached_at FROM up GROUP BY ancestor`,
}

const ranked = (measure: Measure) => `SELECT s.user_id, s.score, s.reached_at, u.name FROM (${MEASURE_SQL[measure]}) s
      JOIN users u ON u.id = s.user_id WHERE u.wallet_address IS NOT NULL AND s.score > 0`

export interface Standing extends Ranked {
  name: string
}

type Scored = { user_id: bigint; score: bigint; reached_at: bigint; name: string }
type Window = [{ from: bigint | number; to: bigint | number }]

/** The reference's read of each measure, and the rest of a rebuild. */
const REBUILD = statements({
  purchases: statement<Scored, Window>(ranked('purchases')),
  destroy: statement<Scored, Window>(ranked('destroy')),
  trading: statement<Scored, Window>(ranked('trading')),
  team_growth: statement<Scored, Window>(ranked('team_growth')),
  window: statement<{ measure: Measure; starts_at: bigint; ends_at: bigint }, [{ id: bigint | number }]>(`SELECT measure, starts_at, ends_at FROM activities WHERE id = @id`),
  drop: statement<never, [{ id: bigint | number }]>('DELETE FROM activity_scores WHERE activity_id = @id'),
  put: statement<never, [{ id: bigint | number; user: bigint; score: bigint; reached: bigint }]>('INSERT INTO activity_scores (activity_id, user_id, score, reached_at) VALUES (@id, @user, @score, @reached)'),
})

/**
 * The whole leaderboard of a window recomputed from the raw tables, ranked (ties: who reached the
 * score first). The reference the tests compare the kept rows with, not a request's path.
 */
export async function readStandings(q: Queryable, measure: Measure, from: number, to: number): Promise<Standing[]> {
  const rows = await q.all(REBUILD[measure], { from, to })
  const names = new Map(rows.map((r) => [Number(r.user_id), r.name]))
  return rankScores(rows.map((r) => ({ userId: Number(r.user_id), score: BigInt(r.score), reachedAt: Number(r.reached_at) }))).map((r) => ({ ...r, name: names.get(r.userId) ?? '' }))
}

/**
 * Rewrites an activity's score rows from the raw tables, in the caller's transaction: when the
 * operator adds an activity or changes its window or measure (`activity load`), the rows the hooks
 * kept no longer describe it. Costs one reference read of the window: an operator's command, never a request.
 */
export async function rebuildScores(tx: Queryable, activityId: bigint | number): Promise<void> {
  const a = await tx.get(REBUILD.window, { id: activityId })
  await tx.run(REBUILD.drop, { id: activityId })
  if (!a) return
  const rows = await tx.all(REBUILD[a.measure], { from: a.starts_at, to: a.ends_at })
  for (const r of rows) await tx.run(REBUILD.put, { id: activityId, user: r.user_id, score: r.score, reached: r.reached_at })
}

// ── The hooks: one call from each site that writes a measured event, in its transaction ────────────

// An event counts for every activity of its measure whose window [starts_at, ends_at) holds the
// event's own time (the column the reference reads), active or not: hiding an activity for a while
// must not lose its scores. A late commit inside the payout's grace still counts. The reached_at kept
// is the latest event's, as the reference's max() is, whatever order the events commit in.
const UPSERT = `ON CONFLICT (activity_id, user_id) DO UPDATE SET score = activity_scores.score + excluded.score, reached_at = CASE WHEN excluded.reached_at > activity_scores.reached_at THEN excluded.reached_at ELSE activity_scores.reached_at END`

type ScoreArgs = { measure: Exclude<Measure, 'team_growth'>; user: bigint | number; amount: bigint; at: number }
const HOOKS = statements({
  // "WHERE" after the join keeps SQLite from reading ON CONFLICT as part of it.
  add: statement<never, [ScoreArgs]>(`INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
        SELECT a.id, u.id, @amount, @at FROM activities a JOIN users u ON u.id = @user
        WHERE a.measure = @measure AND a.ends_at > @at AND a.starts_at <= @at AND u.wallet_address IS NOT NULL
        ${UPSERT}`),
})

/**
 * Adds `amount` to `userId`'s score in every activity measuring `measure` whose window holds `at`: at
 * once on the synchronous connection, awaited on a transaction of the asynchronous way.
 */
function addScoreOn<C extends On>(c: C, measure: ScoreArgs['measure'], userId: bigint | number, amount: bigint, at: number): Answer<C, void> {
  function* steps(): Steps<void> {
    if (amount > 0n) yield* run(HOOKS.add, { measure, user: userId, amount, at })
  }
  return (isSync(c) ? runSync(c, steps()) : runOn(c, steps())) as Answer<C, void> // the branch taken is the one C names
}

/** A pay_orders row just marked paid at `paidAt` (preOrder fulfil): product orders in USDT count as purchases. */
export function scorePurchase<C extends On>(c: C, order: { user_id: bigint; type: string; asset: string; total: bigint }, paidAt: number): Answer<C, void> {
  const counts = (order.type === 'device' || order.type === 'gold' || order.type === 'car') && order.asset === 'USDT'
  return addScoreOn(c, 'purchases', order.user_id, counts ? order.total : 0n, paidAt)
}

/** A mining_buys row of kind `kind` written at `at`: destroyed NADI counts for destroy. */
export function scoreMiningBuy<C extends On>(c: C, kind: string, userId: bigint | number, amount: bigint, at: number): Answer<C, void> {
  return addScoreOn(c, 'destroy', userId, kind === 'destroy' ? amount : 0n, at)
}

/** Fills per statement of scoreFills: 6 parameters each. */
const FILLS_PER_STATEMENT = 500

/**
 * Fills, each with its two trade_deals rows: a fill's quote counts as volume for the buyer and for the
 * seller. One statement per FILLS_PER_STATEMENT (the market's batch), each (activity, user) summed
 * first, since one statement may not upsert a row twice on PostgreSQL: the same rows as one upsert
 * per side of each fill. Through the market's batch tx (its only caller).
 */
export async function scoreFills(tx: Queryable, fills: readonly { buyerId: number; sellerId: number; quote: bigint; at: number }[]): Promise<void> {
  const counted = fills.filter((f) => f.quote > 0n)
  for (let from = 0; from < counted.length; from += FILLS_PER_STATEMENT) {
    const chunk = counted.slice(from, from + FILLS_PER_STATEMENT)
    // Two rows a fill: its buyer's and its seller's.
    const params = chunk.flatMap((f) => [f.buyerId, f.quote, f.at, f.sellerId, f.quote, f.at])
    await tx.run(
      listStatement(
        'INSERT INTO activity_scores (activity_id, user_id, score, reached_at) SELECT a.id, u.id, SUM(v.column2), MAX(v.column3) FROM (',
        '(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))',
        ['bigint', 'bigint', 'bigint'],
        chunk.length * 2,
        `) AS v JOIN users u ON u.id = v.column1 JOIN activities a ON a.measure = 'trading' AND a.ends_at > v.column3 AND a.starts_at <= v.column3
        WHERE u.wallet_address IS NOT NULL GROUP BY a.id, u.id ${UPSERT}`,
      ),
      ...params,
    )
  }
}

/**
 * A user registered at `at` (in the registration's Kysely transaction): one more member for every
 * ancestor, in each team_growth activity whose window holds `at`. The ancestors are walked by one
 * set-based statement, and only while such an activity runs.
 */
export async function scoreRegistration(trx: Transaction<DB> | Kysely<DB>, userId: bigint | number, at: number): Promise<void> {
  await sql`
    WITH RECURSIVE up(id) AS (
      SELECT inviter_id FROM users WHERE id = ${userId} AND inviter_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM activities WHERE measure = 'team_growth' AND ends_at > ${at} AND starts_at <= ${at})
      UNION ALL
      SELECT u.inviter_id FROM users u JOIN up ON u.id = up.id WHERE u.inviter_id IS NOT NULL
    )
    INSERT INTO activity_scores (activity_id, user_id, score, reached_at)
    SELECT a.id, up.id, 1, ${at} FROM up JOIN users w ON w.id = up.id JOIN activities a ON a.measure = 'team_growth'
    WHERE w.wallet_address IS NOT NULL AND a.ends_at > ${at} AND a.starts_at <= ${at}
    ${sql.raw(UPSERT)}`.execute(trx)
}

// ── Reading a board ───────────────────────────────────────────────────────────────────────────────

export interface ScoreRow {
  userId: number
  name: string
  score: bigint
  reachedAt: number
}

type Raw = { user_id: bigint; score: bigint; reached_at: bigint; name: string }
type Count = { n: bigint }
type Ahead = [{ id: number; score: bigint; reached: number; user: number }]

const BOARD = statements({
  top: statement<Raw, [{ id: number; limit: number; offset: number }]>(
    `SELECT s.user_id, s.score, s.reached_at, u.name FROM activity_scores s JOIN users u ON u.id = s.user_id
     WHERE s.activity_id = @id ORDER BY s.score DESC, s.reached_at, s.user_id LIMIT @limit OFFSET @offset`,
  ),
  one: statement<Raw, [{ id: number; user: number }]>(
    `SELECT s.user_id, s.score, s.reached_at, u.name FROM activity_scores s JOIN users u ON u.id = s.user_id
     WHERE s.activity_id = @id AND s.user_id = @user`,
  ),
  count: statement<Count, [{ id: number }]>('SELECT count(*) AS n FROM activity_scores WHERE activity_id = @id'),
  // Those ahead of a score: a higher score, or the same reached earlier (then a lower id). Two ranges
  // of the board index, counted without reading the rows.
  aheadHigher: statement<Count, Ahead>('SELECT count(*) AS n FROM activity_scores WHERE activity_id = @id AND score > @score'),
  aheadTied: statement<Count, Ahead>('SELECT count(*) AS n FROM activity_scores WHERE activity_id = @id AND score = @score AND (reached_at, user_id) < (@reached, @user)'),
})

const row = (r: Raw): ScoreRow => ({ userId: Number(r.user_id), name: r.name, score: r.score, reachedAt: Number(r.reached_at) })

/** The board's places from `offset` (0-based), at most `limit`, in rank order: a request's read, or the payout's in its transaction. */
export async function readTopScores(q: Queryable, activityId: number, limit: number, offset = 0): Promise<ScoreRow[]> {
  return (await q.all(BOARD.top, { id: activityId, limit, offset })).map(row)
}

/** One user's score row, or null when they have none. */
export async function readScoreOf(q: Queryable, activityId: number, userId: number): Promise<ScoreRow | null> {
  const r = await q.get(BOARD.one, { id: activityId, user: userId })
  return r ? row(r) : null
}

/** How many users have a score in the activity. */
export async function readParticipants(q: Queryable, activityId: number): Promise<number> {
  return Number((await q.get(BOARD.count, { id: activityId }))!.n)
}

/** The rank of a score row: 1 + those ahead of it on the board. */
export async function readRankOf(q: Queryable, activityId: number, s: ScoreRow): Promise<number> {
  const args = { id: activityId, score: s.score, reached: s.reachedAt, user: s.userId }
  const [higher, tied] = await Promise.all([q.get(BOARD.aheadHigher, args), q.get(BOARD.aheadTied, args)])
  return 1 + Number(higher!.n) + Number(tied!.n)
}
