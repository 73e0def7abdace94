// The daily ranking's figures, written where team performance is (server/modules/user/performance.ts):
// in the paying transaction, walking the ancestors with one set-based statement (a recursive CTE: no
// stack, any depth). The total ranking needs no write of its own: it is users.team_performance with
// team_reached_at, set by performance.ts's team UPDATE (021). The root account is everybody's
// ancestor and is never ranked.
import { statement, statements } from '../../db/query/types.ts'
import { run, type Steps } from '../../db/steps.ts'
import { dayOf } from '../release/schedule.ts'

const UP = `WITH RECURSIVE up(id) AS (
             SELECT inviter_id FROM users WHERE id = @user AND inviter_id IS NOT NULL
             UNION ALL
             SELECT u.inviter_id FROM users u JOIN up ON u.id = up.id WHERE u.inviter_id IS NOT NULL
           )`

const SQL = {
  // The WHERE keeps SQLite from reading ON CONFLICT as part of the join. The stored amount is named
  // ranking_days.amount: a bare one is ambiguous beside excluded.amount on PostgreSQL.
  dayTeam: `${UP}
            INSERT INTO ranking_days (day, user_id, amount, reached_at)
            SELECT @day, up.id, @amount, @at FROM up JOIN users a ON a.id = up.id WHERE a.is_root = 0
            ON CONFLICT (day, user_id) DO UPDATE SET amount = ranking_days.amount + excluded.amount, reached_at = excluded.reached_at`,
  dayOwn: `INSERT INTO ranking_days (day, user_id, amount, reached_at)
           SELECT @day, id, @amount, @at FROM users WHERE id = @user AND is_root = 0
           ON CONFLICT (day, user_id) DO UPDATE SET amount = ranking_days.amount + excluded.amount, reached_at = excluded.reached_at`,
} as const

type DayArgs = { user: bigint | number; amount: bigint; at: number; day: number }
const S = statements({
  dayTeam: statement<never, [DayArgs]>(SQL.dayTeam),
  dayOwn: statement<never, [DayArgs]>(SQL.dayOwn),
})

export interface RankingRecorder {
  /** The app's clock (tests move it). */
  now: () => number
  measure: 'team' | 'own'
}

/**
 * Which app a ranking write belongs to: its database handle (`ctx.sql`). performance.ts is called from
 * services that pass a transaction and this, so the app registers its clock and measure once here
 * (registerRanking); a tool's handle has none.
 */
export type RankingKey = object

const recorders = new WeakMap<RankingKey, RankingRecorder>()

// Bumped by every write, so the live stream knows when to look again without reading the day's rows.
// A write rolled back leaves it bumped: the stream then sends what has not changed, once.
const versions = new WeakMap<RankingKey, number>()

/** A number that changes whenever a ranking figure may have (per app, since the process started). */
export const rankingVersion = (key: RankingKey): number => versions.get(key) ?? 0

export function setRankingRecorder(key: RankingKey, r: RankingRecorder): void {
  recorders.set(key, r)
}

/** The ranking's time for a write now: the app's clock, or the wall clock on a tool's handle. */
export function rankingNow(key: RankingKey): number {
  const r = recorders.get(key)
  return r ? r.now() : Date.now()
}

/**
 * Adds a paid order's USDT value to the daily ranking (by the configured measure) at `at` (rankingNow:
 * the same time performance.ts gave the total), in the caller's transaction. A connection without a
 * registered recorder (a tool) counts team performance. Steps (server/db/steps.ts): `key` names the
 * app its recorder is registered on, whichever way the statement then runs.
 */
export function* recordRanking(key: RankingKey, userId: bigint | number, usdt: bigint, at: number): Steps<void> {
  if (usdt <= 0n) return
  const r = recorders.get(key)
  const args = { user: userId, amount: usdt, at, day: dayOf(at) }
  yield* run((r?.measure ?? 'team') === 'team' ? S.dayTeam : S.dayOwn, args)
  versions.set(key, rankingVersion(key) + 1)
}
