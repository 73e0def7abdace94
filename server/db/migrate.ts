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
  // Two files of one number (branches that each took the next) would leave one silently never applied.
  const twice = files.find((f, i) => i > 0 && parseInt(f, 10) === parseInt(files[i - 1]!, 10))
  if (twice) throw new Error(`two migrations are numbered ${parseInt(twice, 10)}: renumber one (${files.filter((f) => parseInt(f, 10) === parseInt(twice, 10)).join(', ')})`)
  const done: string[] = []
  for (const file of files) {
    const version = parseInt(file, 10)
    if (applied.has(version)) continue
    const sql = fs.readFileSync(path.join(dir, file), 'utf8')
    // A migration that rebuilds a table others reference (SQLite cannot alter a CHECK) asks for
    // foreign keys off, as SQLite's own procedure does; it is checked before it commits.
    const rebuild = /^-- migrate: foreign_keys=off$/m.test(sql)
    if (rebuild) sqlite.pragma('foreign_keys = OFF')
    try {
      sqlite.transaction(() => {
        sqlite.exec(sql)
        if (rebuild) {
          const broken = sqlite.pragma('foreign_key_check') as unknown[]
          if (broken.length) throw new Error(`migration ${file} leaves ${broken.length} broken foreign keys: ${JSON.stringify(broken.slice(0, 3))}`)
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
