// PostgreSQL behind the same synchronous connection the server uses on SQLite (DESIGN §9).
//
// Why synchronous: a money action is one transaction of our own that no other request interleaves
// with (server/db/index.ts), the ledger and the exchange journal are written inside it without an
// await, and group commit batches many of them into one commit. On PostgreSQL the connection keeps
// that shape: libpq's synchronous calls (the `libpq` addon that pg-native is built on) send a
// statement and wait for its answer, one round trip, as better-sqlite3 waits for a page read. What
// PostgreSQL adds is that other connections exist — the operator's psql, the processes of later
// stages — so the invariants are enforced by the database as well (the ledger's CHECKs, unique refs,
// delta updates under row locks; DESIGN §9), not only by this order.
//
// The class implements the part of better-sqlite3's Database the server uses, with the differences
// made here and nowhere else:
//   - placeholders: `?` becomes `$n` (Kysely's PostgreSQL compiler already writes `$n`);
//   - new ids: an INSERT into a table with an identity key (SQLite's rowid alias: id, or a journal's
//     seq) and no RETURNING gets `RETURNING <key>`, which is what run().lastInsertRowid answers;
//   - values: every integer (int2/int4/int8) comes back as a bigint, as with SQLite's safe integers;
//     numeric (SUM of BIGINT) as a bigint when whole, else a number; booleans as 1n / 0n (SQLite has
//     no booleans: a comparison is an integer); json as its text; bigints go out as decimal text;
//   - statements with parameters are prepared on the server once per text and executed after;
//   - transactions: transaction(fn) runs fn between BEGIN and COMMIT, nested as a SAVEPOINT, as
//     better-sqlite3's does.

import { createRequire } from 'node:module'
import { describeDatabase, type SqlConnection, type SqlTransaction } from '../connection.ts'
import { numberPlaceholders, PARSERS, PgConnectionLost, PgError, TEXT, paramsOf, type Param, type Slot } from './wire.ts'

/** The part of the `libpq` addon used here. */
interface PQ {
  connectSync(params: string): void
  exec(text: string): void
  execParams(text: string, values: (string | null)[]): void
  prepare(name: string, text: string, nParams: number): void
  execPrepared(name: string, values: (string | null)[]): void
  resultErrorMessage(): string
  errorMessage(): string
  resultErrorFields(): { sqlState?: string; constraintName?: string; messageDetail?: string; tableName?: string } | null
  ntuples(): number
  nfields(): number
  fname(i: number): string
  ftype(i: number): number
  getvalue(row: number, col: number): string
  getisnull(row: number, col: number): boolean
  cmdTuples(): string
  transactionStatus(): number
  finish(): void
}

let PQClass: (new () => PQ) | null | undefined

/** The line that says how to get the driver when it is missing. */
export const LIBPQ_MISSING =
  'the PostgreSQL driver (npm package libpq, built against libpq) is not installed: run `apt-get install -y libpq-dev build-essential python3 && npm rebuild libpq` (or `npm install libpq`)'

/** The libpq addon, or null when it is not installed or did not build. */
export function loadLibpq(): (new () => PQ) | null {
  if (PQClass === undefined) {
    try {
      PQClass = createRequire(import.meta.url)('libpq') as new () => PQ
    } catch {
      PQClass = null
    }
  }
  return PQClass
}

const INSERT_RE = /^\s*INSERT\s+INTO\s+("?)([A-Za-z_][A-Za-z0-9_]*)\1/i

const num = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v)
function asNumbers(row: unknown): unknown {
  if (Array.isArray(row)) return row.map(num)
  if (row && typeof row === 'object' && !(row instanceof Uint8Array)) return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, num(v)]))
  return num(row)
}

export interface RunResult {
  changes: number
  lastInsertRowid: bigint
}

export class PgStatement {
  private plucking = false
  private rawRows = false
  private numbers = false
  readonly reader = true

  constructor(
    private readonly conn: PgSync,
    readonly source: string,
    private readonly text: string,
    /** null: the text came with `$k` already (Kysely); the arguments are in order. */
    private readonly slots: Slot[] | null,
  ) {}

  pluck(on = true): this {
    this.plucking = on
    if (on) this.rawRows = false
    return this
  }

  raw(on = true): this {
    this.rawRows = on
    if (on) this.plucking = false
    return this
  }

  safeIntegers(on = true): this {
    this.numbers = !on
    return this
  }

  private rows(args: unknown[]): unknown[] {
    const { rows } = this.conn.query(this.text, paramsOf(args, this.slots, this.source), this.plucking || this.rawRows)
    const out = this.plucking ? (rows as unknown[][]).map((r) => r[0]) : rows
    return this.numbers ? out.map(asNumbers) : out
  }

  all(...args: unknown[]): unknown[] {
    return this.rows(args)
  }

  get(...args: unknown[]): unknown {
    return this.rows(args)[0]
  }

  iterate(...args: unknown[]): IterableIterator<unknown> {
    return this.rows(args)[Symbol.iterator]()
  }

  /** Rows and the count of rows changed. */
  exec(params: readonly unknown[]): { rows: unknown[]; count: number } {
    return this.conn.query(this.text, paramsOf([...params], this.slots, this.source))
  }

  run(...args: unknown[]): RunResult {
    const r = this.conn.query(this.text, paramsOf(args, this.slots, this.source), true)
    const last = r.rows[r.rows.length - 1] as unknown[] | undefined
    if (last && typeof last[0] === 'bigint') this.conn.lastInsertRowid = last[0]
    return { changes: r.count, lastInsertRowid: this.conn.lastInsertRowid }
  }
}

export interface PgSyncOptions {
  /** application_name, as pg_stat_activity shows it. */
  appName?: string
  /**
   * After the connection is lost, connect again at the next statement run outside any transaction.
   * Only for a connection that keeps no session state (an advisory lock, a LISTEN): the writer lock's
   * must not be silently replaced by a session that does not hold it.
   */
  reconnect?: boolean
}

/** Connections whose close libuv has not finished yet (see close()). */
const closing = new Set<PQ>()

/** libpq's PQtransactionStatus: PQTRANS_INTRANS and PQTRANS_INERROR. */
const IN_TRANSACTION = new Set([2, 3])
/** libpq's PQtransactionStatus when the connection is bad. */
const PQTRANS_UNKNOWN = 4

export class PgSync implements SqlConnection {
  readonly dialect = 'postgres' as const
  /** The URL without its password. */
  readonly name: string
  open = true
  lastInsertRowid = 0n
  private pq: PQ
  private depth = 0
  /** Transactions begun by transaction() and not ended: no reconnection while one is open. */
  private frames = 0
  /** The connection was lost; the next statement outside a transaction connects again (opts.reconnect). */
  private lost = false
  private readonly connect: () => PQ
  private readonly reconnects: boolean
  /** Each table's identity column, read once (and again after migrations). */
  private keys: Map<string, string> | null = null
  private readonly statements = new Map<string, PgStatement>()
  private readonly preparedNames = new Map<string, string>()
  private readonly seenOnce = new Set<string>()

  constructor(url: string, opts: PgSyncOptions = {}) {
    this.name = describeDatabase(url)
    const PQ = loadLibpq()
    if (!PQ) throw new Error(LIBPQ_MISSING)
    const sep = url.includes('?') ? '&' : '?'
    const params = `${url}${sep}application_name=${encodeURIComponent(opts.appName ?? 'nadi')}`
    this.connect = () => {
      const pq = new PQ()
      pq.connectSync(params)
      return pq
    }
    this.reconnects = opts.reconnect ?? false
    this.pq = this.connect()
    this.setUp()
  }

  /** Time must not depend on the server's settings; NOTICEs ("already exists, skipping") are not for the operator's terminal. */
  private setUp(): void {
    this.exec("SET TIME ZONE 'UTC'; SET client_min_messages = warning")
  }

  /** A new session in place of the lost one, outside any transaction; what was prepared on the old one is gone with it. */
  private revive(sql: string): void {
    if (!this.reconnects || this.frames > 0) throw new PgConnectionLost('the connection to PostgreSQL was lost', sql)
    const old = this.pq
    try {
      this.pq = this.connect()
    } catch (e) {
      throw new PgConnectionLost(`PostgreSQL cannot be reached: ${(e as Error).message.trim()}`, sql)
    }
    this.lost = false
    this.depth = 0
    this.preparedNames.clear()
    this.seenOnce.clear()
    this.release(old)
    this.setUp()
  }

  /** True while a transaction is open on the connection (ours, or one begun by a plain BEGIN). */
  get inTransaction(): boolean {
    return this.open && IN_TRANSACTION.has(this.pq.transactionStatus())
  }

  private check(sql: string): void {
    const message = this.pq.resultErrorMessage() || this.pq.errorMessage()
    if (!message) return
    if (this.pq.transactionStatus() === PQTRANS_UNKNOWN) {
      this.lost = true
      throw new PgConnectionLost(`${message.trim()} (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 160)})`, sql)
    }
    const f = this.pq.resultErrorFields() ?? {}
    // The statement's start goes in the message: a 500's log then says which one failed.
    throw new PgError(`${message.trim()} (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 160)})`, f.sqlState, f.constraintName, f.messageDetail, f.tableName, sql)
  }

  /** One statement (or, without params, several: the last one's rows), waited for. */
  query(sql: string, params: Param[] | null, array = false): { rows: unknown[]; count: number } {
    if (!this.open) throw new TypeError('The database connection is not open')
    if (this.lost) this.revive(sql)
    if (params === null) this.pq.exec(sql)
    else {
      // A statement is prepared on the server the second time it runs: preparing costs a round trip
      // of its own, which a statement run once (most, in a short process) would pay for nothing.
      const name = this.preparedNames.get(sql)
      if (name) this.pq.execPrepared(name, params)
      else if (this.seenOnce.has(sql)) {
        const fresh = `s${this.preparedNames.size + 1}`
        this.pq.prepare(fresh, sql, params.length)
        this.check(sql)
        this.preparedNames.set(sql, fresh)
        this.seenOnce.delete(sql)
        this.pq.execPrepared(fresh, params)
      } else {
        this.seenOnce.add(sql)
        this.pq.execParams(sql, params)
      }
    }
    this.check(sql)
    const pq = this.pq
    const nf = pq.nfields()
    const nt = pq.ntuples()
    const rows: unknown[] = new Array(nt)
    if (nf > 0) {
      const names: string[] = []
      const parsers: ((v: string) => unknown)[] = []
      for (let c = 0; c < nf; c++) {
        names.push(pq.fname(c))
        parsers.push(PARSERS[pq.ftype(c)] ?? TEXT)
      }
      for (let r = 0; r < nt; r++) {
        if (array) {
          const row: unknown[] = new Array(nf)
          for (let c = 0; c < nf; c++) row[c] = pq.getisnull(r, c) ? null : parsers[c]!(pq.getvalue(r, c))
          rows[r] = row
        } else {
          const row: Record<string, unknown> = {}
          for (let c = 0; c < nf; c++) row[names[c]!] = pq.getisnull(r, c) ? null : parsers[c]!(pq.getvalue(r, c))
          rows[r] = row
        }
      }
    }
    const tuples = pq.cmdTuples()
    return { rows, count: tuples ? Number(tuples) : 0 }
  }

  /** A statement compiled elsewhere (Kysely), with its parameters. */
  execute(sql: string, params: readonly unknown[]): { rows: unknown[]; count: number } {
    return params.length ? this.prepare(sql).exec(params) : this.query(sql, null)
  }

  prepare(sql: string): PgStatement {
    let s = this.statements.get(sql)
    if (s) return s
    // Kysely's PostgreSQL compiler writes $1… already; everything else is SQLite's notation.
    const numbered = /\$1\b/.test(sql) && !sql.includes('?')
    const { text: translated, slots } = numbered ? { text: sql, slots: null } : numberPlaceholders(sql)
    let text = translated
    const insert = INSERT_RE.exec(text)
    const key = insert && !/\bRETURNING\b/i.test(text) ? this.keyOf(insert[2]!) : undefined
    if (key) text = `${text.trimEnd().replace(/;$/, '')} RETURNING ${key}`
    s = new PgStatement(this, sql, text, slots)
    this.statements.set(sql, s)
    return s
  }

  /** The table's rowid-like key (its identity column: id, or exchange_journal's seq), if it has one. */
  private keyOf(table: string): string | undefined {
    // One look at the catalog for every table (information_schema is slow to ask table by table).
    if (!this.keys) {
      const { rows } = this.query("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'", null)
      this.keys = new Map((rows as { table_name: string; column_name: string }[]).map((r) => [r.table_name, r.column_name]))
    }
    return this.keys.get(table.toLowerCase())
  }

  /** Forgets what was learnt about tables and statements (after migrations changed them). */
  schemaChanged(): void {
    this.keys = null
    this.statements.clear()
    if (this.preparedNames.size && !this.inTransaction) {
      this.exec('DEALLOCATE ALL')
      this.preparedNames.clear()
    }
  }

  exec(sql: string): this {
    this.query(sql, null)
    return this
  }

  transaction<F extends Parameters<SqlConnection['transaction']>[0]>(fn: F): SqlTransaction<F> {
    const run = (...args: Parameters<F>) => this.inTx(() => fn(...args) as ReturnType<F>)
    return Object.assign(run, { default: run, deferred: run, immediate: run, exclusive: run }) as unknown as SqlTransaction<F>
  }

  private inTx<R>(fn: () => R): R {
    this.frames++
    try {
      return this.inTxFrame(fn)
    } finally {
      this.frames--
    }
  }

  private inTxFrame<R>(fn: () => R): R {
    if (this.inTransaction) {
      const sp = `nadi_sp${++this.depth}`
      this.exec(`SAVEPOINT ${sp}`)
      try {
        const r = fn()
        this.exec(`RELEASE SAVEPOINT ${sp}`)
        return r
      } catch (e) {
        if (this.open && !this.lost) this.exec(`ROLLBACK TO SAVEPOINT ${sp}; RELEASE SAVEPOINT ${sp}`)
        throw e
      } finally {
        this.depth--
      }
    }
    this.exec('BEGIN')
    try {
      const r = fn()
      this.exec('COMMIT')
      return r
    } catch (e) {
      if (this.inTransaction) this.exec('ROLLBACK')
      throw e
    }
  }

  /** SQLite's pragmas have no meaning here; the few the server sets are answered, others refused. */
  pragma(text: string, opts: { simple?: boolean } = {}): unknown {
    const t = text.trim().toLowerCase()
    // Every commit is durable on PostgreSQL (synchronous_commit = on).
    if (t.startsWith('synchronous')) return t.includes('=') ? [] : opts.simple ? 2 : [{ synchronous: 2 }]
    if (t.startsWith('foreign_keys')) return []
    throw new Error(`pragma ${text} is SQLite's; on PostgreSQL there is no such setting`)
  }

  close(): this {
    if (!this.open) return this
    this.open = false
    this.release(this.pq)
    return this
  }

  private release(pq: PQ): void {
    pq.finish()
    // finish() hands the socket's poll handle, which lives inside the addon's object, to libuv to
    // close on a later turn of the loop. Were the object collected before that, libuv would close
    // freed memory (and abort on the next one placed there): it is kept until the close is done.
    closing.add(pq)
    setTimeout(() => closing.delete(pq), 1000).unref()
  }
}
