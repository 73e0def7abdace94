// Team performance (DESIGN §12): a paid order's USDT value is the buyer's own performance, their
// inviter's direct performance, and the team performance of every ancestor up to the root. One
// set-based statement walks the ancestors (a recursive CTE: no stack, any depth), in the caller's
// transaction, so the figures move with the payment or not at all.
import type Database from 'better-sqlite3'
import { preparedOnce } from '../../db/index.ts'
import { recordRanking } from '../ranking/record.ts'

const SQL = {
  own: 'UPDATE users SET me_performance = me_performance + ? WHERE id = ?',
  direct: 'UPDATE users SET zhi_performance = zhi_performance + ? WHERE id = (SELECT inviter_id FROM users WHERE id = ?)',
  team: `WITH RECURSIVE up(id) AS (
           SELECT inviter_id FROM users WHERE id = ? AND inviter_id IS NOT NULL
           UNION ALL
           SELECT u.inviter_id FROM users u JOIN up ON u.id = up.id WHERE u.inviter_id IS NOT NULL
         )
         UPDATE users SET team_performance = team_performance + ? WHERE id IN (SELECT id FROM up)`,
} as const

/** Adds `usdt` (units of 1e-8) to the buyer's, the inviter's direct and every ancestor's team performance. */
export function addPerformance(sqlite: Database.Database, userId: bigint | number, usdt: bigint): void {
  if (usdt <= 0n) return
  const s = preparedOnce(sqlite, SQL)
  s.own.run(usdt, userId)
  s.direct.run(usdt, userId)
  s.team.run(userId, usdt)
  // The same figures by day for the ranking (issue 12 part 3), in the same transaction.
  recordRanking(sqlite, userId, usdt)
}
