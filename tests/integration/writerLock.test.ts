// One writer per data folder (issue 9 part 1), with real processes: a second server on a folder in use
// refuses to start naming the folder and the holder while the first keeps serving; read-only operator
// commands run beside it; writing ones run inside it over its operator socket, or are refused when
// the holder takes none; after kill -9 of the holder's process group the next start gets the lock at once.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { lockDatabase, lockDataFolder } from '../../server/db/writerLock.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { openSqliteFile } from '../../server/db/index.ts'
import { migrate } from '../../server/db/migrate.ts'
import { killChildren, killGroup, runCli, startChild, startRefused, until } from './support/child.ts'

const dirs: string[] = []
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-lock-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

const READY = '/api/v1/trade/market'

// SQLite's data folder lock: the same in either project, so run once (by the SQLite one).
describe.runIf(testBackend() === 'sqlite')('one writer per SQLite data folder', () => {
  it('a second server on a data folder in use refuses to start, naming the folder and the holder; the first serves on', { timeout: 90_000 }, async () => {
    const dir = tempDir()
    const first = await startChild(dir, {}, READY)
    const second = await startRefused(dir)
    expect(second.code).toBe(1)
    expect(second.out).toContain(`the data folder ${dir} is in use`)
    expect(second.out).toContain(`server pid ${first.proc.pid}`)
    // Untouched: it still answers, and still holds the folder.
    expect((await fetch(`${first.base}${READY}`)).status).toBe(200)
    expect(first.proc.exitCode).toBeNull()

    // Read-only commands run beside it; a writing one is sent to it and runs inside it.
    const audit = await runCli(dir, ['audit'])
    expect(audit.code).toBe(0)
    expect(audit.out).toContain('OK: no violations')
    const repair = await runCli(dir, ['market', 'repair'])
    expect(repair).toMatchObject({ code: 0 })
    expect(repair.err).toContain(`run inside server pid ${first.proc.pid}`)
    expect(repair.out).toContain('live and consistent: nothing to repair')

    // kill -9 of its whole process group: the lock dies with it, and the next start takes it at once.
    killGroup(first.proc)
    await first.exited
    const t0 = Date.now()
    const third = await startChild(dir, {}, READY)
    expect(Date.now() - t0).toBeLessThan(20_000)
    expect((await fetch(`${third.base}${READY}`)).status).toBe(200)
    killGroup(third.proc)
    await third.exited
  })

  // Three CLI starts, each a tsx start of seconds on a busy machine (the browser suite runs beside this one).
  it('a writing command on a folder held by a process that takes no operator commands is refused and writes nothing', { timeout: 90_000 }, async () => {
    const dir = tempDir()
    const dbFile = path.join(dir, 'nadi.sqlite')
    const db = openSqliteFile(dbFile)
    migrate(db.sqlite)
    db.sqlite.close()
    const lock = lockDataFolder(dbFile, 'test holder')
    try {
      const r = await runCli(dir, ['withdraw', 'reject', '1'])
      expect(r.code).toBe(1)
      expect(r.err).toContain(`refused: the data folder ${dir} is in use: test holder pid ${process.pid}`)
      // Read-only commands still run.
      expect((await runCli(dir, ['withdraw', 'list'])).code).toBe(0)
    } finally {
      await lock.release()
    }
    // Released: the same command now takes the lock itself (and finds no such withdrawal).
    const r = await runCli(dir, ['withdraw', 'reject', '1'])
    expect(r.err).not.toContain('in use')
  })

  it('in one process, a second writer on the same folder is refused too', async () => {
    const dir = tempDir()
    const dbFile = path.join(dir, 'nadi.sqlite')
    const a = lockDataFolder(dbFile, 'first')
    expect(() => lockDataFolder(dbFile, 'second')).toThrow(/is in use: first pid/)
    await a.release()
    await lockDataFolder(dbFile, 'third').release()
  })
})

// The same on PostgreSQL: the writer's advisory lock is per database, whatever data folder each
// process has — a second server on the same database is refused even from another folder.
describe.runIf(testBackend() === 'postgres')('one writer per PostgreSQL database', () => {
  const dbs: TestDatabase[] = []
  afterAll(() => {
    killChildren()
    for (const d of dbs) d.drop()
  })

  it('a second server on the database refuses to start, naming the holder; writing commands run inside the first; kill -9 frees it', { timeout: 120_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const env = { NADI_DATABASE_URL: db.url }
    const dir = tempDir()
    const first = await startChild(dir, env, READY)
    const second = await startRefused(tempDir(), env)
    expect(second.code).toBe(1)
    expect(second.out).toContain('is in use')
    expect(second.out).toContain(`server pid ${first.proc.pid}`)
    expect((await fetch(`${first.base}${READY}`)).status).toBe(200)

    const audit = await runCli(dir, ['audit'], env)
    expect(audit.code).toBe(0)
    expect(audit.out).toContain('OK: no violations')
    const repair = await runCli(dir, ['market', 'repair'], env)
    expect(repair).toMatchObject({ code: 0 })
    expect(repair.err).toContain(`run inside server pid ${first.proc.pid}`)

    killGroup(first.proc)
    await first.exited
    const third = await startChild(tempDir(), env, READY)
    expect((await fetch(`${third.base}${READY}`)).status).toBe(200)
    killGroup(third.proc)
    await third.exited
  })

  it('in one process, a second writer on the same database is refused, and takes it once released', async () => {
    const db = freshDatabase()
    dbs.push(db)
    const target = { database: db.url, lockFile: path.join(tempDir(), 'postgres-test') }
    const a = await lockDatabase(target, 'first')
    await expect(lockDatabase({ ...target, lockFile: path.join(tempDir(), 'elsewhere') }, 'second')).rejects.toThrow(/is in use: first pid/)
    await a.release()
    await (await lockDatabase(target, 'third')).release()
  })

  it('a lock whose session the server ended crashes nothing and is never replaced behind its back; its release still settles', async () => {
    const db = freshDatabase()
    dbs.push(db)
    const target = { database: db.url, lockFile: path.join(tempDir(), 'postgres-test') }
    const lock = await lockDatabase(target, 'ended')
    const admin = new pg.Client({ connectionString: db.url, application_name: 'nadi tests admin' })
    await admin.connect()
    try {
      const ended = await admin.query("SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name LIKE 'nadi ended pid %'")
      expect(ended.rows).toEqual([{ done: true }])
      // The session is gone with its lock: another writer takes it, and no new session of the first holds it.
      await until(async () => (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'nadi ended pid %'")).rows[0].n === 0 || undefined, 'the ended session gone')
      const next = await lockDatabase(target, 'next')
      await lock.release()
      await next.release()
    } finally {
      await admin.end()
    }
  })

  it('a lock released is free at once: a restart right after a close is never refused', async () => {
    const db = freshDatabase()
    dbs.push(db)
    const target = { database: db.url, lockFile: path.join(tempDir(), 'postgres-test') }
    // The server drops a closed session's locks a moment after the close returns; without the
    // explicit unlock before it, a take right after could be refused on a loaded machine (a CI run's
    // withdraw crash-and-restart test was). A quiet machine rarely loses that race, so it runs many times.
    for (let i = 0; i < 200; i++) await (await lockDatabase(target, `restart ${i}`)).release()
  })
})
