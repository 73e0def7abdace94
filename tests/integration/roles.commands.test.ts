// Operator commands beside role processes (issue 19, docs/processes.md "Operator commands"), with real
// processes on PostgreSQL: a command that needs only the database takes a share of the writer lock and
// runs beside a --role jobs process — its money moved, the audit clean, the jobs leader untouched —
// while one that needs a process's memory (the market's engine) or a job's pass is refused in one line
// naming the role process and what to do.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseMoney } from '../../contract/money.ts'
import { openDatabase, transaction } from '../../server/db/index.ts'
import { balance, custody, MINING, TREASURY, transfer } from '../../server/ledger/index.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { killChildren, killGroup, leadsJobs, runCli, startChild } from './support/child.ts'

const dirs: string[] = []
const dbs: TestDatabase[] = []
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-roles-cli-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  killChildren()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})

describe.runIf(testBackend() === 'postgres')('operator commands beside role processes', () => {
  it('beside a --role jobs process a command that needs only the database runs and its effect is there, the audit clean; the market repair and a job pass are refused in one line saying what to do', { timeout: 60_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const env = { NADI_DATABASE_URL: db.url }
    const jobs = await startChild(tempDir(), env, '/api/v1/common/health', ['--role', 'jobs'])
    await expect.poll(() => leadsJobs(jobs)).toBe(true)

    // The treasury holds NADI (as an operator's earlier supply would have put there).
    const side = openDatabase(db.url)
    try {
      transaction(side.sqlite, () => transfer(side.sqlite, { ref: 'test:treasury', reason: 'treasury_fund', from: custody('bsc'), to: TREASURY, asset: 'NADI', amount: parseMoney('1000')! }))
    } finally {
      side.sqlite.close()
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
      expect(balance(check.sqlite, MINING, 'NADI').available).toBe(parseMoney('250'))
      expect(balance(check.sqlite, TREASURY, 'NADI').available).toBe(parseMoney('750'))
      expect(balance(check.sqlite, TREASURY, 'MEME').available).toBe(parseMoney('40'))
      // The command let go of its share: only the jobs process holds the writer lock now.
      const holders = check.sqlite.prepare("SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objid = 7411000 AND l.granted").all() as { name: string }[]
      expect(holders.map((h) => h.name)).toEqual([`nadi server --role jobs pid ${jobs.proc.pid} on ${os.hostname()}`])
    } finally {
      check.sqlite.close()
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
