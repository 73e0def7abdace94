// Money actions run as one synchronous better-sqlite3 transaction: the business rows and the ledger
// postings (server/ledger, synchronous by design) commit together or not at all. The SQL of those rows
// is still built with Kysely (typed against server/db/schema.ts, portable as DESIGN §9 asks) and only
// executed here, on the raw connection, without an await in between.

import type Database from 'better-sqlite3'
import type { Compilable } from 'kysely'
import type { Ctx } from '../../context.ts'
import { transaction } from '../../db/index.ts'

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>()

function prepared(sqlite: Database.Database, text: string): Database.Statement {
  let byText = cache.get(sqlite)
  if (!byText) cache.set(sqlite, (byText = new Map()))
  let s = byText.get(text)
  if (!s) byText.set(text, (s = sqlite.prepare(text)))
  return s
}

/** The rows of a Kysely-built query, run synchronously. */
export function rows<R>(sqlite: Database.Database, q: Compilable<R>): R[] {
  const c = q.compile()
  return prepared(sqlite, c.sql).all(...c.parameters) as R[]
}

/** The first row of a Kysely-built query (undefined when none), run synchronously. */
export function row<R>(sqlite: Database.Database, q: Compilable<R>): R | undefined {
  const c = q.compile()
  return prepared(sqlite, c.sql).get(...c.parameters) as R | undefined
}

/** Runs a Kysely-built statement that returns no rows synchronously; answers the rows it changed. */
export function exec(sqlite: Database.Database, q: Compilable): number {
  const c = q.compile()
  return prepared(sqlite, c.sql).run(...c.parameters).changes
}

/**
 * Runs `fn` as one IMMEDIATE transaction, synchronously, once no other request holds the connection.
 *
 * Why the wait: Kysely transactions (the address and auth modules use them) await between their
 * statements with BEGIN issued on the one shared connection. A synchronous transaction started in such
 * a gap would not begin a transaction of its own: better-sqlite3 nests it as a SAVEPOINT inside the
 * other request's transaction, and that request's rollback would silently undo money we had already
 * answered as moved. Taking Kysely's connection first waits for any such transaction to end; from
 * there nothing awaits until the commit, so no other request can interleave.
 */
export async function atomically<T>(ctx: Ctx, fn: () => T): Promise<T> {
  return ctx.db.connection().execute(async () => {
    if (ctx.sqlite.inTransaction) throw new Error('atomically: a transaction is already open on the connection outside Kysely')
    return transaction(ctx.sqlite, fn)
  })
}
