// What withdrawals hold frozen, for the ledger audit (issue 4 part 1: frozen equals what pending
// withdrawals hold). Importing this module registers the holder once per process.
import { statement, type Queryable } from '../../db/query/types.ts'
import { registerFrozenHolder } from '../../ledger/index.ts'

type Row = { user_id: bigint; coin: string; account_id: bigint | null; held: bigint }
const text = (where: string) => `SELECT w.user_id, w.coin, a.id AS account_id, SUM(w.amount + w.fee) AS held
   FROM withdrawals w
   LEFT JOIN ledger_accounts a ON a.user_id = w.user_id AND a.kind = 'fund' AND a.asset = w.coin
   WHERE w.status IN ('requested', 'approved', 'broadcast') ${where}
   GROUP BY w.user_id, w.coin, a.id`
const everyone = statement<Row, []>(text(''))
const one = statement<Row, [number]>(text('AND w.user_id = ?'))

/**
 * Per ledger account: the amount + fee of every withdrawal that is requested, approved or broadcast,
 * on its user's fund account in its coin. A withdrawal whose account does not exist is a failure of
 * the audit, not a silent zero.
 */
export async function withdrawalsHolder(q: Queryable, userId?: number): Promise<Map<bigint, bigint>> {
  const rows = userId === undefined ? await q.all(everyone) : await q.all(one, userId)
  const out = new Map<bigint, bigint>()
  for (const r of rows) {
    if (r.account_id === null) throw new Error(`user ${r.user_id} has open ${r.coin} withdrawals but no fund ${r.coin} account`)
    out.set(r.account_id, (out.get(r.account_id) ?? 0n) + r.held)
  }
  return out
}

registerFrozenHolder('withdrawals', withdrawalsHolder)
