import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteFile, type SqliteDatabase } from '../../../server/db/index.ts'
import { GroupCommit } from '../../../server/db/groupCommit.ts'
import { statement, type Tx } from '../../../server/db/query/types.ts'

let open: SqliteDatabase[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const d of open) await d.close()
  open = []
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function fileDb(): { conn: SqliteDatabase; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-gc-'))
  dirs.push(dir)
  const file = path.join(dir, 'db.sqlite')
  const conn = openSqliteFile(file)
  conn.sqlite.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL CHECK (v >= 0))')
  open.push(conn)
  return { conn, file }
}

const INSERT = statement<never, [k: number, v: number]>('INSERT INTO t (k, v) VALUES (?, ?)')
const insertIn = (k: number, v: number) => async (tx: Tx) => (await tx.run(INSERT, k, v)).changes

describe('group commit', () => {
  it('actions commit together in one transaction; a refused one rejects alone, its writes undone', async () => {
    const { conn } = fileDb()
    const sizes: number[] = []
    const gc = new GroupCommit(conn, { onCommit: (n) => sizes.push(n) })
    const outcomes = await Promise.allSettled([
      gc.write(insertIn(1, 1)),
      gc.write(async (tx) => {
        await insertIn(2, 2)(tx)
        await insertIn(3, -1)(tx) // CHECK fails after the first insert of this action
      }),
      gc.write(insertIn(4, 4)),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(conn.sqlite.prepare('SELECT k FROM t ORDER BY k').pluck().all().map(Number)).toEqual([1, 4])
    expect(sizes).toEqual([3])
  })

  it('a batch whose beforeCommitIn throws keeps none of it and rejects every action', async () => {
    const { conn } = fileDb()
    const gc = new GroupCommit(conn, {
      beforeCommitIn: async (tx) => {
        await insertIn(9, 9)(tx)
        throw new Error('refused as a whole')
      },
    })
    const outcomes = await Promise.allSettled([gc.write(insertIn(1, 1)), gc.write(insertIn(2, 2))])
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'kept'))).toEqual(['refused as a whole', 'refused as a whole'])
    expect(conn.sqlite.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0n)
  })

  it('actions written in the same turn commit together, in one transaction', async () => {
    const { conn } = fileDb()
    const sizes: number[] = []
    const gc = new GroupCommit(conn, { onCommit: (n) => sizes.push(n) })
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => gc.write(insertIn(i + 1, i))))
    expect(results).toEqual(Array(50).fill(1))
    expect(sizes).toEqual([50])
  })

  it('an action is acknowledged only once its commit is visible to another connection', async () => {
    const { conn, file } = fileDb()
    const gc = new GroupCommit(conn)
    const reader = new Database(file, { readonly: true })
    try {
      const count = () => Number(reader.prepare('SELECT COUNT(*) FROM t').pluck().get())
      const seen: number[] = []
      await Promise.all(Array.from({ length: 10 }, (_, i) => gc.write(insertIn(i + 1, 1)).then(() => seen.push(count()))))
      expect(seen.every((n) => n === 10)).toBe(true)
    } finally {
      reader.close()
    }
  })

  it('no batch holds more than maxBatch actions', async () => {
    const { conn } = fileDb()
    const sizes: number[] = []
    const gc = new GroupCommit(conn, { maxBatch: 7, onCommit: (n) => sizes.push(n) })
    await Promise.all(Array.from({ length: 30 }, (_, i) => gc.write(insertIn(i + 1, 0))))
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30)
  })

  it('a failed commit rejects every action of the batch and keeps none of them', async () => {
    const { conn } = fileDb()
    const gc = new GroupCommit(conn)
    const blocker = new Database(conn.sqlite.name)
    blocker.pragma('busy_timeout = 0')
    conn.sqlite.pragma('busy_timeout = 0')
    blocker.exec('BEGIN IMMEDIATE') // holds the write lock: the batch cannot begin
    try {
      const outcomes = await Promise.allSettled([gc.write(insertIn(1, 1)), gc.write(insertIn(2, 2))])
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    } finally {
      blocker.exec('ROLLBACK')
      blocker.close()
    }
    expect(Number(conn.sqlite.prepare('SELECT COUNT(*) FROM t').pluck().get())).toBe(0)
  })

  it('close commits what is queued and refuses what comes after', async () => {
    const { conn } = fileDb()
    const gc = new GroupCommit(conn, { maxDelayMs: 50 })
    const p = gc.write(insertIn(1, 1))
    await gc.close()
    await expect(p).resolves.toBe(1)
    await expect(gc.write(insertIn(2, 2))).rejects.toThrow(/closed/)
  })

  it('without isolation an action runs with no savepoint: a refusal that wrote nothing leaves the batch, and a beforeCommitIn that throws abandons it', async () => {
    const { conn } = fileDb()
    let abandon = false
    const gc = new GroupCommit(conn, {
      isolate: false,
      beforeCommitIn: async () => {
        if (abandon) throw new Error('abandoned')
      },
    })
    const first = await Promise.allSettled([
      gc.write(insertIn(1, 1)),
      gc.write(async () => {
        throw new Error('refused before writing')
      }),
      gc.write(insertIn(2, 2)),
    ])
    expect(first.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    abandon = true
    const second = await Promise.allSettled([gc.write(insertIn(3, 3)), gc.write(insertIn(4, 4))])
    expect(second.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    expect(conn.sqlite.prepare('SELECT k FROM t ORDER BY k').pluck().all().map(Number)).toEqual([1, 2])
  })

  it('an action marked atomic runs without a savepoint; its failing statement changes nothing and the batch goes on', async () => {
    const { conn } = fileDb()
    const gc = new GroupCommit(conn)
    const outcomes = await Promise.allSettled([
      gc.write(insertIn(1, 1), { atomic: true }),
      gc.write(insertIn(2, -5), { atomic: true }), // the CHECK refuses the one statement
      gc.write(insertIn(3, 3), { atomic: true }),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(conn.sqlite.prepare('SELECT k FROM t ORDER BY k').pluck().all().map(Number)).toEqual([1, 3])
  })
})
