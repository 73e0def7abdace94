// Money actions run as one synchronous better-sqlite3 transaction: the business rows and the ledger
// postings (server/ledger, synchronous by design) commit together or not at all. The SQL of those rows
// is still built with Kysely (typed against server/db/schema.ts, portable as DESIGN §9 asks) and only
// executed here, on the raw connection, without an await in between. From async code such a
// transaction is run through atomically() (server/db/index.ts), which first waits for any Kysely
// transaction open on the shared connection to end.

import type { SqlConnection, SqlStatement } from './connection.ts'
import type { Compilable } from 'kysely'

const cache = new WeakMap<SqlConnection, Map<string, SqlStatement>>()

/** The statement of `text` on this connection, prepared once. */
export function prepared(sqlite: SqlConnection, text: string): SqlStatement {
  let byText = cache.get(sqlite)
  if (!byText) cache.set(sqlite, (byText = new Map()))
  let s = byText.get(text)
  if (!s) byText.set(text, (s = sqlite.prepare(text)))
  return s
}

/** The rows of a Kysely-built query, run synchronously. */
export function rows<R>(sqlite: SqlConnection, q: Compilable<R>): R[] {
  const c = q.compile()
  return prepared(sqlite, c.sql).all(...c.parameters) as R[]
}

/** The first row of a Kysely-built query (undefined when none), run synchronously. */
export function row<R>(sqlite: SqlConnection, q: Compilable<R>): R | undefined {
  const c = q.compile()
  return prepared(sqlite, c.sql).get(...c.parameters) as R | undefined
}

/** Runs a Kysely-built statement that returns no rows synchronously; answers the rows it changed. */
export function exec(sqlite: SqlConnection, q: Compilable): number {
  const c = q.compile()
  return prepared(sqlite, c.sql).run(...c.parameters).changes
}
