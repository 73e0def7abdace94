// Moving up (issue 18): `cli move-to <postgres-url>` copies a stopped SQLite data folder into an
// empty PostgreSQL database — every row of every table — and proves the copy: the same rows on both
// sides (a digest of each table, row by row, in key order) and the ledger audit clean on both.
//
// The order of the copy follows the foreign keys (a referenced table first). A reference that closes
// a cycle (uploads.used_by ↔ car_applications) is copied as NULL first and set once both tables
// hold their rows. Identity sequences then start after the largest value copied.

import crypto from 'node:crypto'
import type { SqlConnection } from './connection.ts'
import type { Database_ } from './index.ts'
import { migrate } from './migrate.ts'
import { schemaInfo, type SchemaInfo } from './schemaInfo.ts'
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

/** A digest of a table's rows in key order, the same for equal rows on either backend. */
export function tableDigest(conn: SqlConnection, info: SchemaInfo, table: string): { rows: number; digest: string } {
  const cols = info.tables[table]!.columns.map((c) => c.name)
  const order = keyOf(info, table).map(quote).join(', ')
  const hash = crypto.createHash('sha256')
  let rows = 0
  const it = conn.prepare(`SELECT ${cols.map(quote).join(', ')} FROM ${quote(table)} ORDER BY ${order}`).raw().iterate() as IterableIterator<unknown[]>
  for (const row of it) {
    rows++
    hash.update(
      JSON.stringify(row.map((v) => (typeof v === 'bigint' ? `i${v}` : typeof v === 'number' ? (Number.isInteger(v) ? `i${v}` : `r${v}`) : v instanceof Uint8Array ? `b${Buffer.from(v).toString('hex')}` : v))),
    )
    hash.update('\n')
  }
  return { rows, digest: hash.digest('hex') }
}

/** One side of a move: its synchronous connection copies the rows, its Sql audits them. */
type Side = Pick<Database_, 'sqlite' | 'sql'>

/**
 * Copies every row of `source` (SQLite, no writer on it: the caller holds its writer lock) into `target`
 * (PostgreSQL, which must hold no table of ours) and checks the copy. Throws MoveRefused before
 * writing anything when `target` is not empty or `source` fails its audit — unless `asIs`: a folder whose
 * books need a repair (a halted market) is then carried with its problems, to be repaired on
 * PostgreSQL, and the copy must show the very same audit findings as the source.
 */
export async function moveToPostgres(source: Side, target: Side, log: (line: string) => void = () => {}, opts: { asIs?: boolean } = {}): Promise<MoveReport> {
  const [from, to] = [source.sqlite, target.sqlite]
  const tablesThere = to.prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'").pluck().all() as string[]
  if (tablesThere.length) throw new MoveRefused(`the PostgreSQL database is not empty (it has ${tablesThere.length} tables, e.g. ${tablesThere.slice(0, 3).join(', ')}): move into an empty database`)
  const before = await audit(source.sql)
  if (before.violations.length && !opts.asIs) throw new MoveRefused(`the SQLite database fails the ledger audit; fix it first: ${before.violations.map((v) => v.message).join('; ')}`)

  migrate(from) // the source at this code's schema (a no-op when it already is)
  migrate(to)
  const info = schemaInfo(from)
  const { order, deferred } = copyOrder(info)
  const moved: TableMoved[] = []
  to.transaction(() => {
    for (const table of order) {
      const cols = info.tables[table]!.columns.map((c) => c.name)
      const nulled = new Set(deferred.filter((d) => d.table === table).map((d) => d.column))
      const perRow = cols.length
      const rowsPerBatch = Math.max(1, Math.floor(BATCH_PARAMS / perRow))
      const head = `INSERT INTO ${quote(table)} (${cols.map(quote).join(', ')}) VALUES `
      const one = `(${cols.map(() => '?').join(', ')})`
      let batch: unknown[] = []
      let n = 0
      const flush = () => {
        if (!batch.length) return
        const count = batch.length / perRow
        to.prepare(`${head}${Array.from({ length: count }, () => one).join(', ')}`).run(...batch)
        batch = []
      }
      const it = from.prepare(`SELECT ${cols.map(quote).join(', ')} FROM ${quote(table)} ORDER BY ${keyOf(info, table).map(quote).join(', ')}`).raw().iterate() as IterableIterator<unknown[]>
      for (const row of it) {
        cols.forEach((c, i) => batch.push(nulled.has(c) ? null : row[i]))
        n++
        if (n % rowsPerBatch === 0) flush()
      }
      flush()
      log(`${table}: ${n} rows`)
    }
    for (const d of deferred) {
      const key = keyOf(info, d.table)
      const it = from.prepare(`SELECT ${[...key, d.column].map(quote).join(', ')} FROM ${quote(d.table)} WHERE ${quote(d.column)} IS NOT NULL`).raw().iterate() as IterableIterator<unknown[]>
      const set = to.prepare(`UPDATE ${quote(d.table)} SET ${quote(d.column)} = ? WHERE ${key.map((k) => `${quote(k)} = ?`).join(' AND ')}`)
      for (const row of it) set.run(row[row.length - 1], ...row.slice(0, -1))
    }
    // Identity columns (id, the journal's seq): the next value after the largest copied.
    const identities = to.prepare("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'").all() as { table_name: string; column_name: string }[]
    for (const { table_name: t, column_name: c } of identities) {
      const seq = to.prepare('SELECT pg_get_serial_sequence(?, ?)').pluck().get(t, c) as string | null
      if (seq) to.prepare(`SELECT setval(?, COALESCE((SELECT MAX(${quote(c)}) FROM ${quote(t)}), 0) + 1, false)`).get(seq)
    }
  })()

  // The proof: every table's rows the same on both sides, and both sets of books balanced.
  const theirs = schemaInfo(to)
  let rows = 0
  // schema_migrations is each side's own record of when it migrated: the versions must agree.
  const versions = (c: SqlConnection) => (c.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as bigint[]).join(',')
  if (versions(from) !== versions(to)) throw new Error(`the schema versions differ after the copy: SQLite ${versions(from)}, PostgreSQL ${versions(to)}`)
  for (const table of order) {
    const a = tableDigest(from, info, table)
    const b = tableDigest(to, theirs, table)
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
