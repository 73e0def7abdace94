// A snapshot transaction on SQLite: reads that agree with each other while another connection writes
// the same file, without the write lock a BEGIN IMMEDIATE would take; inSnapshot joins an open
// transaction instead of beginning a second.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { statement } from '../../../server/db/query/types.ts'
import { inSnapshot } from '../../../server/db/steps.ts'

const dirs: string[] = []
const open: SqliteDatabase[] = []
const others: Database.Database[] = []
afterEach(async () => {
  for (const o of others.splice(0)) o.close()
  for (const d of open.splice(0)) await d.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const count = statement<{ n: bigint }, []>('SELECT COUNT(*) AS n FROM t')

/** The server's database on a file, and a second connection to the same file (another process). */
function fresh() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-snap-'))
  dirs.push(dir)
  const file = path.join(dir, 'db.sqlite')
  const conn = openSqliteFile(file)
  open.push(conn)
  conn.sqlite.exec('CREATE TABLE t (k INTEGER PRIMARY KEY)')
  conn.sqlite.exec('INSERT INTO t DEFAULT VALUES')
  const other = new Database(file)
  other.pragma('busy_timeout = 0')
  others.push(other)
  return { conn, other }
}

describe('snapshot transactions (SQLite)', () => {
  it('reads one view while another connection commits, and holds no write lock', async () => {
    const { conn, other } = fresh()
    const seen = await conn.sql.transaction(
      async (tx) => {
        const before = (await tx.get(count))?.n
        // With busy_timeout 0 this throws SQLITE_BUSY if the snapshot held the write lock.
        other.prepare('INSERT INTO t DEFAULT VALUES').run()
        const after = (await tx.get(count))?.n
        return { before, after }
      },
      { snapshot: true },
    )
    expect(seen).toEqual({ before: 1n, after: 1n })
    expect((await conn.sql.get(count))?.n).toBe(2n)
  })

  it('a plain transaction does hold the write lock', async () => {
    const { conn, other } = fresh()
    await conn.sql.transaction(async (tx) => {
      await tx.get(count)
      expect(() => other.prepare('INSERT INTO t DEFAULT VALUES').run()).toThrow(/locked|busy/i)
    })
  })

  it('inSnapshot runs on the transaction it is given, else in a snapshot of its own', async () => {
    const { conn, other } = fresh()
    const joined = await conn.sql.transaction(async (tx) => {
      await tx.run(statement<never, []>('INSERT INTO t DEFAULT VALUES'))
      // The open transaction's own uncommitted row is seen: fn ran on tx, not on a view beside it.
      return inSnapshot(tx, async (inner) => ({ same: inner === tx, n: (await inner.get(count))?.n }))
    })
    expect(joined).toEqual({ same: true, n: 2n })

    const own = await inSnapshot(conn.sql, async (tx) => {
      const before = (await tx.get(count))?.n
      other.prepare('INSERT INTO t DEFAULT VALUES').run()
      return { inTransaction: conn.sqlite.inTransaction, before, after: (await tx.get(count))?.n }
    })
    expect(own).toEqual({ inTransaction: true, before: 2n, after: 2n })
  })
})
