import type BetterSqlite3 from 'better-sqlite3'

// SQLite's in-process connection (better-sqlite3's Database), as SQLite's own tooling and the tests
// that fill a file before serving it use it. The server itself reaches SQL only through ./query.

export interface SqlRunResult {
  changes: number
  lastInsertRowid: number | bigint
}

export interface SqlStatement {
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
  run(...params: unknown[]): SqlRunResult
  iterate(...params: unknown[]): IterableIterator<unknown>
  /** Rows as their first column's value. */
  pluck(on?: boolean): this
  /** Rows as arrays. */
  raw(on?: boolean): this
  /** Integers as bigints (the connection's default) or, with false, as numbers. */
  safeIntegers(on?: boolean): this
}

/** fn run as one transaction; nested inside another, as a savepoint (better-sqlite3's own shape). */
export type SqlTransaction<F extends AnyFn> = BetterSqlite3.Transaction<F>
type AnyFn = Parameters<BetterSqlite3.Database['transaction']>[0]

export interface SqlConnection {
  prepare(source: string): SqlStatement
  /** Runs SQL text of one or more statements without parameters. */
  exec(source: string): this
  transaction<F extends AnyFn>(fn: F): SqlTransaction<F>
  pragma(source: string, options?: { simple?: boolean }): unknown
  readonly inTransaction: boolean
  readonly open: boolean
  /** The file. */
  readonly name: string
  close(): this
}

export type Dialect = 'sqlite' | 'postgres'

/** SQLite's connection of a database, for what only SQLite has (its migrations, backup, a move's source); throws on PostgreSQL. */
export function sqliteOf(db: { sqlite?: SqlConnection }, what: string): SqlConnection {
  if (!db.sqlite) throw new Error(`${what} is SQLite's, and this database is PostgreSQL`)
  return db.sqlite
}

/** True when `target` (a setting's value) names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target)
}

/** The database `target` names, as an operator may read it: the file, or the URL with its password hidden. */
export function describeDatabase(target: string): string {
  return isPostgresUrl(target) ? target.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@') : target
}
