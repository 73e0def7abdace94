// Statements on SQLite's in-process connection, prepared once per text: what the synchronous steps
// (./steps.ts) run there, for SQLite's tooling and the tests that fill a file before serving it.

import type { SqlConnection, SqlStatement } from './connection.ts'

const cache = new WeakMap<SqlConnection, Map<string, SqlStatement>>()

/** The statement of `text` on this connection, prepared once. */
export function prepared(sqlite: SqlConnection, text: string): SqlStatement {
  let byText = cache.get(sqlite)
  if (!byText) cache.set(sqlite, (byText = new Map()))
  let s = byText.get(text)
  if (!s) byText.set(text, (s = sqlite.prepare(text)))
  return s
}
