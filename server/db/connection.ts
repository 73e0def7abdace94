import type BetterSqlite3 from 'better-sqlite3'

// The synchronous connection every module is given (ctx.sqlite): better-sqlite3's Database on SQLite,
// PgSync (./pg/sync.ts) on PostgreSQL. Only what both implement is here, so a module that compiles
// against it runs on both.

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
  /** The file (SQLite) or the URL without its password (PostgreSQL). */
  readonly name: string
  close(): this
}

export type Dialect = 'sqlite' | 'postgres'

/** Which database a connection talks to. */
export function dialectOf(conn: SqlConnection): Dialect {
  return (conn as { dialect?: Dialect }).dialect === 'postgres' ? 'postgres' : 'sqlite'
}

/** True when `target` (a setting's value) names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target)
}

/** The database `target` names, as an operator may read it: the file, or the URL with its password hidden. */
export function describeDatabase(target: string): string {
  return isPostgresUrl(target) ? target.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@') : target
}
