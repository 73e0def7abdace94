// The schema as data, the same shape on both backends: tables, their columns (type family, NOT NULL,
// primary key), indexes (columns, unique, partial) and foreign keys. What the migrations test compares
// (a fresh database against one migrated step by step; SQLite against PostgreSQL), and what `cli
// move-to` checks before it copies rows.

import { sqliteOf, type SqlConnection } from './connection.ts'
import { statement, statements, type Queryable, type Sql } from './query/types.ts'

export interface ColumnInfo {
  name: string
  /** integer | text | real | blob: what both backends agree a column holds. */
  type: string
  notNull: boolean
  pk: boolean
}

export interface SchemaInfo {
  tables: Record<string, { columns: ColumnInfo[]; indexes: string[]; foreignKeys: string[] }>
}

function family(declared: string): string {
  const t = declared.toLowerCase()
  if (/int/.test(t)) return 'integer'
  if (/char|text|clob/.test(t)) return 'text'
  if (/real|floa|doub|numeric/.test(t)) return 'real'
  if (/blob|bytea/.test(t) || t === '') return 'blob'
  return t
}

const sorted = <T>(xs: T[]) => [...xs].sort()

/** Tables of the application (schema_migrations included; SQLite's and PostgreSQL's own left out), on either backend. */
export function schemaInfoOf(db: { sqlite?: SqlConnection; sql: Sql }): Promise<SchemaInfo> {
  return db.sql.dialect === 'postgres' ? pgSchemaInfo(db.sql) : Promise.resolve(schemaInfo(sqliteOf(db, 'schemaInfo')))
}

/** A SQLite database's tables, read on its connection. */
export function schemaInfo(conn: SqlConnection): SchemaInfo {
  return sqliteSchema(conn)
}

function sqliteSchema(conn: SqlConnection): SchemaInfo {
  const tables: SchemaInfo['tables'] = {}
  const names = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]
  for (const t of names) {
    const cols = conn.prepare('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid').all(t) as { name: string; type: string; nn: bigint; pk: bigint }[]
    const pkCount = cols.filter((c) => c.pk > 0n).length
    const columns = cols.map((c) => ({
      name: c.name,
      type: family(c.type),
      // SQLite lets a lone INTEGER PRIMARY KEY be NULL on insert (it assigns one); it is never NULL stored.
      notNull: c.nn === 1n || c.pk > 0n,
      pk: c.pk > 0n && pkCount > 0,
    }))
    const indexes: string[] = []
    const list = conn.prepare('SELECT name, "unique" AS u, origin, partial FROM pragma_index_list(?)').all(t) as { name: string; u: bigint; origin: string; partial: bigint }[]
    for (const ix of list) {
      if (ix.origin === 'pk') continue
      const cols = conn.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(ix.name) as string[]
      indexes.push(`${ix.u === 1n ? 'unique ' : ''}(${cols.join(', ')})${ix.partial === 1n ? ' partial' : ''}`)
    }
    const fks = conn.prepare('SELECT "from" AS f, "table" AS t, "to" AS c FROM pragma_foreign_key_list(?)').all(t) as { f: string; t: string; c: string | null }[]
    tables[t] = { columns, indexes: sorted(indexes), foreignKeys: sorted(fks.map((k) => `${k.f} -> ${k.t}(${k.c ?? 'id'})`)) }
  }
  return { tables }
}

const PG = statements({
  tables: statement<{ table_name: string }, []>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"),
  primaryKey: statement<{ attname: string }, [string]>(
    `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
     WHERE i.indrelid = ?::regclass AND i.indisprimary`,
  ),
  columns: statement<{ name: string; type: string; nullable: string }, [string]>(
    'SELECT column_name AS name, data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
  ),
  indexes: statement<{ u: bigint; partial: bigint; cols: string }, [string]>(
    `SELECT i.indisunique AS u, i.indpred IS NOT NULL AS partial,
            array_to_string(ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o), ', ') AS cols
     FROM pg_index i WHERE i.indrelid = ?::regclass AND NOT i.indisprimary`,
  ),
  foreignKeys: statement<{ f: string; t: string; c: string }, [string]>(
    `SELECT a.attname AS f, c.confrelid::regclass::text AS t, b.attname AS c
     FROM pg_constraint c
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = c.confkey[1]
     WHERE c.contype = 'f' AND c.conrelid = ?::regclass`,
  ),
  // References checked per statement (035_hot_references.pg.sql): the trigger's arguments name them.
  checkedReferences: statement<{ args: Buffer }, [string]>(
    `SELECT t.tgargs AS args FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
     WHERE t.tgrelid = ?::regclass AND p.proname LIKE 'nadi\\_%\\_references' AND NOT t.tgisinternal`,
  ),
})

/** A PostgreSQL database's tables, from information_schema and the catalog. */
export async function pgSchemaInfo(q: Queryable): Promise<SchemaInfo> {
  const tables: SchemaInfo['tables'] = {}
  for (const { table_name: t } of await q.all(PG.tables)) {
    const pk = new Set((await q.all(PG.primaryKey, t)).map((r) => r.attname))
    const cols = await q.all(PG.columns, t)
    const columns = cols.map((c) => ({ name: c.name, type: family(c.type), notNull: c.nullable === 'NO', pk: pk.has(c.name) }))
    const indexes = (await q.all(PG.indexes, t)).map((i) => `${i.u === 1n ? 'unique ' : ''}(${i.cols})${i.partial === 1n ? ' partial' : ''}`)
    const fks = (await q.all(PG.foreignKeys, t)).map((k) => `${k.f} -> ${k.t}(${k.c})`)
    for (const { args } of await q.all(PG.checkedReferences, t)) {
      // tgargs: the arguments, each ended by a NUL byte; each 'column:table:key'.
      for (const ref of args.toString('utf8').split('\0').filter(Boolean)) {
        const [f, table, key] = ref.split(':')
        fks.push(`${f} -> ${table}(${key})`)
      }
    }
    tables[t] = { columns, indexes: sorted(indexes), foreignKeys: sorted(fks) }
  }
  return { tables }
}
