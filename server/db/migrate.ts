import fs from 'node:fs'
import path from 'node:path'
import { sqliteOf, type SqlConnection } from './connection.ts'
import { PRELUDE, toPostgres } from './pg/migrations.ts'
import { PgPool } from './query/pg.ts'
import type { Sql } from './query/types.ts'

const DIR = path.resolve(import.meta.dirname, 'migrations')

/** Two servers starting on one PostgreSQL database migrate one after the other. */
const MIGRATION_LOCK = 7_411_001

/**
 * Applies every numbered .sql file not applied yet, each in its own transaction, in order: on SQLite
 * as written (synchronously: SQLite is in process), on PostgreSQL translated (./pg/migrations.ts) or
 * from its NNN_name.pg.sql sibling, through the pool (migratePostgres).
 */
export function migrateDatabase(db: { sqlite?: SqlConnection; sql: Sql }, dir = DIR, upTo = Infinity): Promise<string[]> {
  if (db.sql instanceof PgPool) return migratePostgres(db.sql, dir, upTo)
  return Promise.resolve(migrate(sqliteOf(db, 'migrate'), dir, upTo))
}

/** The migrations of a SQLite database, on its connection. */
export function migrate(sqlite: SqlConnection, dir = DIR, upTo = Infinity): string[] {
  return apply(sqlite, dir, upTo)
}

const PG_MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)'

/**
 * The migrations of a PostgreSQL database, on one connection of the pool that holds the migration
 * lock for the whole run. The texts go as they are (the simple protocol: several statements, no
 * placeholders), never through the pool's translation of SQLite's placeholders.
 */
export async function migratePostgres(sql: PgPool, dir = DIR, upTo = Infinity): Promise<string[]> {
  const conn = await sql.pool.connect()
  // A failure leaves the session in a state not worth handing on (a lock, a transaction): it is closed.
  let broken: Error | undefined
  const onError = (e: Error) => void (broken = e)
  conn.on('error', onError)
  try {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await conn.query(PRELUDE)
      await conn.query(PG_MIGRATIONS_TABLE)
      const applied = new Set((await conn.query<{ version: bigint }>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)))
      const done: string[] = []
      for (const file of migrationFiles(dir)) {
        const version = parseInt(file, 10)
        if (version > upTo) break
        if (applied.has(version)) continue
        const text = migrationSql(file, true, dir)
        await conn.query('BEGIN')
        try {
          await conn.query(text)
          await conn.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [version, file, Date.now()])
          await conn.query('COMMIT')
        } catch (e) {
          await conn.query('ROLLBACK').catch(() => undefined)
          throw new Error(`migration ${file} failed on PostgreSQL: ${(e as Error).message}`, { cause: e })
        }
        done.push(file)
      }
      return done
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } catch (e) {
    broken ??= e as Error
    throw e
  } finally {
    conn.off('error', onError)
    conn.release(broken)
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

function apply(sqlite: SqlConnection, dir: string, upTo: number): string[] {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
  const applied = new Set(
    sqlite.prepare('SELECT version FROM schema_migrations').all().map((r) => Number((r as { version: bigint }).version)),
  )
  const done: string[] = []
  for (const file of migrationFiles(dir)) {
    const version = parseInt(file, 10)
    if (version > upTo) break
    if (applied.has(version)) continue
    const sql = migrationSql(file, false, dir)
    // A migration that rebuilds a table others reference (SQLite cannot alter a CHECK) asks for
    // foreign keys off, as SQLite's own procedure does; it is checked before it commits.
    const rebuild = /^-- migrate: foreign_keys=off$/m.test(sql)
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
