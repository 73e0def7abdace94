import fs from 'node:fs'
import path from 'node:path'
import { dialectOf, type SqlConnection } from './connection.ts'
import { PRELUDE, toPostgres } from './pg/migrations.ts'
import type { PgSync } from './pg/sync.ts'

const DIR = path.resolve(import.meta.dirname, 'migrations')

/** Two servers starting on one PostgreSQL database migrate one after the other. */
const MIGRATION_LOCK = 7_411_001

/**
 * Applies every numbered .sql file not applied yet, each in its own transaction, in order: on SQLite
 * as written, on PostgreSQL translated (./pg/migrations.ts) or from its NNN_name.pg.sql sibling.
 */
export function migrate(sqlite: SqlConnection, dir = DIR, upTo = Infinity): string[] {
  const pg = dialectOf(sqlite) === 'postgres'
  if (!pg) return apply(sqlite, dir, upTo, false)
  sqlite.prepare('SELECT pg_advisory_lock(?)').get(MIGRATION_LOCK)
  try {
    sqlite.exec(PRELUDE)
    return apply(sqlite, dir, upTo, true)
  } finally {
    sqlite.prepare('SELECT pg_advisory_unlock(?)').get(MIGRATION_LOCK)
    ;(sqlite as unknown as PgSync).schemaChanged()
  }
}

/** The migration files in order (a .pg.sql sibling is not one of them). */
export function migrationFiles(dir = DIR): string[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f) && !f.endsWith('.pg.sql'))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
  // Two files of one number (branches that each took the next) would leave one silently never applied.
  const twice = files.find((f, i) => i > 0 && parseInt(f, 10) === parseInt(files[i - 1]!, 10))
  if (twice) throw new Error(`two migrations are numbered ${parseInt(twice, 10)}: renumber one (${files.filter((f) => parseInt(f, 10) === parseInt(twice, 10)).join(', ')})`)
  return files
}

/** A migration's text for the dialect. */
export function migrationSql(file: string, pg: boolean, dir = DIR): string {
  if (!pg) return fs.readFileSync(path.join(dir, file), 'utf8')
  const own = path.join(dir, file.replace(/\.sql$/, '.pg.sql'))
  return fs.existsSync(own) ? fs.readFileSync(own, 'utf8') : toPostgres(fs.readFileSync(path.join(dir, file), 'utf8'), file)
}

function apply(sqlite: SqlConnection, dir: string, upTo: number, pg: boolean): string[] {
  const ddl = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`
  sqlite.exec(pg ? 'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)' : ddl)
  const applied = new Set(
    sqlite.prepare('SELECT version FROM schema_migrations').all().map((r) => Number((r as { version: bigint }).version)),
  )
  const done: string[] = []
  for (const file of migrationFiles(dir)) {
    const version = parseInt(file, 10)
    if (version > upTo) break
    if (applied.has(version)) continue
    const sql = migrationSql(file, pg, dir)
    // A migration that rebuilds a table others reference (SQLite cannot alter a CHECK) asks for
    // foreign keys off, as SQLite's own procedure does; it is checked before it commits.
    const rebuild = !pg && /^-- migrate: foreign_keys=off$/m.test(sql)
    if (rebuild) sqlite.pragma('foreign_keys = OFF')
    try {
      sqlite.transaction(() => {
        sqlite.exec(sql)
        if (rebuild) {
          const broken = sqlite.pragma('foreign_key_check') as unknown[]
          if (broken.length) throw new Error(`migration ${file} leaves ${broken.length} broken foreign keys: ${JSON.stringify(broken.slice(0, 3), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`)
        }
        sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(version, file, Date.now())
      })()
    } finally {
      if (rebuild) sqlite.pragma('foreign_keys = ON')
    }
    done.push(file)
  }
  return done
}
