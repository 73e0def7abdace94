import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { DB } from './schema.ts'
import { startCheckpointer } from './checkpointer.ts'
import { dialectOf, isPostgresUrl, type SqlConnection, type SqlStatement } from './connection.ts'
import { PgSync } from './pg/sync.ts'
import { pgPoolDialect } from './pg/kysely.ts'
import { Gate, PgPool } from './query/pg.ts'
import { SqliteSql } from './query/sqlite.ts'
import type { Sql } from './query/types.ts'
import { currentKeyedEffect } from './keyedEffect.ts'
import { ForeignTransactionError } from './errors.ts'

export { ForeignTransactionError }

export type Db = Kysely<DB>

export interface Database_ {
  /** The synchronous connection (better-sqlite3, or PgSync on PostgreSQL) the modules not yet asynchronous use. */
  sqlite: SqlConnection
  db: Db
  /** The asynchronous way (./query): in process on SQLite, a pool of connections on PostgreSQL. */
  sql: Sql
  close(): Promise<void>
}

export interface OpenOptions {
  /** Checkpoint the WAL from a worker thread instead of inside commits (the server's connection). */
  checkpointInWorker?: boolean
}

/**
 * Opens the database `target` names: a `postgres://…` URL (NADI_DATABASE_URL) or a SQLite file.
 * Either way the server gets one synchronous connection and a Kysely over the same connection.
 */
export function openDatabase(target: string, opts: OpenOptions = {}): Database_ {
  if (isPostgresUrl(target)) return openPostgres(target)
  return openSqlite(target, opts)
}

function openPostgres(url: string): Database_ {
  // The server's own connection keeps no session state, so a lost one is replaced at the next
  // statement outside a transaction rather than failing every request of this process from then on.
  const sqlite = new PgSync(url, { reconnect: true })
  // The pool's transactions and Kysely's hold this gate, and so does atomically(): no synchronous write
  // of this process ever waits for a row its pool holds (./query/pg.ts).
  const sql = new PgPool(url, { gate: new Gate() })
  const db = new Kysely<DB>({ dialect: pgPoolDialect(sql) })
  return {
    sqlite,
    db,
    sql,
    async close() {
      await db.destroy()
      await sql.close()
      sqlite.close()
    },
  }
}

/**
 * The asynchronous way over a SQLite connection opened elsewhere (a backup opened read-only to be
 * checked): the caller keeps the connection and closes it.
 */
export function sqlOver(conn: Database.Database): Sql {
  return new SqliteSql(conn, new Kysely<never>({ dialect: new SqliteDialect({ database: conn }) }))
}

function openSqlite(file: string, opts: OpenOptions): Database_ {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new Database(file)
  sqlite.pragma('journal_mode = WAL')
  // NORMAL in WAL mode loses nothing on a process crash; FULL would add an fsync per commit.
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  // A commit's cost is the pages it dirties and, every wal_autocheckpoint pages, a checkpoint on the
  // committing thread. A 64 MiB page cache keeps the indexes that postings touch at random (entries
  // by user) in memory; checkpoints run in a worker (./checkpointer.ts) where asked, the automatic
  // one then only a backstop.
  sqlite.pragma('cache_size = -65536')
  const checkpointer = opts.checkpointInWorker && file !== ':memory:' ? startCheckpointer(file) : null
  sqlite.pragma(`wal_autocheckpoint = ${checkpointer ? 100_000 : 10_000}`)
  sqlite.pragma('busy_timeout = 5000')
  // Money is integer units of 1e-8: a number above 2^53 must never be rounded on its way out.
  sqlite.defaultSafeIntegers(true)
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) })
  return {
    sqlite,
    db,
    sql: new SqliteSql(sqlite, db as unknown as Kysely<never>), // only its connection lock is used, never its tables
    async close() {
      await db.destroy()
      await checkpointer?.stop()
    },
  }
}

// ── Transactions on the one connection ─────────────────────────────────────────────────────────
//
// Two kinds of transaction share the single better-sqlite3 connection:
//   - Kysely's (`db.transaction().execute(async trx => …)`, used by auth, address, seed): BEGIN is
//     issued on the connection and the callback awaits between its statements, with the transaction
//     open. Kysely's driver holds its connection lock for the whole of it.
//   - ours (`transaction(sqlite, fn)`, the ledger's `post`): synchronous, so nothing interleaves.
// A synchronous transaction started while a Kysely one is open does not begin a transaction of its
// own: better-sqlite3 nests it as a SAVEPOINT (a plain statement simply runs) inside the other
// request's transaction, and that request's rollback silently undoes money already answered as moved.
// So: every synchronous write from async code goes through `atomically`, which first takes Kysely's
// connection lock (no Kysely transaction can be open then) and never awaits before its commit; and
// `transaction` refuses to start inside a transaction that is not one of ours.

/** A connection in both of its forms (Ctx, the withdraw Store and Database_ all fit). */
export interface Connection {
  sqlite: SqlConnection
  db: Db
  sql: Sql
}

/** The connections on which one of our synchronous transactions is running right now, and whether its commit is synced (FULL). */
const ours = new WeakMap<SqlConnection, { durable: boolean }>()

/** True while one of our synchronous transactions (transaction / durableTransaction) runs on the connection. */
export function inOwnTransaction(sqlite: SqlConnection): boolean {
  return ours.has(sqlite) && sqlite.inTransaction
}

/**
 * Runs fn in one IMMEDIATE transaction. better-sqlite3 is synchronous, so the whole action holds the
 * write lock without yielding to the event loop: no other request interleaves with it. Inside another
 * of our transactions it nests as a savepoint; inside anyone else's (a Kysely transaction left open
 * across an await) it throws ForeignTransactionError instead of joining it. From async code call it
 * through `atomically`, which waits for such a transaction to end.
 */
export function transaction<T>(sqlite: SqlConnection, fn: () => T): T {
  return run(sqlite, fn, false, 'transaction')
}

/**
 * transaction(), with its commit synced to disk (synchronous = FULL for this one commit). The
 * connection's NORMAL loses nothing on a process crash, but could lose the last commits on a power cut.
 * Nested, it takes the outer transaction's commit, which must then be durable too (else it throws):
 * SQLite cannot change `synchronous` inside a transaction.
 */
export function durableTransaction<T>(sqlite: SqlConnection, fn: () => T): T {
  return run(sqlite, fn, true, 'durableTransaction')
}

function run<T>(sqlite: SqlConnection, fn: () => T, durable: boolean, what: string): T {
  const outer = ours.get(sqlite)
  if (outer && sqlite.inTransaction) {
    if (durable && !outer.durable) throw new Error(`${what}: nested in a transaction whose commit is not durable; open the outer one with durableTransaction (or atomically(…, { durable: true }))`)
    return sqlite.transaction(fn).immediate() // a savepoint in our own transaction
  }
  if (sqlite.inTransaction) throw new ForeignTransactionError(what)
  // PostgreSQL syncs every commit (synchronous_commit = on): nothing to switch.
  const before = durable && dialectOf(sqlite) === 'sqlite' ? String(sqlite.pragma('synchronous', { simple: true })) : null
  if (before !== null) sqlite.pragma('synchronous = FULL')
  ours.set(sqlite, { durable })
  try {
    return sqlite.transaction(fn).immediate()
  } finally {
    ours.delete(sqlite)
    if (before !== null) sqlite.pragma(`synchronous = ${before}`)
  }
}

export interface AtomicallyOptions {
  /** Sync the commit to disk (durableTransaction): for what must survive a power cut, e.g. a signed transaction about to be broadcast. */
  durable?: boolean
}

/**
 * Runs `fn` as one IMMEDIATE transaction, synchronously, once no other request holds the connection:
 * the way async code makes a synchronous write (money moves, the withdrawal state machine, the ledger).
 *
 * Why the wait: a Kysely transaction holds Kysely's connection lock from its BEGIN to its COMMIT or
 * ROLLBACK, awaiting in between. Taking that lock first waits for any such transaction to end; from
 * there nothing awaits until our commit, so no other request can interleave, and our transaction is
 * a real one, not a savepoint inside someone else's.
 *
 * Never await it from inside a Kysely transaction or `db.connection().execute` callback: that holds
 * the lock this waits for.
 */
export async function atomically<T>(conn: Connection, fn: () => T, opts: AtomicallyOptions = {}): Promise<T> {
  // A keyed request's answer is written in the transaction of its effect (server/db/keyedEffect.ts).
  const keyed = currentKeyedEffect()
  const body = keyed
    ? () => {
        const value = fn()
        keyed.record(value)
        return value
      }
    : fn
  const write = async () => {
    if (conn.sqlite.inTransaction) throw new ForeignTransactionError('atomically (a transaction is open on the connection outside Kysely)')
    return opts.durable ? durableTransaction(conn.sqlite, body) : transaction(conn.sqlite, body)
  }
  // On PostgreSQL the pool's transactions hold the gate; on SQLite every transaction holds Kysely's connection.
  const gate = conn.sql instanceof PgPool ? conn.sql.gate : null
  return gate ? gate.run(write) : conn.db.connection().execute(write)
}

/** A named set of SQL statements prepared on a connection, e.g. the ledger's or the exchange's. */
export type Prepared<T extends Record<string, string>> = { [K in keyof T]: SqlStatement }

const preparedSets = new WeakMap<object, WeakMap<SqlConnection, unknown>>()

/**
 * The statements of `sql` on this connection, prepared the first time they are asked for (after the
 * migrations ran) and reused after: the synchronous hot paths pay for parsing SQL once.
 */
export function preparedOnce<T extends Record<string, string>>(sqlite: SqlConnection, sql: T): Prepared<T> {
  let byDb = preparedSets.get(sql)
  if (!byDb) preparedSets.set(sql, (byDb = new WeakMap()))
  let set = byDb.get(sqlite) as Prepared<T> | undefined
  if (!set) {
    set = Object.fromEntries(Object.entries(sql).map(([k, text]) => [k, sqlite.prepare(text)])) as Prepared<T>
    byDb.set(sqlite, set)
  }
  return set
}
