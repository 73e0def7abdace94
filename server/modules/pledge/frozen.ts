// What pledges hold frozen, for the ledger audit: the principal of every pledge waiting for release,
// on its user's fund NADI account. Importing this module (server/ledger/holders.ts does) registers it.
import type Database from 'better-sqlite3'
import { registerFrozenHolder } from '../../ledger/index.ts'

export function pledgesHolder(sqlite: Database.Database): Map<bigint, bigint> {
  const rows = sqlite
    .prepare(
      `SELECT p.user_id, a.id AS account_id, SUM(p.amount) AS held
       FROM pledges p
       LEFT JOIN ledger_accounts a ON a.user_id = p.user_id AND a.kind = 'fund' AND a.asset = 'NADI'
       WHERE p.status = 'waiting'
       GROUP BY p.user_id, a.id`,
    )
    .all() as { user_id: bigint; account_id: bigint | null; held: bigint }[]
  const out = new Map<bigint, bigint>()
  for (const r of rows) {
    if (r.account_id === null) throw new Error(`user ${r.user_id} has pledges waiting for release but no fund NADI account`)
    out.set(r.account_id, (out.get(r.account_id) ?? 0n) + r.held)
  }
  return out
}

registerFrozenHolder('pledges', pledgesHolder)
