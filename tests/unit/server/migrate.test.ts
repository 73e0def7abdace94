// server/db/migrate.ts: migrations are applied by number, so two files of one number must stop the start.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, expect, it } from 'vitest'
import { migrate } from '../../../server/db/migrate.ts'

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../server/db/migrations')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-mig-'))
  dirs.push(dir)
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql)
  return dir
}

it('refuses two migrations of one number, naming both, and applies none of them', () => {
  const dir = folder({ '001_a.sql': 'CREATE TABLE a (x INTEGER);', '002_b.sql': 'CREATE TABLE b (x INTEGER);', '002_c.sql': 'CREATE TABLE c (x INTEGER);' })
  const db = new Database(':memory:')
  expect(() => migrate(db, dir)).toThrow(/two migrations are numbered 2: .*002_b\.sql, 002_c\.sql/)
  expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'b', 'c')").get()).toEqual({ n: 0 })
})

it("the project's own migrations have one number each", () => {
  // A .pg.sql file is PostgreSQL's text of the migration of its number, not another migration.
  const numbers = fs.readdirSync(MIGRATIONS).filter((f) => /^\d+_.+\.sql$/.test(f) && !f.endsWith('.pg.sql')).map((f) => parseInt(f, 10))
  expect(new Set(numbers).size).toBe(numbers.length)
  for (const f of fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.pg.sql'))) expect(fs.existsSync(`${MIGRATIONS}/${f.replace(/\.pg\.sql$/, '.sql')}`), f).toBe(true)
})
