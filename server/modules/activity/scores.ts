// Scores over an activity's window, read from the tables that already record what is measured:
// paid product orders, destroy buys, spot deals, registrations. Nothing is counted twice or kept in
// step by hand, and a measure added later needs only its query here. Users without a wallet (the
// root account, the demo market's traders) are the platform's own and never on a leaderboard.
import type Database from 'better-sqlite3'
import type { Measure } from '../../../contract/activity.ts'
import { rankScores, type Ranked } from './rules.ts'

/**
 * One query per measure: user_id, score (> 0) and reached_at (the last counted event) for events in
 * [@from, @to). Amounts are units of 1e-8 (USDT for purchases and trading, NADI for destroy).
 */
const MEASURE_SQL: Record<Measure, string> = {
  // Product orders (devices, gold, cars) paid in the window, at what they cost in USDT.
  purchases: `SELECT user_id, sum(total) AS score, max(paid_at) AS reached_at FROM pay_orders
    WHERE paid_at >= @from AND paid_at < @to AND type IN ('device', 'gold', 'car') AND asset = 'USDT' GROUP BY user_id`,
  // NADI destroyed for mining power in the window.
  destroy: `SELECT user_id, sum(amount) AS score, max(created_at) AS reached_at FROM mining_buys
    WHERE kind = 'destroy' AND created_at >= @from AND created_at < @to GROUP BY user_id`,
  // Spot volume: the USDT value of every fill the user took part in, on either side.
  trading: `SELECT user_id, sum(quote) AS score, max(created_at) AS reached_at FROM trade_deals
    WHERE created_at >= @from AND created_at < @to GROUP BY user_id`,
  // New members anywhere below the user: each registration in the window counts once for every
  // ancestor, walked up the inviter chain by a recursive query (no recursion on the JS stack).
  team_growth: `WITH RECURSIVE up(ancestor, at) AS (
      SELECT inviter_id, created_at FROM users WHERE created_at >= @from AND created_at < @to AND inviter_id IS NOT NULL
      UNION ALL
      SELECT u.inviter_id, up.at FROM up JOIN users u ON u.id = up.ancestor WHERE u.inviter_id IS NOT NULL
    )
    SELECT ancestor AS user_id, count(*) AS score, max(at) AS reached_at FROM up GROUP BY ancestor`,
}

export interface Standing extends Ranked {
  name: string
}

const prepared = new WeakMap<Database.Database, Map<Measure, Database.Statement>>()

function statement(sqlite: Database.Database, measure: Measure): Database.Statement {
  let m = prepared.get(sqlite)
  if (!m) prepared.set(sqlite, (m = new Map()))
  let s = m.get(measure)
  if (!s) {
    s = sqlite.prepare(`SELECT s.user_id, s.score, s.reached_at, u.name FROM (${MEASURE_SQL[measure]}) s
      JOIN users u ON u.id = s.user_id WHERE u.wallet_address IS NOT NULL AND s.score > 0`)
    m.set(measure, s)
  }
  return s
}

/** The whole leaderboard of a window, ranked (ties: who reached the score first). */
export function standings(sqlite: Database.Database, measure: Measure, from: number, to: number): Standing[] {
  const rows = statement(sqlite, measure).all({ from, to }) as { user_id: bigint; score: bigint; reached_at: bigint; name: string }[]
  const names = new Map(rows.map((r) => [Number(r.user_id), r.name]))
  return rankScores(rows.map((r) => ({ userId: Number(r.user_id), score: BigInt(r.score), reachedAt: Number(r.reached_at) }))).map((r) => ({ ...r, name: names.get(r.userId) ?? '' }))
}
