import type { SqlConnection, SqlStatement } from '../db/connection.ts'
import { preparedOnce, type Prepared } from '../db/index.ts'

// The ledger's hot path is plain synchronous better-sqlite3, not Kysely: a posting runs inside the
// caller's synchronous transaction (so the business change and its postings commit together), and a
// cached prepared statement costs a microsecond or two where an async query builder costs a promise,
// a compile and an event-loop turn per call. The SQL is kept plain and portable (nothing SQLite-only):
// a PostgreSQL port swaps the driver, not the statements (and takes new ids with RETURNING where this
// reads the driver's lastInsertRowid, which is half the cost of RETURNING in SQLite).

/** Entries of posting p have ids p * ENTRY_ID_SPAN + n, n < ENTRY_ID_SPAN (see 003_ledger.sql). */
export const ENTRY_ID_SPAN = 1024n

const SQL = {
  postingByRef: 'SELECT id, ref, reason, user_id, meta, created_at FROM ledger_postings WHERE ref = ?',
  entriesOfPosting: `SELECT e.id, e.bucket, e.delta, e.account_id, a.user_id, a.kind, a.asset
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE e.id BETWEEN ? AND ? ORDER BY e.id`,
  userAccount: 'SELECT id, available, frozen FROM ledger_accounts WHERE user_id = ? AND kind = ? AND asset = ?',
  platformAccount: 'SELECT id, available, frozen FROM ledger_accounts WHERE user_id IS NULL AND kind = ? AND asset = ?',
  // ON CONFLICT DO NOTHING: a ref already posted, or an account another connection has just made, is
  // an answer (0 rows) rather than an error — PostgreSQL would abort the whole transaction on one.
  insertAccount: 'INSERT INTO ledger_accounts (user_id, kind, asset, available, frozen, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  insertPosting: 'INSERT INTO ledger_postings (ref, reason, user_id, meta, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (ref) DO NOTHING',
  insertEntry: 'INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, ?, ?, ?)',
  // Deltas, not absolute values: correct even under PostgreSQL's concurrent writers, with the table's
  // CHECK as the backstop. The new values were computed and range-checked in JS first (SQLite would
  // silently turn an overflowing integer sum into a float).
  updateAccount: 'UPDATE ledger_accounts SET available = available + ?, frozen = frozen + ? WHERE id = ?',
  userBalances: 'SELECT kind, asset, available, frozen FROM ledger_accounts WHERE user_id = ?',
} as const

export type Statements = Prepared<typeof SQL>

const dynamic = new WeakMap<SqlConnection, Map<string, SqlStatement>>()

/** The ledger's statements on this connection, prepared once (after the migrations ran). */
export function statements(sqlite: SqlConnection): Statements {
  return preparedOnce(sqlite, SQL)
}

/** A statement whose text is built at run time (filters), prepared once per text. */
export function stmt(sqlite: SqlConnection, sql: string): SqlStatement {
  let byText = dynamic.get(sqlite)
  if (!byText) dynamic.set(sqlite, (byText = new Map()))
  let s = byText.get(sql)
  if (!s) byText.set(sql, (s = sqlite.prepare(sql)))
  return s
}

/**
 * The statement that takes `rows` rows of `row` in one VALUES list (a multi-row INSERT, or a list an
 * UPDATE … FROM or a join reads), prepared once per row count: a set-based write is one round trip
 * on PostgreSQL where a statement per row is one each.
 */
export function rowsStmt(sqlite: SqlConnection, head: string, row: string, rows: number, tail = ''): SqlStatement {
  return stmt(sqlite, `${head} VALUES ${new Array<string>(rows).fill(row).join(', ')}${tail}`)
}

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
  asset: string
}
