// Roles (issue 19, docs/processes.md) with real processes: on SQLite a role other than all is refused in
// one line; on PostgreSQL role processes share the database's writer lock with each other, while a
// server that writes alone and role processes refuse each other, naming the holder (operator commands
// beside them: roles.commands.test.ts); a jobs process
// whose election session ends stops leading at once and leads again; and while the engine runs inside
// the api process, a second api process is refused.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { PgSync } from '../../server/db/pg/sync.ts'
import { killChildren, killGroup, leadsJobs, runCli, startChild, startRefused } from './support/child.ts'

const dirs: string[] = []
const dbs: TestDatabase[] = []
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-roles-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})

const HEALTH = '/api/v1/common/health'
const READY = '/api/v1/trade/market'
/** The one line a refused start prints. */
const refusal = (out: string) => out.trim().split('\n')

describe.runIf(testBackend() === 'sqlite')('roles on SQLite', () => {
  it('a role other than all is refused at start in one line saying it needs PostgreSQL; a role not built is not offered', { timeout: 60_000 }, async () => {
    const jobs = await startRefused(tempDir(), {}, ['--role', 'jobs'])
    expect(jobs.code).toBe(1)
    expect(refusal(jobs.out)).toEqual(['NADI did not start: --role jobs needs PostgreSQL (NADI_DATABASE_URL): processes share the work only through it; on SQLite one process does everything (--role all)'])
    const api = await startRefused(tempDir(), { NADI_ROLE: 'api' })
    expect(refusal(api.out)).toEqual([expect.stringContaining('NADI did not start: --role api needs PostgreSQL')])
    const engine = await startRefused(tempDir(), {}, ['--role=engine'])
    expect(engine.code).toBe(1)
    expect(refusal(engine.out)).toEqual(['NADI did not start: NADI_ROLE (--role) must be all, api or jobs, got "engine"'])
  })
})

describe.runIf(testBackend() === 'postgres')('roles on PostgreSQL', () => {
  it('role processes share the database; a server writing alone, or a command that needs a process’s memory, is refused beside them and the other way round, naming the holder', { timeout: 120_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const env = { NADI_DATABASE_URL: db.url }
    // Two role processes, one data folder: neither writes a holder file nor takes operator commands.
    const dir = tempDir()
    const jobs = await startChild(dir, env, HEALTH, ['--role', 'jobs'])
    const api = await startChild(dir, env, READY, ['--role=api'])
    await expect.poll(() => leadsJobs(jobs)).toBe(true)
    expect((await fetch(`${api.base}${READY}`)).status).toBe(200)
    // The jobs process serves nothing but its health.
    expect((await fetch(`${jobs.base}${READY}`)).status).toBe(404)
    // The market's engine still runs inside the api process: a second one is refused, naming the first.
    const api2 = await startRefused(tempDir(), env, ['--role', 'api'])
    expect(api2.code).toBe(1)
    expect(refusal(api2.out)).toEqual([expect.stringContaining(`NADI did not start: the market NADI-USDT's engine already runs in server --role api pid ${api.proc.pid} on ${os.hostname()}`)])

    const alone = await startRefused(tempDir(), env)
    expect(alone.code).toBe(1)
    expect(alone.out).toContain(`the database ${db.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@')} is in use: server --role jobs pid ${jobs.proc.pid}`)
    expect(alone.out).toContain('Role processes (--role api|jobs) share it with each other and with operator commands that need only the database')
    const command = await runCli(tempDir(), ['market', 'repair'], env)
    expect(command.code).toBe(1)
    expect(command.err).toContain(`refused: market repair works on what a server keeps in memory`)
    expect(command.err).toContain(`server --role jobs pid ${jobs.proc.pid}`)
    // Both serve on, untouched.
    expect((await fetch(`${api.base}${READY}`)).status).toBe(200)
    expect((await fetch(`${jobs.base}${HEALTH}`)).status).toBe(200)

    // The jobs process's election session ended under it: it stops leading at once, and alone, leads again.
    const admin = new PgSync(db.url, { appName: 'nadi tests' })
    try {
      // In the select list, so that only the rows the WHERE kept are terminated.
      expect(admin.prepare('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?').all(`nadi jobs leader pid ${jobs.proc.pid} on ${os.hostname()}`)).toEqual([{ pg_terminate_backend: 1n }])
    } finally {
      admin.close()
    }
    await expect.poll(() => leadsJobs(jobs), { interval: 20 }).toBe(false)
    await expect.poll(() => leadsJobs(jobs), { timeout: 10_000 }).toBe(true)

    killGroup(jobs.proc)
    killGroup(api.proc)
    await Promise.all([jobs.exited, api.exited])
    const all = await startChild(tempDir(), env, READY)
    for (const args of [['--role', 'api'], ['--role', 'jobs']]) {
      const role = await startRefused(tempDir(), env, args)
      expect(role.code).toBe(1)
      expect(refusal(role.out)).toEqual([expect.stringContaining(`is in use: server pid ${all.proc.pid} on ${os.hostname()}`)])
      expect(role.out).toContain('It writes alone (--role all): role processes share the database only with each other')
    }
    expect((await fetch(`${all.base}${READY}`)).status).toBe(200)
    killGroup(all.proc)
    await all.exited
  })
})
