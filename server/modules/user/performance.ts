// Team figures kept up the referral tree (DESIGN §12). A paid order's USDT value is the buyer's own
// performance, their inviter's direct performance, and the team performance of every ancestor up to
// the root; a node held counts in the team node figures of every ancestor the same way. "Team" is
// everyone strictly below a user, never the user: team_performance(u) = Σ me_performance over u's
// descendants, as team_num counts them (tests/unit/team/tree.property.test.ts checks it on random trees).
//
// One set-based statement walks the ancestors: a recursive CTE, which SQLite runs as a loop over a
// queue (no stack, no recursion limit), so a tree 100,000 levels deep costs 100,000 primary-key
// steps and nothing else. Each statement adds to the stored figure (x = x + d) inside the caller's
// transaction, and the one writer runs transactions one after another: purchases landing at once
// anywhere in the tree all add up, none overwrites another.
import type { NodeType } from '../../../contract/node.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { run, runOn, type Steps } from '../../db/steps.ts'
import { rankingNow, recordRanking, type RankingKey } from '../ranking/record.ts'

/** Strict ancestors of @user, nearest first: the inviter, then the inviter's inviter… up to the root. */
const ANCESTORS = `WITH RECURSIVE up(id) AS (
    SELECT inviter_id FROM users WHERE id = @user AND inviter_id IS NOT NULL
    UNION ALL
    SELECT u.inviter_id FROM users u JOIN up ON u.id = up.id WHERE u.inviter_id IS NOT NULL
  )`

type Spend = { usdt: bigint; user: bigint | number }
type TeamArgs = Spend & { type: NodeType | null; delta: number; at: number }
const S = statements({
  own: statement<never, [Spend]>('UPDATE users SET me_performance = me_performance + @usdt WHERE id = @user'),
  direct: statement<never, [Spend]>('UPDATE users SET zhi_performance = zhi_performance + @usdt WHERE id = (SELECT inviter_id FROM users WHERE id = @user)'),
  // Team performance and the three tier counters in one pass over the ancestors: a node bought walks
  // and writes each ancestor once, not twice. The CASE is 0 for any other tier and for a purchase
  // without a node (@type NULL, @delta 0), never NULL, so the counters stay as they are. team_reached_at is the total
  // ranking's tie-break (when the figure last grew), kept here so the ranking needs no walk of its
  // own; a node counted or returned (@usdt 0) does not move it.
  team: statement<never, [TeamArgs]>(`${ANCESTORS} UPDATE users SET team_performance = team_performance + @usdt,
                                       team_reached_at = CASE WHEN @usdt > 0 THEN @at ELSE team_reached_at END,
                                       team_elite = team_elite + CASE WHEN @type = 'elite' THEN @delta ELSE 0 END,
                                       team_core = team_core + CASE WHEN @type = 'core' THEN @delta ELSE 0 END,
                                       team_genesis = team_genesis + CASE WHEN @type = 'genesis' THEN @delta ELSE 0 END
           WHERE id IN (SELECT id FROM up)`),
})

function* performance(key: RankingKey, userId: bigint | number, usdt: bigint, node?: NodeType): Steps<void> {
  if (usdt <= 0n && !node) return
  // One time for the total ranking (team_reached_at) and the day's, at the app's clock.
  const at = rankingNow(key)
  if (usdt > 0n) {
    yield* run(S.own, { usdt, user: userId })
    yield* run(S.direct, { usdt, user: userId })
  }
  yield* run(S.team, { usdt: usdt > 0n ? usdt : 0n, user: userId, type: node ?? null, delta: node ? 1 : 0, at })
  // The same figure by day for the daily ranking (issue 12 part 3), in the same transaction.
  if (usdt > 0n) yield* recordRanking(key, userId, usdt, at)
}

/**
 * Adds `usdt` (units of 1e-8) to the buyer's, the inviter's direct and every ancestor's team
 * performance, in the caller's transaction; with `node`, the node bought is counted held in every
 * ancestor's team in the same pass. `app` is the app's database handle (`ctx.sql`), only to find the
 * ranking's clock and measure registered on it (ranking/record.ts).
 */
export function addPerformanceIn(tx: Tx, app: RankingKey, userId: bigint | number, usdt: bigint, node?: NodeType): Promise<void> {
  return runOn(tx, performance(app, userId, usdt, node))
}

/**
 * A node of `type` starts (+1) or stops (-1) being held by `userId`, in the caller's transaction (a
 * node's stake returned by the settlement): every ancestor's team node count moves.
 */
export async function addTeamNodeIn(tx: Queryable, userId: bigint | number, type: NodeType, delta: 1 | -1): Promise<void> {
  await tx.run(S.team, { user: userId, usdt: 0n, type, delta, at: 0 })
}
