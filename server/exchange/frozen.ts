// What open orders hold frozen, for the ledger audit (issue 5 part 1: placing freezes the trade
// account's funds, fills spend them, the end of an order releases the rest). Importing this module
// registers the holder once per process.
import { statement, type Queryable } from '../db/query/types.ts'
import { registerFrozenHolder } from '../ledger/index.ts'

type Row = { user_id: bigint; account_id: bigint | null; held: bigint }
const text = (where: string) => `SELECT o.user_id, a.id AS account_id, SUM(o.frozen - CASE o.side WHEN 'buy' THEN o.filled_quote ELSE o.filled END) AS held
   FROM trade_orders o
   LEFT JOIN ledger_accounts a ON a.user_id = o.user_id AND a.kind = 'trade' AND a.asset = CASE o.side WHEN 'buy' THEN 'USDT' ELSE 'NADI' END
   WHERE o.status IN ('pending', 'partially_filled') ${where}
   GROUP BY o.user_id, a.id`
const everyone = statement<Row, []>(text(''))
const one = statement<Row, [number]>(text('AND o.user_id = ?'))

/**
 * Per ledger account: for each pending or partially filled order, what it froze less what its fills
 * spent (a buy spends USDT, filled_quote; a sell NADI, filled) on its user's trade account.
 */
export async function openOrdersHolder(q: Queryable, userId?: number): Promise<Map<bigint, bigint>> {
  const rows = userId === undefined ? await q.all(everyone) : await q.all(one, userId)
  const out = new Map<bigint, bigint>()
  for (const r of rows) {
    if (r.account_id === null) throw new Error(`user ${r.user_id} has open orders but no trade account to hold them`)
    out.set(r.account_id, (out.get(r.account_id) ?? 0n) + r.held)
  }
  return out
}

registerFrozenHolder('orders', openOrdersHolder)
