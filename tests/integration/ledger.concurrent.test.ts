// The ledger's guarantees on PostgreSQL hold under several connections at once, not because one
// process serializes them (issue 18): four processes post transfers among the same accounts, many of
// them more than the payer holds, and all four post the same shared refs. Afterwards every asset sums
// to zero, nobody is below zero, every shared ref applied exactly once, and every posting answered
// as applied is there.

import { spawn } from 'node:child_process'
import path from 'node:path'
import { expect, it } from 'vitest'
import { ROOT_CODE, useServers } from './support/server.ts'
import { parseMoney } from '../../contract/money.ts'
import { audit, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()
const ROOT = path.resolve(import.meta.dirname, '../..')

function load(url: string, seed: number, count: number, users: number[], shared: number): Promise<{ applied: number; insufficient: number; replayed: number; failed: string[] }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'tests/integration/support/ledgerLoad.ts', url, String(seed), String(count), users.join(','), String(shared)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (b: Buffer) => (out += b.toString()))
    p.stderr.on('data', (b: Buffer) => (err += b.toString()))
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load ${seed} exited ${code}: ${err}`))))
  })
}

it.runIf(testBackend() === 'postgres')('four connections posting at once: sums stay zero, nobody goes below zero, a shared ref applies once', async () => {
  const db = freshDatabase()
  try {
    const s = await start({ env: { NADI_DATABASE_URL: db.url } })
    const users: number[] = []
    for (let i = 0; i < 5; i++) users.push((await s.signIn(ROOT_CODE)).userId)
    for (const u of users) await transfer(s.ctx.sql, { ref: `seed:${u}`, reason: 'deposit', from: custody('bsc'), to: fund(u), asset: 'USDT', amount: parseMoney('1000')! })
    const postingsBefore = Number((await s.ctx.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM ledger_postings')))?.v)

    const SHARED = 20
    const results = await Promise.all([1, 2, 3, 4].map((seed) => load(db.url, seed, 400, users, SHARED)))
    for (const r of results) expect(r.failed).toEqual([])
    const applied = results.reduce((n, r) => n + r.applied, 0)
    const replayed = results.reduce((n, r) => n + r.replayed, 0)
    const insufficient = results.reduce((n, r) => n + r.insufficient, 0)
    // Contention was real: payers ran short, and the shared refs met each other.
    expect(insufficient).toBeGreaterThan(0)
    expect(replayed).toBe(SHARED * 3)

    expect(Number((await s.ctx.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM ledger_postings')))?.v) - postingsBefore).toBe(applied)
    expect(Number((await s.ctx.sql.get(statement<{ v: bigint }>("SELECT COUNT(*) AS v FROM ledger_postings WHERE ref LIKE 'load:shared:%'")))?.v)).toBe(SHARED)
    let total = 0n
    for (const u of users) total += (await balance(s.ctx.sql, fund(u), 'USDT')).available
    expect(total).toBe(parseMoney('5000')!)
    for (const u of users) expect((await balance(s.ctx.sql, fund(u), 'USDT')).available >= 0n).toBe(true)
    expect((await audit(s.ctx.sql)).violations).toEqual([])
    await s.close()
  } finally {
    db.drop()
  }
}, 120_000)
