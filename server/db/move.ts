// Moving up (issue 18): `cli move-to <postgres-url>` copies a stopped SQLite data folder into an
// empty PostgreSQL database — every row of every table — and proves the copy: the same rows on both
// sides (a digest of each table, row by row, in key order) and the ledger audit clean on both.
//
// The order of the copy follows the foreign keys (a referenced table first). A reference that closes
// a cycle (uploads.used_by ↔ car_applications) is copied as NULL first and set once both tables
// hold their rows. Identity sequences then start after the largest value copied.

import crypto from 'node:crypto'
import { sqliteOf, type SqlConnection } from './connection.ts'
import type { Database_ } from './index.ts'
import { migrate, migrateDatabase } from './migrate.ts'
import { statement, statements, type Sql } from './query/types.ts'
import { pgSchemaInfo, schemaInfo, type SchemaInfo } from './schemaInfo.ts'
import { audit } from '../ledger/audit.ts'

export class MoveRefused extends Error {
  override name = 'MoveRefused'
}

export interface TableMoved {
  table: string
  rows: number
  digest: string
}

export interface MoveReport {
  tables: TableMoved[]
  rows: number
  /** The ledger audit on each side after the copy: every rule held. */
  auditSqlite: number
  auditPostgres: number
}

const BATCH_PARAMS = 30_000

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Tables in an order where each comes after the ones it references; the references that close a cycle. */
export function copyOrder(info: SchemaInfo): { order: string[]; deferred: { table: string; column: string }[] } {
  const tables = Object.keys(info.tables).filter((t) => t !== 'schema_migrations')
  const refs = new Map<string, { column: string; target: string; nullable: boolean }[]>()
  for (const t of tables) {
    refs.set(
      t,
      info.tables[t]!.foreignKeys.map((fk) => {
        const m = /^(\w+) -> (\w+)\(/.exec(fk)!
        const col = info.tables[t]!.columns.find((c) => c.name === m[1])!
        return { column: m[1]!, target: m[2]!, nullable: !col.notNull }
      }),
    )
  }
  const order: string[] = []
  const deferred: { table: string; column: string }[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (t: string) => {
    if (state.get(t) === 'done') return
    state.set(t, 'visiting')
    for (const r of refs.get(t) ?? []) {
      if (r.target === t) continue // a row's own table: rows go in key order (inviters before invitees)
      if (state.get(r.target) === 'visiting') {
        if (!r.nullable) throw new MoveRefused(`a cycle of NOT NULL references through ${t}.${r.column}`)
        deferred.push({ table: t, column: r.column })
        continue
      }
      visit(r.target)
    }
    state.set(t, 'done')
    order.push(t)
  }
  for (const t of tables.sort()) visit(t)
  return { order, deferred }
}

function keyOf(info: SchemaInfo, table: string): string[] {
  const cols = info.tables[table]!.columns
  const pk = cols.filter((c) => c.pk).map((c) => c.name)
  return pk.length ? pk : cols.map((c) => c.name)
}

/** Folds rows, in order, into a digest that is the same for equal rows on either backend. */
function digester() {
  const hash = crypto.createHash('sha256')
  let rows = 0
  return {
    add(row: unknown[]) {
      rows++
      hash.update(
        JSON.stringify(row.map((v) => (typeof v === 'bigint' ? `i${v}` : typeof v === 'number' ? (Number.isInteger(v) ? `i${v}` : `r${v}`) : v instanceof Uint8Array ? `b${Buffer.from(v).toString('hex')}` : v))),
      )
      hash.update('\n')
    },
    done: () => ({ rows, digest: hash.digest('hex') }),
  }
}

const selectAll = (info: SchemaInfo, table: string) =>
  `SELECT ${info.tables[table]!.columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)} ORDER BY ${keyOf(info, table).map(quote).join(', ')}`

/** A digest of a SQLite table's rows in key order. */
export function tableDigest(conn: SqlConnection, info: SchemaInfo, table: string): { rows: number; digest: string } {
  const d = digester()
  for (const row of conn.prepare(selectAll(info, table)).raw().iterate() as IterableIterator<unknown[]>) d.add(row)
  return d.done()
}

const DIGEST_CURSOR = 'nadi_move_digest'
const fetchDigest = statement<Record<string, unknown>, []>(`FETCH 2000 FROM ${DIGEST_CURSOR}`)

/** The same digest of a PostgreSQL table, read through a cursor (a table may not fit in memory) in one snapshot. */
export function pgTableDigest(sql: Sql, info: SchemaInfo, table: string): Promise<{ rows: number; digest: string }> {
  const cols = info.tables[table]!.columns.map((c) => c.name)
  return sql.transaction(async (tx) => {
    const d = digester()
    await tx.run(statement(`DECLARE ${DIGEST_CURSOR} NO SCROLL CURSOR FOR ${selectAll(info, table)}`))
    for (let page = await tx.all(fetchDigest); page.length; page = await tx.all(fetchDigest)) {
      for (const row of page) d.add(cols.map((c) => row[c]))
    }
    await tx.run(statement(`CLOSE ${DIGEST_CURSOR}`))
    return d.done()
  })
}

const PG = statements({
  tables: statement<{ table_name: string }, []>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"),
  identities: statement<{ table_name: string; column_name: string }, []>("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'"),
  sequence: statement<{ seq: string | null }, [string, string]>('SELECT pg_get_serial_sequence(?, ?) AS seq'),
  versions: statement<{ version: bigint }, []>('SELECT version FROM schema_migrations ORDER BY version'),
})

/** One side of a move: SQLite's is read on its in-process connection, PostgreSQL's written through its Sql. */
type Side = Pick<Database_, 'sqlite' | 'sql'>

/**
 * Copies every row of `source` (SQLite, no writer on it: the caller holds its writer lock) into `target`
 * (PostgreSQL, which must hold no table of ours) and checks the copy. Throws MoveRefused before
 * writing anything when `target` is not empty or `source` fails its audit — unless `asIs`: a folder whose
 * books need a repair (a halted market) is then carried with its problems, to be repaired on
 * PostgreSQL, and the copy must show the very same audit findings as the source. SQLite is read on
 * its connection (in process), PostgreSQL written through its pool, a batch of rows per statement.
 */
export async function moveToPostgres(source: Side, target: Side, log: (line: string) => void = () => {}, opts: { asIs?: boolean } = {}): Promise<MoveReport> {
  if (target.sql.dialect !== 'postgres') throw new Error('moveToPostgres copies a SQLite database into a PostgreSQL one')
  const from = sqliteOf(source, 'moveToPostgres\'s source')
  const tablesThere = (await target.sql.all(PG.tables)).map((r) => r.table_name)
  if (tablesThere.length) throw new MoveRefused(`the PostgreSQL database is not empty (it has ${tablesThere.length} tables, e.g. ${tablesThere.slice(0, 3).join(', ')}): move into an empty database`)
  const before = await audit(source.sql)
  if (before.violations.length && !opts.asIs) throw new MoveRefused(`the SQLite database fails the ledger audit; fix it first: ${before.violations.map((v) => v.message).join('; ')}`)

  migrate(from) // the source at this code's schema (a no-op when it already is)
  await migrateDatabase(target)
  const info = schemaInfo(from)
  const { order, deferred } = copyOrder(info)
  const moved: TableMoved[] = []
  await target.sql.transaction(async (tx) => {
    for (const table of order) {
      const cols = info.tables[table]!.columns.map((c) => c.name)
      const nulled = new Set(deferred.filter((d) => d.table === table).map((d) => d.column))
      const perRow = cols.length
      const rowsPerBatch = Math.max(1, Math.floor(BATCH_PARAMS / perRow))
      const head = `INSERT INTO ${quote(table)} (${cols.map(quote).join(', ')}) VALUES `
      const one = `(${cols.map(() => '?').join(', ')})`
      let batch: unknown[] = []
      let n = 0
      const flush = async () => {
        if (!batch.length) return
        const count = batch.length / perRow
        await tx.run(statement(`${head}${Array.from({ length: count }, () => one).join(', ')}`), ...batch)
        batch = []
      }
      for (const row of from.prepare(selectAll(info, table)).raw().iterate() as IterableIterator<unknown[]>) {
        cols.forEach((c, i) => batch.push(nulled.has(c) ? null : row[i]))
        n++
        if (n % rowsPerBatch === 0) await flush()
      }
      await flush()
      log(`${table}: ${n} rows`)
    }
    for (const d of deferred) {
      const key = keyOf(info, d.table)
      const set = statement(`UPDATE ${quote(d.table)} SET ${quote(d.column)} = ? WHERE ${key.map((k) => `${quote(k)} = ?`).join(' AND ')}`)
      const it = from.prepare(`SELECT ${[...key, d.column].map(quote).join(', ')} FROM ${quote(d.table)} WHERE ${quote(d.column)} IS NOT NULL`).raw().iterate() as IterableIterator<unknown[]>
      for (const row of it) await tx.run(set, row[row.length - 1], ...row.slice(0, -1))
    }
    // Identity columns (id, the journal's seq): the next value after the largest copied.
    for (const { table_name: t, column_name: c } of await tx.all(PG.identities)) {
      const seq = (await tx.get(PG.sequence, t, c))?.seq
      if (seq) await tx.get(statement(`SELECT setval(?, COALESCE((SELECT MAX(${quote(c)}) FROM ${quote(t)}), 0) + 1, false)`), seq)
    }
  })

  // The proof: every table's rows the same on both sides, and both sets of books balanced.
  const theirs = await pgSchemaInfo(target.sql)
  let rows = 0
  // schema_migrations is each side's own record of when it migrated: the versions must agree.
  const sqliteVersions = (from.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as bigint[]).join(',')
  const pgVersions = (await target.sql.all(PG.versions)).map((r) => r.version).join(',')
  if (sqliteVersions !== pgVersions) throw new Error(`the schema versions differ after the copy: SQLite ${sqliteVersions}, PostgreSQL ${pgVersions}`)
  for (const table of order) {
    const a = tableDigest(from, info, table)
    const b = await pgTableDigest(target.sql, theirs, table)
    if (a.rows !== b.rows || a.digest !== b.digest) throw new Error(`${table} differs after the copy: ${a.rows} rows in SQLite, ${b.rows} in PostgreSQL${a.rows === b.rows ? ' (same count, other content)' : ''}`)
    moved.push({ table, rows: a.rows, digest: a.digest })
    rows += a.rows
  }
  const findings = async (c: Side) => (await audit(c.sql)).violations.map((v) => v.message)
  const inPostgres = await findings(target)
  const inSqlite = await findings(source)
  const auditPostgres = inPostgres.length
  const auditSqlite = inSqlite.length
  if (opts.asIs ? inPostgres.join('\n') !== inSqlite.join('\n') : auditPostgres || auditSqlite) {
    throw new Error(`the audit found ${auditSqlite} problem(s) in SQLite and ${auditPostgres} in PostgreSQL after the copy${opts.asIs ? ', not the same ones' : ''}`)
  }
  return { tables: moved, rows, auditSqlite, auditPostgres }
}
