// A lost PostgreSQL connection (issue 34 §5): the server restarted, an operator ended the session.
// The request it carried fails with the localized "try again" and changes nothing; the connection is
// replaced at the next statement, and the same request sent again (its key) is applied once.
import pg from 'pg'
import { expect, it } from 'vitest'
import '../../server/ledger/holders.ts'
import { PgPool } from '../../server/db/query/pg.ts'
import { statement } from '../../server/db/query/types.ts'
import { PgConnectionLost } from '../../server/db/pg/wire.ts'
import { audit, balance, custody, fund, trade, transfer } from '../../server/ledger/index.ts'
import { idemKey, localeText, ROOT_CODE, useServers } from './support/server.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import { until } from './support/child.ts'

const start = useServers()

/**
 * Sends `request` while another session holds the user's trade account for update, so the request's
 * transaction waits on that row with its pool connection; ends that connection (as a restart or an
 * operator would), then lets go of the row. Answers what the request answered.
 */
async function cutWhileWaiting<T>(url: string, userId: number, asset: 'USDT' | 'NADI', request: () => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url, application_name: 'nadi tests admin' })
  await admin.connect()
  try {
    await admin.query('BEGIN')
    await admin.query("SELECT id FROM ledger_accounts WHERE user_id = $1 AND kind = 'trade' AND asset = $2 FOR UPDATE", [userId, asset])
    const answer = request()
    const waiting = await until(
      async () => (await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).rows[0]?.pid as number | undefined,
      'the request waiting for the row',
    )
    expect((await admin.query('SELECT pg_terminate_backend($1) AS done', [waiting])).rows[0].done).toBe(true)
    const got = await answer
    await admin.query('ROLLBACK')
    return got
  } finally {
    await admin.end()
  }
}

it.runIf(testBackend() === 'postgres')('a request whose connection was ended answers 503 "try again" in the user’s language; the next one reconnects, and the retry is applied once', async () => {
  const s = await start()
  const me = await s.signIn(ROOT_CODE)
  await transfer(s.ctx.sql, { ref: `lost:${me.userId}`, reason: 'deposit', from: custody('bsc'), to: trade(me.userId), asset: 'USDT', amount: 10n * 100_000_000n })
  const key = idemKey()
  const body = { asset: 'USDT', amount: '1', from: 'trade', to: 'fund' }
  const cut = await cutWhileWaiting(s.ctx.config.databaseUrl!, me.userId, 'USDT', () => s.post('/api/v1/wallet/transfer', body, { token: me.token, idempotencyKey: key, lang: 'TW' }))
  expect(cut.statusCode).toBe(503)
  expect(cut.body_.msg).toBe(localeText('tw', 'errors.databaseUnavailable'))
  expect((await balance(s.ctx.sql, trade(me.userId), 'USDT')).available).toBe(10n * 100_000_000n)

  // A new connection took the ended one's place, and the retry is applied once.
  const again = await s.post('/api/v1/wallet/transfer', body, { token: me.token, idempotencyKey: key })
  expect(again.statusCode, again.body).toBe(200)
  const replay = await s.post('/api/v1/wallet/transfer', body, { token: me.token, idempotencyKey: key })
  expect(replay.body_.data).toEqual(again.body_.data)
  expect((await balance(s.ctx.sql, fund(me.userId), 'USDT')).available).toBe(100_000_000n)
  expect((await audit(s.ctx.sql)).violations).toEqual([])
})

it.runIf(testBackend() === 'postgres')('the market on a server whose connection was ended: the order it carried is refused, nothing is kept of it, and the market goes on trading', async () => {
  const s = await start()
  const me = await s.signIn(ROOT_CODE)
  for (const asset of ['USDT', 'NADI'] as const) await transfer(s.ctx.sql, { ref: `lostm:${me.userId}:${asset}`, reason: 'deposit', from: custody(asset === 'USDT' ? 'bsc' : 'nadi'), to: trade(me.userId), asset, amount: 1_000n * 100_000_000n })
  const order = (cid: string) => s.post<{ id: number; status: string }>('/api/v1/trade/placeOrder', { inst_id: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.2', size: '10', client_order_id: cid }, { token: me.token, idempotencyKey: idemKey() })
  const cut = await cutWhileWaiting(s.ctx.config.databaseUrl!, me.userId, 'USDT', () => order('cut'))
  expect(cut.statusCode, cut.body).toBe(503)
  expect(await s.count("SELECT COUNT(*) FROM trade_orders WHERE client_order_id = 'cut'")).toBe(0)
  const next = await order('next')
  expect(next.statusCode, next.body).toBe(200)
  expect(next.body_.data.status).toBe('pending')
  expect((await s.get<{ state: string }>('/api/v1/trade/status?inst_id=NADI-USDT')).body_.data.state).toBe('live')
  expect((await balance(s.ctx.sql, trade(me.userId), 'USDT')).frozen).toBe(2n * 100_000_000n)
  expect((await audit(s.ctx.sql)).violations).toEqual([])
})

it.runIf(testBackend() === 'postgres')('lost inside a transaction: no statement after it runs outside the transaction, even one a caller tries after catching; the next transaction runs on a new session', async () => {
  const db = freshDatabase({ empty: true })
  const sql = new PgPool(db.url, { appName: 'nadi tests' })
  const admin = new pg.Client({ connectionString: db.url, application_name: 'nadi tests admin' })
  await admin.connect()
  const insert = statement<never, [number]>('INSERT INTO t (n) VALUES (?)')
  const backend = statement<{ pid: bigint }>('SELECT pg_backend_pid() AS pid')
  try {
    await sql.run(statement('CREATE TABLE t (n INTEGER)'))
    let pid = 0n
    const attempts: string[] = []
    await expect(
      sql.transaction(async (tx) => {
        pid = (await tx.get(backend))!.pid
        await tx.run(insert, 1)
        // With a timeout it returns once the session is gone, so the next statement cannot slip in first.
        await admin.query('SELECT pg_terminate_backend($1, 5000)', [Number(pid)])
        for (const n of [2, 3]) {
          try {
            await tx.run(insert, n)
          } catch (e) {
            attempts.push((e as Error).name)
          }
        }
      }),
    ).rejects.toThrow(PgConnectionLost)
    expect(attempts).toEqual(['PgConnectionLost', 'PgConnectionLost'])
    // Nothing of it was kept; the next transaction runs on a new session.
    expect((await admin.query('SELECT COUNT(*)::int AS n FROM t')).rows[0].n).toBe(0)
    const next = await sql.transaction(async (tx) => {
      await tx.run(insert, 4)
      return (await tx.get(backend))!.pid
    })
    expect(next).not.toBe(pid)
    expect((await admin.query('SELECT n FROM t')).rows.map((r: { n: number }) => r.n)).toEqual([4])
  } finally {
    await sql.close()
    await admin.end()
    db.drop()
  }
})
