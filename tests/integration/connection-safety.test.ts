// On SQLite one better-sqlite3 connection carries both Kysely's transactions (auth, address, seed:
// BEGIN, then awaits between statements) and the Sql's money transactions. A money move that ran while
// a Kysely transaction is open would not begin a transaction of its own: it would join the other
// request's, and that request's rollback would silently undo money already answered as moved. So both
// kinds take Kysely's connection lock (server/db/query/sqlite.ts), and the synchronous primitives that
// SQLite's tooling still uses refuse a transaction that is not theirs. These tests open a Kysely
// transaction, move money through the real HTTP path while it waits, roll it back, and check the money
// stayed moved; and that the primitives refuse to join a transaction that is not ours, instead of
// corrupting. On PostgreSQL every transaction has a connection of its own; the first test holds there too.

import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { TransferRecord } from '../../contract/wallet.ts'
import { parseMoney } from '../../contract/money.ts'
import { durableTransaction, ForeignTransactionError, transaction } from '../../server/db/index.ts'
import type { SqlConnection } from '../../server/db/connection.ts'
import type { Tx } from '../../server/db/query/types.ts'
import { audit, balance, custody, findPosting, fund, trade, transfer } from '../../server/ledger/index.ts'
import { ROOT_CODE, useServers, type TestServer } from './support/server.ts'
import { testBackend } from '../support/pg.ts'

const start = useServers()
const units = (text: string) => parseMoney(text)!

/** Money arriving in a user's fund account as a deposit credits it: a posting from chain custody. */
async function credit(s: TestServer, userId: number, amount: string, ref: string) {
  await transfer(s.ctx.sql, { ref, reason: 'deposit', from: custody('bsc'), to: fund(userId), asset: 'USDT', amount: units(amount) })
}

/** The server's own SQLite connection (the tests of the primitives that are SQLite's alone). */
function sqliteOfServer(s: TestServer): SqlConnection {
  if (!s.sqlite) throw new Error('this test runs on SQLite')
  return s.sqlite
}

/**
 * Opens a Kysely transaction that writes a row, then waits `holdMs` with the transaction open (as the
 * login or the address service does between its statements) and fails, so it rolls back. Resolves
 * `open` once its row is written and it is waiting; `done` settles after the rollback.
 */
function openKyselyTransaction(s: TestServer, holdMs: number) {
  let markOpen!: () => void
  const open = new Promise<void>((resolve) => (markOpen = resolve))
  const done = s.ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('notices').values({ pinned: 0n, published_at: BigInt(s.clock.now()) }).execute()
    markOpen()
    await sleep(holdMs)
    throw new Error('rollback')
  })
  done.catch(() => undefined) // awaited below; never an unhandled rejection in between
  return { open, done }
}

describe('a money move while a Kysely transaction is open on the shared connection', () => {
  it('commits on its own: the other transaction’s rollback leaves the transfer, the balances and the ledger intact', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, '100', 'test:connection-safety:credit')
    const noticesBefore = await s.count('SELECT COUNT(*) FROM notices')

    // The transfer's body is a stream we feed by hand: Fastify asks for it only once the request is
    // authenticated (onRequest, a Kysely query), and after the body there is no await before the
    // handler's synchronous transaction. So the Kysely transaction opened in between is open exactly
    // when the money moves.
    let askedForBody!: () => void
    const bodyWanted = new Promise<void>((resolve) => (askedForBody = resolve))
    const body = new Readable({ read: () => askedForBody() })
    const pending = s.inject({
      method: 'POST',
      url: '/api/v1/wallet/transfer',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json', lang: 'EN' },
      payload: body,
    })
    await bodyWanted

    const other = openKyselyTransaction(s, 100)
    await other.open
    // BEGIN issued, the callback awaiting a timer: on SQLite on the shared connection, whose lock the
    // transfer then waits for; on PostgreSQL on one of the pool's, beside the transfer's own.
    if (s.sqlite) expect(s.sqlite.inTransaction).toBe(true)
    body.push(JSON.stringify({ asset: 'USDT', amount: '40', from: 'fund', to: 'trade' }))
    body.push(null)

    const res = await pending
    await expect(other.done).rejects.toThrow('rollback')
    if (s.sqlite) expect(s.sqlite.inTransaction).toBe(false)

    // The other request's work is gone, as a rollback should leave it…
    expect(await s.count('SELECT COUNT(*) FROM notices')).toBe(noticesBefore)
    // …and the transfer we answered 200 for is still there.
    expect(res.statusCode, res.body).toBe(200)
    const rec = (JSON.parse(res.body) as ApiEnvelope<TransferRecord>).data
    expect(rec).toMatchObject({ asset: 'USDT', amount: '40', from: 'fund', to: 'trade' })
    expect(await s.count('SELECT COUNT(*) FROM wallet_transfers WHERE id = ?', rec.id)).toBe(1)
    expect(await findPosting(s.ctx.sql, `transfer:${rec.id}`)).not.toBeNull()
    expect(await balance(s.ctx.sql, fund(me.userId), 'USDT')).toEqual({ available: units('60'), frozen: 0n })
    expect(await balance(s.ctx.sql, trade(me.userId), 'USDT')).toEqual({ available: units('40'), frozen: 0n })
    const shown = await s.get<{ assets: { asset: string; fund: { available: string }; trade: { available: string } }[] }>('/api/v1/wallet/balances', { token: me.token })
    expect(shown.body_.data.assets[0]).toMatchObject({ asset: 'USDT', fund: { available: '60' }, trade: { available: '40' } })

    const report = await audit(s.ctx.sql)
    expect(report.violations).toEqual([])
    expect(report.ok).toBe(true)
  })
})

describe('the synchronous primitives refuse a transaction that is not ours', () => {
  // Only SQLite has one connection for both kinds; on PostgreSQL Kysely's transactions run on the pool.
  it.runIf(testBackend() === 'sqlite')('transaction() and ledger.post throw ForeignTransactionError inside an open Kysely transaction, which stays usable and rolls back whole', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, '10', 'test:connection-safety:credit')
    const sqlite = sqliteOfServer(s)
    const noticesBefore = await s.count('SELECT COUNT(*) FROM notices')

    const other = openKyselyTransaction(s, 50)
    await other.open
    const inside = { ref: 'test:connection-safety:inside', reason: 'transfer', from: fund(me.userId), to: trade(me.userId), asset: 'USDT', amount: 1n } as const
    const move = () => transfer(sqlite, inside)
    expect(() => transaction(sqlite, move)).toThrow(ForeignTransactionError)
    expect(() => move()).toThrow(ForeignTransactionError)
    expect(() => durableTransaction(sqlite, () => 1)).toThrow(ForeignTransactionError)
    // The Sql's transaction waits for the Kysely one instead, then commits on its own.
    let movedYet = false
    const moved = transfer(s.ctx.sql, inside).then(() => (movedYet = true))
    await sleep(10)
    expect(movedYet).toBe(false)
    await expect(other.done).rejects.toThrow('rollback')
    await moved

    expect(await s.count('SELECT COUNT(*) FROM notices')).toBe(noticesBefore)
    expect(await findPosting(s.ctx.sql, 'test:connection-safety:inside')).not.toBeNull()
    expect((await balance(s.ctx.sql, trade(me.userId), 'USDT')).available).toBe(1n)
    expect((await audit(s.ctx.sql)).ok).toBe(true)
  })

  it('our own nesting still works: a posting inside a transaction is a savepoint that commits or rolls back with it', async () => {
    const s = await start()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, '10', 'test:connection-safety:credit')
    const leg = (tx: Tx, ref: string) => transfer(tx, { ref, reason: 'transfer', from: fund(me.userId), to: trade(me.userId), asset: 'USDT', amount: units('1') })

    await s.ctx.sql.transaction(async (tx) => {
      await leg(tx, 'test:nest:1')
      await tx.savepoint((inner) => leg(inner, 'test:nest:2'))
    })
    await expect(
      s.ctx.sql.transaction(async (tx) => {
        await leg(tx, 'test:nest:3')
        throw new Error('the action fails')
      }),
    ).rejects.toThrow('the action fails')
    expect(await findPosting(s.ctx.sql, 'test:nest:1')).not.toBeNull()
    expect(await findPosting(s.ctx.sql, 'test:nest:2')).not.toBeNull()
    expect(await findPosting(s.ctx.sql, 'test:nest:3')).toBeNull()
    expect((await balance(s.ctx.sql, trade(me.userId), 'USDT')).available).toBe(units('2'))
    expect((await audit(s.ctx.sql)).ok).toBe(true)
  })

  it.runIf(testBackend() === 'sqlite')('a durable commit syncs FULL once and restores the setting; nested in a non-durable transaction it is refused', async () => {
    const s = await start()
    const sqlite = sqliteOfServer(s)
    const level = () => Number(sqlite.pragma('synchronous', { simple: true }))
    const normal = level()
    expect(await s.ctx.sql.transaction(async () => level(), { durable: true })).toBe(2) // FULL
    expect(level()).toBe(normal)
    expect(() => transaction(sqlite, () => durableTransaction(sqlite, () => 1))).toThrow(/not durable/)
    expect(durableTransaction(sqlite, () => transaction(sqlite, () => level()))).toBe(2)
    expect(level()).toBe(normal)
  })
})
