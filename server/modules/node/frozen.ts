// What nodes hold frozen, for the ledger audit: the stake of every active node (paid, not yet
// returned) on its user's fund USDT account. Importing this module (server/ledger/holders.ts does)
// registers it.
import type Database from 'better-sqlite3'
import { registerFrozenHolder } from '../../ledger/index.ts'

export function nodeStakesHolder(sqlite: Database.Database): Map<bigint, bigint> {
  const rows = sqlite
    .prepare(
      `SELECT n.user_id, a.id AS account_id, SUM(n.amount) AS held
       FROM node_orders n
       LEFT JOIN ledger_accounts a ON a.user_id = n.user_id AND a.kind = 'fund' AND a.asset = 'USDT'
       WHERE n.status = 'active'
       GROUP BY n.user_id, a.id`,
    )
    .all() as { user_id: bigint; account_id: bigint | null; held: bigint }[]
  const out = new Map<bigint, bigint>()
  for (const r of rows) {
    if (r.account_id === null) throw new Error(`user ${r.user_id} has active nodes but no fund USDT account`)
    out.set(r.account_id, (out.get(r.account_id) ?? 0n) + r.held)
  }
  return out
}

registerFrozenHolder('nodes', nodeStakesHolder)
