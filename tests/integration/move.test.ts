// Backups and the move up (issue 18). A backup of a running SQLite server taken under load restores
// to balanced books; restore refuses what is not a sound NADI database. On the PostgreSQL run, that
// backup is moved into an empty PostgreSQL database: every row the same, both audits clean, a server
// on PostgreSQL answers the same balances, and a database that is not empty is refused.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { ROOT_CODE, idemKey, startServer, useServers, type SignedIn, type TestServer } from './support/server.ts'
import type { Order } from '../../contract/trade.ts'
import { parseMoney } from '../../contract/money.ts'
import { audit, balance, custody, trade, transfer, type Asset } from '../../server/ledger/index.ts'
import { backupSqlite, RestoreRefused, restoreSqlite } from '../../server/db/backup.ts'
import { openDatabase, openSqliteFile } from '../../server/db/index.ts'
import { MoveRefused, moveToPostgres } from '../../server/db/move.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'

const start = useServers({ sqlite: true }, { audited: true })
const T = '/api/v1/trade'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-backup-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

let refs = 0
async function credit(s: TestServer, userId: number, asset: Asset, amount: string) {
  await transfer(s.ctx.sql, { ref: `test:move:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset, amount: parseMoney(amount)! })
}
let cid = 0
const place = (s: TestServer, who: SignedIn, side: 'buy' | 'sell', price: string, size: string) =>
  s.post<Order>(`${T}/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: `m${++cid}`, side, type: 'limit', price, size }, { token: who.token, idempotencyKey: idemKey() })

/** A SQLite server with trading going on; a backup taken while orders keep arriving. */
async function backupUnderLoad(file: string) {
  const s = await start()
  const traders = [await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE), await s.signIn(ROOT_CODE)]
  for (const t of traders) {
    await credit(s, t.userId, 'USDT', '100000')
    await credit(s, t.userId, 'NADI', '100000')
  }
  let stop = false
  let placed = 0
  const load = (async () => {
    for (let i = 0; !stop; i++) {
      const who = traders[i % traders.length]!
      const res = await place(s, who, i % 2 ? 'buy' : 'sell', i % 3 ? '0.5' : '0.49', '3')
      expect(res.body_.code).toBe(200)
      placed++
    }
  })()
  while (placed < 30) await new Promise((r) => setTimeout(r, 5))
  const taken = await backupSqlite(s.config.dbFile, file)
  const atBackup = placed
  while (placed < atBackup + 30) await new Promise((r) => setTimeout(r, 5))
  stop = true
  await load
  return { s, traders, taken }
}

it('a backup taken while orders arrive restores to balanced books, and restore refuses a damaged or foreign file', async () => {
  const file = path.join(dir, 'under-load.sqlite')
  const { taken } = await backupUnderLoad(file)
  expect(taken.version).toBeGreaterThan(20)
  const target = path.join(dir, 'restored', 'nadi.sqlite')
  const r = await restoreSqlite(file, target)
  expect(r.previous).toBeNull()
  const back = openSqliteFile(target)
  try {
    expect((await audit(back.sql)).violations).toEqual([])
    expect(Number(back.sqlite.prepare('SELECT COUNT(*) FROM trade_orders').pluck().get())).toBeGreaterThanOrEqual(30)
  } finally {
    await back.close()
  }
  // A second restore keeps what it replaces.
  expect((await restoreSqlite(file, target)).previous).toMatch(/before-restore-/)

  const garbage = path.join(dir, 'garbage.sqlite')
  fs.writeFileSync(garbage, 'not a database at all, just text long enough to look like a header……')
  await expect(restoreSqlite(garbage, target)).rejects.toThrow(RestoreRefused)
  const foreign = path.join(dir, 'foreign.sqlite')
  const f = openSqliteFile(foreign)
  f.sqlite.exec('CREATE TABLE t (x INTEGER)')
  await f.close()
  await expect(restoreSqlite(foreign, target)).rejects.toThrow(/not a NADI database/)
  await expect(backupSqlite(target, file)).rejects.toThrow(/exists already/)
})

it.runIf(testBackend() === 'postgres')('a SQLite data folder moves into an empty PostgreSQL database whole: same rows, both audits clean, same balances served', async () => {
  const file = path.join(dir, 'to-move.sqlite')
  const { traders } = await backupUnderLoad(file)
  const pg = freshDatabase({ empty: true })
  let p: TestServer | null = null
  try {
    const from = openDatabase(file)
    const to = openDatabase(pg.url)
    let report
    try {
      report = await moveToPostgres(from, to)
      // Not empty any more: a second move is refused before it writes.
      await expect(moveToPostgres(from, to)).rejects.toThrow(MoveRefused)
    } finally {
      await from.close()
      await to.close()
    }
    expect(report.auditSqlite).toBe(0)
    expect(report.auditPostgres).toBe(0)
    const rowsOf = (t: string) => report.tables.find((x) => x.table === t)!.rows
    expect(rowsOf('users')).toBeGreaterThanOrEqual(4)
    expect(rowsOf('ledger_postings')).toBeGreaterThan(6)
    expect(rowsOf('exchange_journal')).toBeGreaterThan(30)

    // A server on the moved database: the same balances as the SQLite copy holds, and it trades on.
    const copy = openSqliteFile(file)
    const expected = traders.map((t) => ({ usdt: balance(copy.sqlite, trade(t.userId), 'USDT'), nadi: balance(copy.sqlite, trade(t.userId), 'NADI') }))
    await copy.close()
    const served = (p = await startServer({ env: { NADI_DATABASE_URL: pg.url } }))
    const servedBalances = await Promise.all(traders.map(async (t) => ({ usdt: await balance(served.ctx.sql, trade(t.userId), 'USDT'), nadi: await balance(served.ctx.sql, trade(t.userId), 'NADI') })))
    expect(servedBalances).toEqual(expected)
    const again = await p.signIn(ROOT_CODE, traders[0]!.wallet)
    expect(again.userId).toBe(traders[0]!.userId)
    const res = await place(p, again, 'buy', '0.3', '10')
    expect(res.body_.code).toBe(200)
    expect((await audit(p.ctx.sql)).violations).toEqual([])
  } finally {
    await p?.close()
    pg.drop()
  }
})
