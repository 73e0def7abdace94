// The database's operator commands through the CLI (issue 18): migrate applies what is pending once;
// backup copies SQLite beside the server and restore puts a copy back, refusing a damaged one; on
// PostgreSQL, backup and restore point to pg_dump, and move-to fills an empty database and refuses a
// database that is not.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { main } from '../../server/cli.ts'
import { openSqliteFile } from '../../server/db/index.ts'
import { migrate, migrationFiles } from '../../server/db/migrate.ts'
import { custody, fund, transfer } from '../../server/ledger/index.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

let dir: string
const dbs: TestDatabase[] = []
beforeEach(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-dbcli-'))))
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  for (const d of dbs.splice(0)) d.drop()
})

async function cli(args: string[], env: Record<string, string> = {}) {
  let out = ''
  let err = ''
  const code = await main(args, { env: { NADI_ENV: 'test', NADI_DATA_DIR: dir, ...env }, io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  return { code, out, err }
}

/** A SQLite data folder with a user and money on the books. */
async function folder(): Promise<string> {
  const file = path.join(dir, 'nadi.sqlite')
  const d = openSqliteFile(file)
  migrate(d.sqlite)
  const id = d.sqlite.prepare("INSERT INTO users (code, name, created_at) VALUES ('CLI00001', 'c', 0)").run().lastInsertRowid
  transfer(d.sqlite, { ref: 'cli:dep', reason: 'deposit', from: custody('bsc'), to: fund(BigInt(id)), asset: 'USDT', amount: 5_00000000n })
  await d.close()
  return file
}

it('migrate applies every pending migration once, then has nothing to apply', async () => {
  const env: Record<string, string> = {}
  if (testBackend() === 'postgres') {
    const pg = freshDatabase({ empty: true })
    dbs.push(pg)
    env.NADI_DATABASE_URL = pg.url
  } else fs.writeFileSync(path.join(dir, 'nadi.sqlite'), '')
  const first = await cli(['migrate'], env)
  expect(first).toMatchObject({ code: 0 })
  expect(first.out.trim().split('\n')).toHaveLength(migrationFiles().length)
  expect((await cli(['migrate'], env)).out).toContain('up to date')
})

it('backup copies the SQLite books; restore puts them back and refuses a damaged copy', async () => {
  await folder()
  const copy = path.join(dir, 'copies', 'nadi-copy.sqlite')
  const b = await cli(['backup', copy])
  expect(b).toMatchObject({ code: 0 })
  expect(b.out).toContain('schema version')
  expect((await cli(['backup', copy])).code).toBe(1)
  const r = await cli(['restore', copy])
  expect(r).toMatchObject({ code: 0 })
  expect(r.out).toContain('before-restore-')
  expect((await cli(['audit'])).code).toBe(0)
  const bad = path.join(dir, 'bad.sqlite')
  fs.writeFileSync(bad, Buffer.alloc(8192, 7))
  const refused = await cli(['restore', bad])
  expect(refused.code).toBe(1)
  expect(refused.err).toContain('refused')
})

it.runIf(testBackend() === 'postgres')('on PostgreSQL backup names pg_dump; move-to fills an empty database and refuses one that is not', async () => {
  await folder()
  const pg = freshDatabase({ empty: true })
  dbs.push(pg)
  expect((await cli(['backup', path.join(dir, 'x.sqlite')], { NADI_DATABASE_URL: pg.url })).err).toContain('pg_dump')
  const moved = await cli(['move-to', pg.url])
  expect(moved.err).toBe('')
  expect(moved).toMatchObject({ code: 0 })
  expect(moved.out).toContain('the audit is clean on both sides')
  const again = await cli(['move-to', pg.url])
  expect(again.code).toBe(1)
  expect(again.err).toContain('not empty')
  const audit = await cli(['audit'], { NADI_DATABASE_URL: pg.url })
  expect(audit.err).toBe('')
  expect(audit.out).toContain('OK: no violations')
})
