import fs from 'node:fs'
import path from 'node:path'
import type Database from 'better-sqlite3'

const DIR = path.resolve(import.meta.dirname, 'migrations')

/** Applies every numbered .sql file not applied yet, each in its own transaction, in order. */
export function migrate(sqlite: Database.Database, dir = DIR): string[] {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
  const applied = new Set(
    sqlite.prepare('SELECT version FROM schema_migrations').all().map((r) => Number((r as { version: bigint }).version)),
  )
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
  const done: string[] = []
  for (const file of files) {
    const version = parseInt(file, 10)
    if (applied.has(version)) continue
    const sql = fs.readFileSync(path.join(dir, file), 'utf8')
    sqlite.transaction(() => {
      sqlite.exec(sql)
      sqlite.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(version, file, Date.now())
    })()
    done.push(file)
  }
  return done
}
