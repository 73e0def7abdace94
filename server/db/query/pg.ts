import { AsyncLocalStorage } from 'node:async_hooks'
import pg from 'pg'
import type { Compilable } from 'kysely'
import { currentKeyedEffect } from '../keyedEffect.ts'
import { numberPlaceholders, paramsOf, PARSERS, PgConnectionLost, PgError, TEXT, type Slot } from '../pg/wire.ts'
import type { Params, Queryable, RunResult, Sql, Statement, TransactionOptions, Tx } from './types.ts'

// The asynchronous interface over a pool of PostgreSQL connections (`pg`, chosen by measuring:
// docs/postgres.md). A statement outside a transaction takes whichever connection is free; a
// transaction holds one connection from BEGIN to COMMIT. Values read as on SQLite
// (../pg/wire.ts): integers as bigints, booleans as 1n / 0n, anything else as its text.

export interface PgPoolOptions {
  /** application_name, as pg_stat_activity shows it. */
  appName?: string
  /** Connections at most (default 8, NADI_PG_POOL: server/db/settings.ts). */
  max?: number
}

/** The statement texts seen, each with its name: a named statement is parsed once per connection. */
const named = new Map<string, string>()

interface Translated {
  text: string
  /** null: the text came with `$k` already (Kysely's PostgreSQL compiler); arguments in order. */
  slots: Slot[] | null
}
const translations = new Map<string, Translated>()

function translate(sql: string): Translated {
  let t = translations.get(sql)
  if (!t) {
    const numbered = /\$1\b/.test(sql) && !sql.includes('?')
    t = numbered ? { text: sql, slots: null } : numberPlaceholders(sql)
    translations.set(sql, t)
  }
  return t
}

const types = { getTypeParser: (oid: number) => PARSERS[oid] ?? TEXT }

/** Errors of the connection rather than of the statement: the statement did not run (or, for a COMMIT, may have). */
function lostConnection(e: { code?: unknown; message: string }): boolean {
  if (typeof e.code === 'string') return e.code.startsWith('08') || e.code === '57P01' || e.code === '57P02' || e.code === '57P03' || /^E[A-Z]+$/.test(e.code)
  return /Connection terminated|connection is closed|Client has encountered a connection error|not queryable/i.test(e.message)
}

/** A driver error as the server's own: PgError with its SQLSTATE and constraint, or PgConnectionLost. */
function wrap(e: unknown, sql: string): Error {
  if (!(e instanceof Error)) return new Error(String(e))
  const f = e as Error & { code?: string; constraint?: string; detail?: string; table?: string }
  const where = ` (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 160)})`
  if (lostConnection(f)) return new PgConnectionLost(`${e.message}${where}`, sql)
  if (typeof f.code === 'string' && /^[0-9A-Z]{5}$/.test(f.code)) return new PgError(`${e.message}${where}`, f.code, f.constraint, f.detail, f.table, sql)
  return e
}

type Client = pg.PoolClient | pg.Pool

async function query(client: Client, sql: string, params: readonly unknown[], name: boolean): Promise<pg.QueryResult> {
  const t = translate(sql)
  const values = paramsOf([...params], t.slots, sql)
  let config: pg.QueryConfig
  if (name) {
    let n = named.get(sql)
    if (!n) named.set(sql, (n = `n${named.size + 1}`))
    config = { name: n, text: t.text, values }
  } else config = { text: t.text, values }
  try {
    return await client.query(config)
  } catch (e) {
    throw wrap(e, sql)
  }
}

class On implements Queryable {
  constructor(protected readonly client: () => Client) {}

  async all<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R[]> {
    return (await this.statement(s, params)).rows as R[]
  }
  async get<R, P extends Params>(s: Statement<R, P>, ...params: P): Promise<R | undefined> {
    return (await this.statement(s, params)).rows[0] as R | undefined
  }
  async run<P extends Params>(s: Statement<unknown, P>, ...params: P): Promise<RunResult> {
    return { changes: (await this.statement(s, params)).rowCount ?? 0 }
  }
  private statement(s: Statement<unknown>, params: Params): Promise<pg.QueryResult> {
    // A list statement is sent unnamed, so planned for its own arrays: a named one is planned once
    // for lists of any length after a few runs, and that generic plan joined a 7-row list against a
    // scan of all trade_orders (1–2 ms a batch statement, growing with the table).
    return s.pg ? query(this.client(), s.pg.text, s.pg.columns(params), false) : query(this.client(), s.text, params, true)
  }
  async rows<R>(q: Compilable<R>): Promise<R[]> {
    const c = q.compile()
    return (await query(this.client(), c.sql, c.parameters, false)).rows as R[]
  }
  async row<R>(q: Compilable<R>): Promise<R | undefined> {
    return (await this.rows(q))[0]
  }
  async exec(q: Compilable): Promise<number> {
    const c = q.compile()
    return (await query(this.client(), c.sql, c.parameters, false)).rowCount ?? 0
  }
}

let savepoints = 0

class PgTx extends On implements Tx {
  readonly dialect = 'postgres' as const
  constructor(private readonly conn: pg.PoolClient) {
    super(() => conn)
  }

  async raw(text: string): Promise<void> {
    try {
      await this.conn.query(text)
    } catch (e) {
      throw wrap(e, text)
    }
  }

  async savepoint<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const name = `nadi_async_sp${++savepoints}`
    // Sent ahead of fn's statements rather than awaited first: a SAVEPOINT that fails leaves the
    // transaction aborted, so nothing fn sends behind it can apply; its own error is the one thrown.
    const begun = this.raw(`SAVEPOINT ${name}`)
    begun.catch(() => {}) // awaited on both paths below
    try {
      const value = await fn(this)
      await begun
      await this.raw(`RELEASE SAVEPOINT ${name}`)
      return value
    } catch (e) {
      await begun
      if (!(e instanceof PgConnectionLost)) await this.raw(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`)
      throw e
    }
  }
}

/**
 * The pool whose transaction this async context runs in. A second transaction begun there would take
 * another connection and could wait for a row the first holds while the first waits for it: a
 * deadlock PostgreSQL cannot see, since it spans two connections joined only in this process.
 */
const inside = new AsyncLocalStorage<{ pool: PgPool; open: boolean }>()

export class PgPool extends On implements Sql {
  readonly dialect = 'postgres' as const
  readonly pool: pg.Pool

  constructor(url: string, opts: PgPoolOptions = {}) {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 8,
      application_name: opts.appName ?? 'nadi',
      // Time must not depend on the server's settings; NOTICEs are not for the operator's terminal.
      options: '-c TimeZone=UTC -c client_min_messages=warning',
      types,
      // Statements asked for together on one connection (a transaction's, e.g. the market's batch
      // sending its writes before awaiting any) go out together and are answered in order: one round
      // trip for the group instead of one each, which is what a database on another host costs most.
      pipeline: true,
    })
    super(() => pool)
    this.pool = pool
    // An idle connection that breaks (the server restarted) is dropped by the pool; the next statement takes a new one.
    pool.on('error', () => {})
  }

  /** A statement compiled elsewhere (Kysely's PostgreSQL compiler) on `client`, or on a free connection. */
  async execute(sql: string, params: readonly unknown[], client?: pg.PoolClient): Promise<pg.QueryResult> {
    return query(client ?? this.pool, sql, params, false)
  }

  /** True inside one of this pool's transactions (in its async context): another begun here is refused (see `inside`). */
  get insideTransaction(): boolean {
    // Work scheduled from inside a transaction carries the marker on after it ended: only an open one counts.
    const mark = inside.getStore()
    return mark?.pool === this && mark.open
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    // Every PostgreSQL commit is durable (synchronous_commit = on): `durable` asks nothing more.
    if (this.insideTransaction) throw new Error('a transaction was begun inside another of the same process: use the open one’s tx (or its savepoint)')
    const keyed = opts.snapshot ? undefined : currentKeyedEffect()
    const mark = { pool: this, open: true }
    return inside.run(mark, () =>
      this.checkedOut('BEGIN', async (conn, breaks) => {
        const tx = new PgTx(conn)
        try {
          // Sent ahead of fn's statements rather than awaited first (a round trip fewer): they follow it
          // on this one connection in order. BEGIN refuses nothing but a lost connection, which fails
          // every statement behind it too; its answer is awaited before the COMMIT.
          const begun = tx.raw(opts.snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN')
          begun.catch(() => {}) // awaited below, and before the ROLLBACK of a failed fn
          let value: T
          try {
            value = await fn(tx)
          } finally {
            await begun
          }
          if (keyed) await keyed.recordIn(tx, value)
          await tx.raw('COMMIT')
          return value
        } catch (e) {
          if (e instanceof PgConnectionLost) breaks(e)
          else await tx.raw('ROLLBACK').catch((r: unknown) => breaks(r as Error))
          throw e
        } finally {
          mark.open = false
        }
      }),
    )
  }

  alone<T>(key: number, fn: () => Promise<T>): Promise<T> {
    // A session lock lives on its connection: held apart from the pool's work for as long as fn runs,
    // so fn's own statements and transactions take the other connections.
    return this.checkedOut('pg_advisory_lock', async (conn, breaks) => {
      const lock = (sql: string) => conn.query(sql, [key]).catch((e: unknown) => (breaks(e as Error), Promise.reject(wrap(e, sql))))
      await lock('SELECT pg_advisory_lock($1)')
      try {
        return await fn()
      } finally {
        // An unlock that failed marks the connection broken: closing it is what frees the lock then.
        await lock('SELECT pg_advisory_unlock($1)').catch(() => undefined)
      }
    })
  }

  /**
   * fn on a connection of its own, checked out of the pool and handed back after; one fn marked broken
   * (`breaks`) is closed rather than handed to the next caller.
   */
  private async checkedOut<T>(what: string, fn: (conn: pg.PoolClient, breaks: (e: Error) => void) => Promise<T>): Promise<T> {
    let conn: pg.PoolClient
    try {
      conn = await this.pool.connect()
    } catch (e) {
      throw new PgConnectionLost(`PostgreSQL cannot be reached: ${(e as Error).message}`, what)
    }
    // A checked-out connection that breaks also emits 'error'; its statement's rejection is what
    // reports it, so the event must not go unhandled (that would crash the process).
    const ignore = () => {}
    conn.on('error', ignore)
    let broken: Error | undefined
    try {
      return await fn(conn, (e) => void (broken = e))
    } finally {
      conn.off('error', ignore)
      conn.release(broken)
    }
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}
