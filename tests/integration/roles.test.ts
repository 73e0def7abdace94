// Roles (issue 19, docs/processes.md) with real processes: on SQLite a role other than all is refused in
// one line; on PostgreSQL role processes share the database's writer lock with each other, while a
// server that writes alone and role processes refuse each other, naming the holder; beside them an
// operator command that needs only the database runs under a share of the lock, any other is refused
// in one line saying what to do; a jobs process whose election session ends stops leading at once and
// leads again; and while the engine runs inside the api process, a second api process is refused.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseMoney } from '../../contract/money.ts'
import { openDatabase } from '../../server/db/index.ts'
import { balance, custody, MINING, TREASURY, transfer } from '../../server/ledger/index.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { PgPool } from '../../server/db/query/pg.ts'
import { killChildren, killGroup, leadsJobs, runCli, startChild, startRefused } from './support/child.ts'
import { statement } from '../../server/db/query/types.ts'

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
  it('a role other than all is refused at start in one line saying it needs PostgreSQL; a role that does not exist is not offered', { timeout: 60_000 }, async () => {
    const jobs = await startRefused(tempDir(), {}, ['--role', 'jobs'])
    expect(jobs.code).toBe(1)
    expect(refusal(jobs.out)).toEqual(['NADI did not start: --role jobs needs PostgreSQL (NADI_DATABASE_URL): processes share the work only through it; on SQLite one process does everything (--role all)'])
    const api = await startRefused(tempDir(), { NADI_ROLE: 'api' })
    expect(refusal(api.out)).toEqual([expect.stringContaining('NADI did not start: --role api needs PostgreSQL')])
    const engine = await startRefused(tempDir(), {}, ['--role=engine'])
    expect(engine.code).toBe(1)
    expect(refusal(engine.out)).toEqual([expect.stringContaining('NADI did not start: --role engine needs PostgreSQL')])
    const unknown = await startRefused(tempDir(), {}, ['--role=matcher'])
    expect(unknown.code).toBe(1)
    expect(refusal(unknown.out)).toEqual(['NADI did not start: NADI_ROLE (--role) must be all, api, engine or jobs, got "matcher"'])
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
    // The api processes keep nothing of their own: a second one serves beside the first.
    const api2 = await startChild(tempDir(), env, READY, ['--role', 'api'])
    expect((await fetch(`${api2.base}${READY}`)).status).toBe(200)

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
    const admin = new PgPool(db.url, { appName: 'nadi tests', max: 1 })
    try {
      // In the select list, so that only the rows the WHERE kept are terminated.
      expect(await admin.all(statement<{ pg_terminate_backend: bigint }, [string]>('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?'), `nadi jobs leader pid ${jobs.proc.pid} on ${os.hostname()}`)).toEqual([{ pg_terminate_backend: 1n }])
    } finally {
      await admin.close()
    }
    await expect.poll(() => leadsJobs(jobs), { interval: 20 }).toBe(false)
    await expect.poll(() => leadsJobs(jobs), { timeout: 10_000 }).toBe(true)

    killGroup(jobs.proc)
    killGroup(api.proc)
    killGroup(api2.proc)
    await Promise.all([jobs.exited, api.exited, api2.exited])
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

  it('beside a --role jobs process a command that needs only the database runs and its effect is there, the audit clean; the market repair and a job pass are refused in one line saying what to do', { timeout: 60_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const env = { NADI_DATABASE_URL: db.url }
    const jobs = await startChild(tempDir(), env, HEALTH, ['--role', 'jobs'])
    await expect.poll(() => leadsJobs(jobs)).toBe(true)

    // The treasury holds NADI (as an operator's earlier supply would have put there).
    const side = openDatabase(db.url)
    try {
      await side.sql.transaction((tx) => transfer(tx, { ref: 'test:treasury', reason: 'treasury_fund', from: custody('bsc'), to: TREASURY, asset: 'NADI', amount: parseMoney('1000')! }))
    } finally {
      await side.close()
    }

    // Class (a): runs beside the jobs process, under a share of the writer lock.
    const fund = await runCli(tempDir(), ['fund', 'mining', 'NADI', '250'], env)
    expect(fund.err).toBe('')
    expect(fund.code).toBe(0)
    expect(fund.out).toContain('mining account: 250 NADI (+250); treasury: 750 NADI')
    const meme = await runCli(tempDir(), ['meme', 'supply', '40'], env)
    expect(meme.code).toBe(0)
    expect(meme.out).toContain('treasury: 40 MEME')
    const check = openDatabase(db.url)
    try {
      expect((await balance(check.sql, MINING, 'NADI')).available).toBe(parseMoney('250'))
      expect((await balance(check.sql, TREASURY, 'NADI')).available).toBe(parseMoney('750'))
      expect((await balance(check.sql, TREASURY, 'MEME')).available).toBe(parseMoney('40'))
      // The command let go of its share: only the jobs process holds the writer lock now.
      const holders = await check.sql.all(statement<{ name: string }>("SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objid = 7411000 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"))
      expect(holders.map((h) => h.name), JSON.stringify(holders)).toEqual([`nadi server --role jobs pid ${jobs.proc.pid} on ${os.hostname()}`])
    } finally {
      await check.close()
    }
    const audit = await runCli(tempDir(), ['audit'], env)
    expect(audit.code).toBe(0)

    // Class (b): refused in one line, naming the role process and what to do; nothing is written.
    const holder = `server --role jobs pid ${jobs.proc.pid} on ${os.hostname()}`
    const repair = await runCli(tempDir(), ['market', 'repair'], env)
    expect(repair.code).toBe(1)
    expect(repair.out).toBe('')
    expect(repair.err.trim().split('\n')).toEqual([
      `refused: market repair works on what a server keeps in memory (the market's engine and its book), which no other process can reach, and role processes share the database (${holder}): stop every role process (--role api|engine|jobs), then run it again: it takes the database alone for its run.`,
    ])
    const release = await runCli(tempDir(), ['release', 'run'], env)
    expect(release.code).toBe(1)
    expect(release.err.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^refused: release run is a background job's pass, which the jobs leader runs .*\\(${holder}\\).*wait for the leader's next pass`))])

    // The jobs process led throughout and still does.
    expect(await leadsJobs(jobs)).toBe(true)
    killGroup(jobs.proc)
    await jobs.exited
  })
})
