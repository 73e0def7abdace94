import { statement, statements } from '../db/query/types.ts'
import type { Asset } from './types.ts'

// The ledger's statements, plain and portable SQL (nothing SQLite-only), typed where they are written.
// They run inside the caller's transaction, so the business change and its postings commit together:
// synchronously on the connection of the callers not yet asynchronous, awaited on a transaction's tx
// otherwise (../db/steps.ts). New ids come back with RETURNING, which both databases take.

/** Entries of posting p have ids p * ENTRY_ID_SPAN + n, n < ENTRY_ID_SPAN (see 003_ledger.sql). */
export const ENTRY_ID_SPAN = 1024n

type Owner = bigint | null

export const LEDGER = statements({
  postingByRef: statement<PostingRow, [ref: string]>('SELECT id, ref, reason, user_id, meta, created_at FROM ledger_postings WHERE ref = ?'),
  entriesOfPosting: statement<EntryAccountRow, [first: bigint, last: bigint]>(`SELECT e.id, e.bucket, e.delta, e.account_id, a.user_id, a.kind, a.asset
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE e.id BETWEEN ? AND ? ORDER BY e.id`),
  userAccount: statement<AccountRow, [user: bigint, kind: string, asset: string]>('SELECT id, available, frozen FROM ledger_accounts WHERE user_id = ? AND kind = ? AND asset = ?'),
  platformAccount: statement<AccountRow, [kind: string, asset: string]>('SELECT id, available, frozen FROM ledger_accounts WHERE user_id IS NULL AND kind = ? AND asset = ?'),
  // ON CONFLICT DO NOTHING: a ref already posted, or an account another connection has just made, is
  // an answer (no row) rather than an error — PostgreSQL would abort the whole transaction on one.
  insertAccount: statement<{ id: bigint }, [user: Owner, kind: string, asset: string, available: bigint, frozen: bigint, at: number]>(
    'INSERT INTO ledger_accounts (user_id, kind, asset, available, frozen, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id',
  ),
  insertPosting: statement<{ id: bigint }, [ref: string, reason: string, user: Owner, meta: string | null, at: number]>(
    'INSERT INTO ledger_postings (ref, reason, user_id, meta, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ref) DO NOTHING RETURNING id',
  ),
  insertEntry: statement<never, [id: bigint, posting: bigint, account: bigint, user: Owner, bucket: string, delta: bigint]>(
    'INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  // Deltas, not absolute values: correct even under PostgreSQL's concurrent writers, with the table's
  // CHECK as the backstop. The new values were computed and range-checked in JS first (SQLite would
  // silently turn an overflowing integer sum into a float).
  updateAccount: statement<never, [available: bigint, frozen: bigint, id: bigint]>('UPDATE ledger_accounts SET available = available + ?, frozen = frozen + ? WHERE id = ?'),
  userBalances: statement<{ kind: 'fund' | 'trade'; asset: Asset; available: bigint; frozen: bigint }, [user: bigint]>(
    'SELECT kind, asset, available, frozen FROM ledger_accounts WHERE user_id = ?',
  ),
})

export interface AccountRow {
  id: bigint
  available: bigint
  frozen: bigint
}

export interface PostingRow {
  id: bigint
  ref: string
  reason: string
  user_id: bigint | null
  meta: string | null
  created_at: bigint
}

export interface EntryAccountRow {
  id: bigint
  bucket: 'available' | 'frozen'
  delta: bigint
  account_id: bigint
  user_id: bigint | null
  kind: string
  asset: Asset
}
