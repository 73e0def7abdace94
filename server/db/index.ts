import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { DB } from './schema.ts'
import { startCheckpointer } from './checkpointer.ts'
import { describeDatabase, isPostgresUrl, type SqlConnection } from './connection.ts'
import { pgPoolDialect } from './pg/kysely.ts'
import { PgPool } from './query/pg.ts'
import { SqliteSql } from './query/sqlite.ts'
import type { Sql } from './query/types.ts'
import { ForeignTransactionError } from './errors.ts'

export { ForeignTransactionError }

export type Db = Kysely<DB>

export interface Database_ {
  db: Db
  /** The way the server reaches SQL (./query): in process on SQLite, a pool of connections on PostgreSQL. */
  sql: Sql
  /**
   * SQLite only: the in-process connection itself, for what is SQLite's alone (its migrations, backup
   * and restore, a move's source, tests and benches that set a file up before serving it). Absent on
   * PostgreSQL, whose every statement is awaited.
   */
  sqlite?: SqlConnection
  close(): Promise<void>
}

/** A SQLite database, its connection at hand (openSqliteFile). */
export type SqliteDatabase = Database_ & { sqlite: SqlConnection }

export interface OpenOptions {
  /** Checkpoint the WAL from a worker thread instead of inside commits (the server's connection). */
  checkpointInWorker?: boolean
  /** PostgreSQL: connections in this process's pool (NADI_PG_POOL; PgPool's default otherwise). */
  pgPool?: number
}

/**
 * Opens the database `target` names: a `postgres://…` URL (NADI_DATABASE_URL) or a SQLite file:
 * its Sql and a Kysely over the same connections.
 */
export function openDatabase(target: string, opts: OpenOptions = {}): Database_ {
  if (isPostgresUrl(target)) return openPostgres(target, opts.pgPool)
  return openSqlite(target, opts)
}

function openPostgres(url: string, max: number | undefined): Database_ {
  const sql = new PgPool(url, { max })
  const db = new Kysely<DB>({ dialect: pgPoolDialect(sql) })
  return {
    db,
    sql,
    async close() {
      await db.destroy()
      await sql.close()
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

/** A SQLite file (or ':memory:'), for what knows it is SQLite's: the SQLite tooling, the tests and benches that fill one directly. */
export function openSqliteFile(file: string, opts: OpenOptions = {}): SqliteDatabase {
  if (isPostgresUrl(file)) throw new Error(`openSqliteFile: ${describeDatabase(file)} is a PostgreSQL database`)
  return openSqlite(file, opts)
}

function openSqlite(file: string, opts: OpenOptions): SqliteDatabase {
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

// ── Synchronous transactions on a SQLite connection ───────────────────────────────────────────
//
// The server's transactions are the Sql's (./query) and Kysely's; both hold Kysely's connection lock
// on SQLite. What is left synchronous is SQLite's alone — its tooling and the tests and benches that
// fill a file before anything serves it — and `transaction` refuses to start inside a transaction
// that is not one of ours: better-sqlite3 would nest it as a SAVEPOINT inside the other, and that
// one's rollback would silently undo it.

/** A database in the form the server's parts are handed (Ctx, the withdraw Store and Database_ all fit). */
export interface Connection {
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
 * across an await) it throws ForeignTransactionError instead of joining it.
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
    if (durable && !outer.durable) throw new Error(`${what}: nested in a transaction whose commit is not durable; open the outer one with durableTransaction`)
    return sqlite.transaction(fn).immediate() // a savepoint in our own transaction
  }
  if (sqlite.inTransaction) throw new ForeignTransactionError(what)
  // PostgreSQL syncs every commit (synchronous_commit = on): nothing to switch.
  const before = durable ? String(sqlite.pragma('synchronous', { simple: true })) : null
  if (before !== null) sqlite.pragma('synchronous = FULL')
  ours.set(sqlite, { durable })
  try {
    return sqlite.transaction(fn).immediate()
  } finally {
    ours.delete(sqlite)
    if (before !== null) sqlite.pragma(`synchronous = ${before}`)
  }
}
