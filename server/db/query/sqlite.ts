import { AsyncLocalStorage } from 'node:async_hooks'
import type BetterSqlite3 from 'better-sqlite3'
import type { Compilable, Kysely } from 'kysely'
import { ForeignTransactionError } from '../errors.ts'
import { currentKeyedEffect } from '../keyedEffect.ts'
import type { Params, RunResult, Sql, Statement, TransactionOptions, Tx } from './types.ts'

// The asynchronous interface over the one better-sqlite3 connection. Statements run at once (SQLite
// reads pages in process), so an await costs a turn of the microtask queue and nothing more.
//
// One connection means one transaction at a time, and a statement run on it while a transaction is
// open would join that transaction (and be undone by its rollback). So a transaction holds the lock
// that Kysely's transactions take (Kysely's connection: server/db/index.ts), and a
// statement outside any transaction that arrives while one is open waits for it to end.

type Db = Kysely<never>

/**
 * The transaction this async context runs inside: a statement outside it while it is open would wait
 * for itself. `open` is cleared when it ends, since work scheduled from inside it (a callback, a
 * promise left running) carries the marker on after the transaction is gone.
 */
const inside = new AsyncLocalStorage<{ sql: SqliteSql; open: boolean }>()

let savepoints = 0

class SqliteTx implements Tx {
  readonly dialect = 'sqlite' as const
  constructor(private readonly q: Statements) {}

  all<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R[]> {
    return settle(() => this.q.prepared(s.text).all(...params) as R[])
  }
  get<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R | undefined> {
    return settle(() => this.q.prepared(s.text).get(...params) as R | undefined)
  }
  run<P extends Params>(s: Statement<unknown, P>, ...params: P): Promise<RunResult> {
    return settle(() => ({ changes: this.q.prepared(s.text).run(...params).changes }))
  }
  rows<R>(q: Compilable<R>): Promise<R[]> {
    return settle(() => this.q.compiled(q, 'all') as R[])
  }
  row<R>(q: Compilable<R>): Promise<R | undefined> {
    return settle(() => (this.q.compiled(q, 'all') as R[])[0])
  }
  exec(q: Compilable): Promise<number> {
    return settle(() => this.q.compiled(q, 'run') as number)
  }

  async savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const name = `nadi_async_sp${++savepoints}`
    this.q.raw(`SAVEPOINT ${name}`)
    try {
      const value = await fn(this)
      this.q.raw(`RELEASE ${name}`)
      return value
    } catch (e) {
      this.q.raw(`ROLLBACK TO ${name}`)
      this.q.raw(`RELEASE ${name}`)
      throw e
    }
  }
}

/** A synchronous result or throw as a settled promise. */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run())
  } catch (e) {
    return Promise.reject(e as Error)
  }
}

/** Statements prepared once per text on the connection. */
class Statements {
  private readonly cache = new Map<string, BetterSqlite3.Statement>()
  constructor(readonly conn: BetterSqlite3.Database) {}

  prepared(text: string): BetterSqlite3.Statement {
    let s = this.cache.get(text)
    if (!s) this.cache.set(text, (s = this.conn.prepare(text)))
    return s
  }

  compiled(q: Compilable, as: 'all' | 'run'): unknown {
    const c = q.compile()
    const s = this.prepared(c.sql)
    if (as === 'run') return s.run(...c.parameters).changes
    return s.reader ? s.all(...c.parameters) : (s.run(...c.parameters), [])
  }

  raw(text: string): void {
    this.prepared(text).run()
  }
}

export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const
  private readonly q: Statements
  private readonly direct: SqliteTx

  constructor(
    conn: BetterSqlite3.Database,
    /** The Kysely over the same connection: its connection lock is the one lock of this connection. */
    private readonly db: Db,
  ) {
    this.q = new Statements(conn)
    this.direct = new SqliteTx(this.q)
  }

  /** Runs `fn` at once when no transaction is open, else once the open one ended. */
  private outside<T>(fn: (q: SqliteTx) => Promise<T>): Promise<T> {
    if (!this.q.conn.inTransaction) return fn(this.direct)
    const mark = inside.getStore()
    if (mark?.sql === this && mark.open) {
      return Promise.reject(new Error('a statement outside the transaction was run from inside it (use the transaction’s tx): it would wait for itself'))
    }
    return this.db.connection().execute(() => fn(this.direct))
  }

  all<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R[]> {
    return this.outside((q) => q.all(s, ...params))
  }
  get<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R | undefined> {
    return this.outside((q) => q.get(s, ...params))
  }
  run<P extends Params>(s: Statement<unknown, P>, ...params: P): Promise<RunResult> {
    return this.outside((q) => q.run(s, ...params))
  }
  rows<R>(q: Compilable<R>): Promise<R[]> {
    return this.outside((t) => t.rows(q))
  }
  row<R>(q: Compilable<R>): Promise<R | undefined> {
    return this.outside((t) => t.row(q))
  }
  exec(q: Compilable): Promise<number> {
    return this.outside((t) => t.exec(q))
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    // A keyed request's answer is written in the transaction of its effect (server/db/keyedEffect.ts).
    const keyed = opts.snapshot ? undefined : currentKeyedEffect()
    const conn = this.q.conn
    return this.db.connection().execute(() => {
      const mark = { sql: this, open: true }
      return inside.run(mark, async () => {
        if (conn.inTransaction) throw new ForeignTransactionError('transaction (a transaction is open on the connection outside Kysely)')
        const before = opts.durable ? String(conn.pragma('synchronous', { simple: true })) : null
        if (before !== null) conn.pragma('synchronous = FULL')
        try {
          this.q.raw(opts.snapshot ? 'BEGIN' : 'BEGIN IMMEDIATE')
          try {
            const value = await fn(this.direct)
            if (keyed) await keyed.recordIn(this.direct, value)
            this.q.raw('COMMIT')
            return value
          } catch (e) {
            if (conn.inTransaction) this.q.raw('ROLLBACK')
            throw e
          }
        } finally {
          mark.open = false
          if (before !== null) conn.pragma(`synchronous = ${before}`)
        }
      })
    })
  }

  alone<T>(_key: number, fn: () => Promise<T>): Promise<T> {
    return fn()
  }

  async close(): Promise<void> {}
}
