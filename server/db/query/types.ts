import type { Compilable } from 'kysely'
import type { Dialect } from '../connection.ts'

// The asynchronous way to the database (issue 34): every statement is awaited, so a process whose
// database answers slowly (a lock held elsewhere, a network between them) keeps serving whatever does
// not need that answer. Rows are typed where the statement is written, once — `statement<Row, Params>`
// or a Kysely-built query — so no call site casts what it reads.
//
// The same interface runs on both backends: over better-sqlite3 (./sqlite.ts, in process, its answers
// ready at once) and over a pool of PostgreSQL connections (./pg.ts). Values read the same on both:
// every integer a bigint (money is 64-bit units of 1e-8).

/** Parameters a statement binds: positional values, and an object of named ones last (`@name`). */
export type Params = readonly unknown[]

/**
 * A SQL statement with the rows it answers and the parameters it takes, written in the SQL both
 * databases run (SQLite's `?` / `@name` placeholders; PostgreSQL gets `$n`). New ids come back
 * through `RETURNING`, which both accept.
 */
export interface Statement<R, P extends Params = Params> {
  readonly text: string
  /** PostgreSQL's own form of a list statement (./list.ts); SQLite runs `text`. */
  readonly pg?: PgList
  /** Type carriers only: never set. */
  readonly __row?: R
  readonly __params?: P
}

/** What the PostgreSQL driver sends for a list statement instead of `text` and its flat parameters. */
export interface PgList {
  readonly text: string
  /** The rows' flat parameters (row after row) as one array literal per column. */
  columns(flat: readonly unknown[]): string[]
}

/** A statement answering rows of type R, taking parameters P. */
export function statement<R = never, P extends Params = Params>(text: string): Statement<R, P> {
  return { text }
}

/** Typed statements by name: `statements({ byId: statement<Row, [bigint]>('…') })`, one object per module. */
export function statements<T extends Record<string, Statement<unknown>>>(set: T): T {
  return set
}

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number
}

/** What runs statements: the database outside any transaction, or one transaction. */
export interface Queryable {
  all<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R[]>
  /** The first row, undefined when none. */
  get<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R | undefined>
  run<P extends Params>(s: Statement<unknown, P>, ...params: P): Promise<RunResult>
  /** The rows of a Kysely-built query. */
  rows<R>(q: Compilable<R>): Promise<R[]>
  /** The first row of a Kysely-built query. */
  row<R>(q: Compilable<R>): Promise<R | undefined>
  /** Runs a Kysely-built statement; answers the rows it changed. */
  exec(q: Compilable): Promise<number>
}

/** One open transaction. Statements of the transaction go through it, never through the Sql outside. */
export interface Tx extends Queryable {
  readonly dialect: Dialect
  /** fn in a savepoint: its refusal undoes only its own writes, and the transaction goes on. */
  savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
}

export interface TransactionOptions {
  /** Sync the commit to disk (SQLite's synchronous = FULL for this commit; every PostgreSQL commit is). */
  durable?: boolean
  /**
   * A read-only, consistent view for reads that must agree with each other (the audit's sums, a
   * user's holdings): SQLite's deferred BEGIN (a WAL read snapshot, no write lock), PostgreSQL's
   * REPEATABLE READ READ ONLY. It writes nothing, so it records no keyed answer.
   */
  snapshot?: boolean
}

export interface Sql extends Queryable {
  readonly dialect: Dialect
  /**
   * fn as one transaction: committed when it resolves, rolled back when it throws. It must await only
   * statements of `tx` (never the network: a chain call, a fetch), since the transaction holds its
   * rows — and, until every writer is asynchronous, this process's writes — until it ends.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, opts?: TransactionOptions): Promise<T>
  /**
   * fn while this database's lock `key` is held for it: another process asking for the same key waits
   * until fn ends (a PostgreSQL advisory lock on a connection of its own; the wait holds no event
   * loop). On SQLite one process writes a data folder, so fn runs at once.
   */
  alone<T>(key: number, fn: () => Promise<T>): Promise<T>
  close(): Promise<void>
}
