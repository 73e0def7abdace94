import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteFile, transaction, type SqliteDatabase } from '../../../server/db/index.ts'

const dirs: string[] = []
const open: SqliteDatabase[] = []
afterEach(async () => {
  for (const d of open.splice(0)) await d.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** Rows of `t` in the database file alone, as if the WAL beside it were lost: what a checkpoint has copied. */
function rowsInMainFile(file: string): number {
  const copy = `${file}.copy`
  fs.copyFileSync(file, copy)
  const db = new Database(copy, { readonly: true })
  try {
    const has = db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'").pluck().get() as number
    return has ? (db.prepare('SELECT COUNT(*) FROM t').pluck().get() as number) : 0
  } finally {
    db.close()
    fs.rmSync(copy)
  }
}

function fresh(checkpointInWorker: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-ckpt-'))
  dirs.push(dir)
  const file = path.join(dir, 'db.sqlite')
  const conn = openSqliteFile(file, { checkpointInWorker })
  open.push(conn)
  conn.sqlite.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)')
  const insert = conn.sqlite.prepare('INSERT INTO t (v) VALUES (?)')
  transaction(conn.sqlite, () => {
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200))
  })
  return { conn, file }
}

describe('WAL checkpoints in a worker thread', () => {
  it('the committing connection leaves checkpoints to the worker, which copies the WAL into the database file', async () => {
    const { conn, file } = fresh(true)
    expect(Number(conn.sqlite.pragma('wal_autocheckpoint', { simple: true }))).toBe(100_000)
    await expect.poll(() => rowsInMainFile(file), { timeout: 5000, interval: 100 }).toBe(2000)
  })

  it('without the worker, a commit below the automatic threshold leaves its rows in the WAL only', () => {
    const { conn, file } = fresh(false)
    expect(Number(conn.sqlite.pragma('wal_autocheckpoint', { simple: true }))).toBe(10_000)
    expect(rowsInMainFile(file)).toBe(0)
  })
})
