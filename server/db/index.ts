import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { DB } from './schema.ts'

export type Db = Kysely<DB>

export interface Database_ {
  sqlite: Database.Database
  db: Db
  close(): Promise<void>
}

export function openDatabase(file: string): Database_ {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new Database(file)
  sqlite.pragma('journal_mode = WAL')
  // NORMAL in WAL mode loses nothing on a process crash; FULL would add an fsync per commit.
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  // Money is integer units of 1e-8: a number above 2^53 must never be rounded on its way out.
  sqlite.defaultSafeIntegers(true)
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) })
  return {
    sqlite,
    db,
    async close() {
      await db.destroy()
    },
  }
}

/**
 * Runs fn in one IMMEDIATE transaction. better-sqlite3 is synchronous, so the whole action holds the
 * write lock without yielding to the event loop: no other request interleaves with it.
 */
export function transaction<T>(sqlite: Database.Database, fn: () => T): T {
  return sqlite.transaction(fn).immediate()
}
