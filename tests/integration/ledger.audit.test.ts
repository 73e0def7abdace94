// The operator's `audit` command on a real database file, run the way an operator runs it: a child
// process (`tsx server/cli.ts audit`) reading the configured database.

import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from '../../server/cli.ts'
import { openDatabase, openSqliteFile, transaction } from '../../server/db/index.ts'
import { migrate, migrateDatabase } from '../../server/db/migrate.ts'
import { statement } from '../../server/db/query/types.ts'
import { custody, DUST, FEES, fund, trade, transfer } from '../../server/ledger/index.ts'
import { auditNodeGrants } from '../../server/modules/node/service.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { serverArgs } from '../support/serverBundle.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

let dir: string
let dbFile: string
/** The database the operator's audit reads: the SQLite file, or on the PostgreSQL run a database of its own. */
let target: string
let pg: TestDatabase | null = null
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-audit-'))
  dbFile = path.join(dir, 'nadi.sqlite')
  pg = testBackend() === 'postgres' ? freshDatabase() : null
  target = pg?.url ?? dbFile
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  pg?.drop()
})

/** A database with two users, deposits on both chains and some movements, all through the ledger. */
async function seed(): Promise<void> {
  const d = openDatabase(target)
  try {
    if (!pg) await migrateDatabase(d) // PostgreSQL's is a copy of the migrated template
    await d.sql.transaction(async (tx) => {
      const user = statement<{ id: bigint }, [string, string]>('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0) RETURNING id')
      const a = (await tx.get(user, 'AAAA1111', 'a'))!.id
      const b = (await tx.get(user, 'BBBB2222', 'b'))!.id
      await transfer(tx, { ref: 'dep:bsc:0x01:0', reason: 'deposit', from: custody('bsc'), to: fund(a), asset: 'USDT', amount: 12_500_000_000n })
      await transfer(tx, { ref: 'dep:nadi:0x02:1', reason: 'deposit', from: custody('nadi'), to: fund(b), asset: 'NADI', amount: 300_000_000n })
      await transfer(tx, { ref: 'draw:1', reason: 'transfer', from: fund(a), to: trade(a), asset: 'USDT', amount: 2_500_000_000n })
      await transfer(tx, { ref: 'fee:1', reason: 'fee', from: fund(b), to: FEES, asset: 'NADI', amount: 1_000_000n })
    })
  } finally {
    await d.close()
  }
}

async function corrupt(sqlText: string): Promise<void> {
  const d = openDatabase(target)
  try {
    await d.sql.run(statement(sqlText))
  } finally {
    await d.close()
  }
}

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** `node --import tsx server/cli.ts …` (what `tsx server/cli.ts …` does) with only the database configured. */
function cli(...args: string[]): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NADI_ENV: 'test', NADI_DATA_DIR: dir, NADI_DB_FILE: dbFile, ...(pg ? { NADI_DATABASE_URL: pg.url } : {}) }
  return new Promise((resolve) => {
    execFile(process.execPath, [...serverArgs('cli'), ...args], { cwd: ROOT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
      resolve({ code, stdout, stderr })
    })
  })
}

// Each test spawns the CLI (a tsx start takes seconds on a busy machine), some twice: 90 s each.
describe('tsx server/cli.ts audit', { timeout: 90_000 }, () => {
  it('exits 0 on a balanced ledger and prints the per-asset totals', async () => {
    await seed()
    const r = await cli('audit')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`database: ${pg ? pg.url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@') : dbFile}`)
    expect(r.stdout).toContain('ledger: 6 accounts, 4 postings, 8 entries')
    expect(r.stdout).toMatch(/USDT {2}\(3 accounts\) {2}sum 0 {2}✓/)
    expect(r.stdout).toMatch(/custody:bsc +-125\n/)
    expect(r.stdout).toMatch(/NADI {2}\(3 accounts\) {2}sum 0 {2}✓/)
    expect(r.stdout).toMatch(/fees +0\.01\n/)
    expect(r.stdout).toContain('OK: no violations')
    expect(r.stdout).toContain('node grants: every fee share and dividend day paid + dust = pool, as the ledger moved it')
  })

  it('exits 1 and names the violations after a balance is changed with raw SQL', async () => {
    await seed()
    await corrupt("UPDATE ledger_accounts SET available = available + 100000000 WHERE kind = 'trade' AND asset = 'USDT'")
    const r = await cli('audit')
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/USDT {2}\(3 accounts\) {2}sum 1 {2}✗/)
    expect(r.stdout).toContain('2 violations:')
    expect(r.stdout).toContain('[asset-sum] USDT: all accounts sum to 1, not 0')
    expect(r.stdout).toMatch(/\[stored-vs-entries\] account \d+ \(user \d+ trade USDT\): available stored 26, entries sum to 25/)
  })

  it('exits 1 when funds are frozen that nothing holds', async () => {
    await seed()
    await corrupt("UPDATE ledger_accounts SET available = available - 5, frozen = frozen + 5 WHERE kind = 'fund' AND asset = 'NADI'")
    const r = await cli('audit')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('[frozen-vs-holders]')
  })

  it('exits 1 when a day of node dividends records a payout the ledger never moved', async () => {
    await seed()
    await corrupt("INSERT INTO node_dividend_days (day, asset, fees, pool, paid, dust) VALUES (20000, 'USDT', 100000000, 20000000, 19999999, 1)")
    const r = await cli('audit')
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('node grants: 3 problems')
    expect(r.stdout).toContain("[node dividend] 2024-10-04 USDT: the nodes' rows sum to 0, the day recorded 0.19999999 paid")
    expect(r.stdout).toContain('[node dividend] 2024-10-04 USDT: the ledger credited the holders 0, the day recorded 0.19999999 paid')
    expect(r.stdout).toContain('[node dividend] 2024-10-04 USDT: the ledger moved 0 to dust, the day recorded 0.00000001')
  })

  it('--json prints the report as JSON, amounts as strings of units', async () => {
    await seed()
    const r = await cli('audit', '--json')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout) as { ok: boolean; totals: { asset: string; sum: string; platform: Record<string, string> }[] }
    expect(report.ok).toBe(true)
    expect(report.totals.find((t) => t.asset === 'USDT')).toMatchObject({ sum: '0', platform: { 'custody:bsc': '-12500000000' } })
  })
})

describe('the node grants audit', { timeout: 90_000 }, () => {
  it('a year of dividends of 500 nodes beside 20,000 other postings: the audit names the one day the ledger paid short', async () => {
    const { sqlite, sql } = openSqliteFile(dbFile)
    try {
      migrate(sqlite)
      // The grants' rows name nodes; the audit reads amounts only, so no orders are made for them.
      sqlite.pragma('foreign_keys = OFF')
      const DAYS = 365
      const first = 20_000
      transaction(sqlite, () => {
        const holder = sqlite.prepare('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0)').run('AAAA1111', 'a').lastInsertRowid as bigint
        transfer(sqlite, { ref: 'fee:seed', reason: 'fee', from: custody('bsc'), to: FEES, asset: 'USDT', amount: 10n ** 12n })
        transfer(sqlite, { ref: 'dep:seed', reason: 'deposit', from: custody('bsc'), to: fund(holder), asset: 'USDT', amount: 1n })
        // The bulk of a ledger: money records of every other kind, written raw for speed.
        const account = (kind: string) => (sqlite.prepare("SELECT id FROM ledger_accounts WHERE kind = ? AND asset = 'USDT'").get(kind) as { id: bigint }).id
        const [fees, holderFund] = [account('fees'), account('fund')]
        const posting = sqlite.prepare("INSERT INTO ledger_postings (id, ref, reason, user_id, created_at) VALUES (?, ?, 'other', NULL, 0)")
        const entry = sqlite.prepare("INSERT INTO ledger_entries (id, posting_id, account_id, user_id, bucket, delta) VALUES (?, ?, ?, ?, 'available', ?)")
        for (let id = 1_000_000; id < 1_020_000; id++) {
          posting.run(id, `other:${id}`)
          entry.run(id * 1024, id, fees, null, -1)
          entry.run(id * 1024 + 1, id, holderFund, holder, 1)
        }
        const dayRow = sqlite.prepare("INSERT INTO node_dividend_days (day, asset, fees, pool, paid, dust) VALUES (?, 'USDT', 1000, 100, ?, 1)")
        const nodeRow = sqlite.prepare("INSERT INTO node_dividends (node_id, day, asset, amount) VALUES (?, ?, 'USDT', ?)")
        for (let day = first; day < first + DAYS; day++) {
          dayRow.run(day, 99)
          for (let node = 1; node <= 500; node++) nodeRow.run(node, day, node === 1 ? 99 : 0)
          // The last day the ledger credited one unit less than the day records.
          const paid = day === first + DAYS - 1 ? 98n : 99n
          transfer(sqlite, { ref: `node:dividend:${day}:USDT:${holder}`, reason: 'node_dividend', userId: holder, from: FEES, to: fund(holder), asset: 'USDT', amount: paid })
          transfer(sqlite, { ref: `node:dividend:${day}:USDT:dust`, reason: 'settlement_dust', from: FEES, to: DUST, asset: 'USDT', amount: 1n })
        }
      })
      // Summed once per day over the whole table, this audit took 4.2 s here (days² × nodes); it reads each table once now (~0.1 s). Timings belong in the bench, not here.
      const problems = await auditNodeGrants(sql)
      expect(problems).toEqual([{ grant: 'dividend', day: first + DAYS - 1, asset: 'USDT', message: 'the ledger credited the holders 0.00000098, the day recorded 0.00000099 paid' }])
    } finally {
      sqlite.close()
    }
  })
})

describe('the command line', { timeout: 90_000 }, () => {
  const io = () => {
    const out: string[] = []
    const err: string[] = []
    return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) } }
  }
  const env = () => ({ NADI_ENV: 'test', NADI_DATA_DIR: dir, NADI_DB_FILE: dbFile })

  it('audits an empty database (just migrated) as clean', async () => {
    fs.writeFileSync(dbFile, '')
    const o = io()
    expect(await main(['audit'], { env: env(), io: o.io })).toBe(0)
    expect(o.out.join('\n')).toContain('no balances yet')
  })

  it('refuses to audit a database that does not exist rather than creating one (exit 2)', async () => {
    const o = io()
    expect(await main(['audit'], { env: env(), io: o.io })).toBe(2)
    expect(o.err.join('\n')).toContain(`no database at ${dbFile}`)
    expect(fs.existsSync(dbFile)).toBe(false)
  })

  it('answers an unknown command or argument with the usage and exit 2', async () => {
    const o = io()
    expect(await main(['frobnicate', '7'], { env: env(), io: o.io })).toBe(2)
    expect(o.err.join('\n')).toMatch(/unknown command: frobnicate 7\n\nusage: tsx server\/cli\.ts <command>\n\ncommands:\n {2}audit \[--json\] /)
    await seed()
    expect(await main(['audit', '--fix'], { env: env(), io: o.io })).toBe(2)
    expect(await main([], { env: env(), io: o.io })).toBe(2)
    expect(await main(['help'], { env: env(), io: o.io })).toBe(0)
  })
})
