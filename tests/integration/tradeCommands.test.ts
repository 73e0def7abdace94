// The trading commands between API processes and the engine leader (server/roles/tradeCommands.ts),
// in one process on a real PostgreSQL database: an order sent through the table is placed and
// answered; a command a dead leader took and never finished is applied once by its successor, and
// one it finished is never applied again; with no engine leading, trading answers "paused" at once,
// and a command nobody takes in time is abandoned (never applied later); a body no API wrote is refused;
// a look that read a command as taken just before its batch committed does not apply it again.

import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/index.ts'
import { statement, type Sql, type Tx } from '../../server/db/query/types.ts'
import { defaultSpec } from '../../server/exchange/engine/index.ts'
import { Exchange, TradeRejected } from '../../server/exchange/exchange.ts'
import { audit, custody, trade, transfer } from '../../server/ledger/index.ts'
import '../../server/ledger/holders.ts'
import { LocalBus } from '../../server/roles/bus.ts'
import { ENGINE_KEY } from '../../server/roles/leader.ts'
import { commandTopics, remoteTrading, serveTradeCommands, TradeOutcomeUnknown } from '../../server/roles/tradeCommands.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'

const quiet = { info() {}, warn() {}, error() {} }
const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** A database of the test's own, and its connection, both gone after the file. */
function freshConnection() {
  const db = freshDatabase()
  cleanups.push(() => db.drop())
  const conn = openDatabase(db.url)
  cleanups.push(() => conn.close())
  return { conn, url: db.url }
}

describe.runIf(testBackend() === 'postgres')('trading commands across processes', () => {
  it('are applied exactly once across a leader that died, answered, refused when malformed, and paused with no leader', { timeout: 60_000 }, async () => {
    const { conn, url } = freshConnection()
    const { sql } = conn
    const addUser = statement<never, [number, string, string, string]>('INSERT INTO users (id, wallet_address, code, name, created_at) VALUES (?, ?, ?, ?, 0)')
    for (const id of [1, 2]) {
      await sql.run(addUser, id, `0x${String(id).padStart(40, '0')}`, `U${id}CODE`, `user ${id}`)
      for (const asset of ['USDT', 'NADI'] as const) await transfer(sql, { ref: `fund:${id}:${asset}`, reason: 'deposit', from: custody('bsc'), to: trade(id), asset, amount: 1_000_000n * 100_000_000n })
    }
    const clock = () => Date.UTC(2026, 10, 27, 12)
    const bus = new LocalBus()
    const api = remoteTrading(conn.sql, bus, { instId: defaultSpec.instId, index: 0, now: clock, pendingMs: 600, pollMs: 20 })
    cleanups.push(() => api.close())

    // No engine leads: refused at once, nothing written.
    await expect(api.place(1, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'nobody' })).rejects.toMatchObject({ reason: 'halted' })
    expect((await sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM trade_commands')))?.v).toBe(0n)

    // An engine "leads" (its key held on a session of its own) but takes nothing: the command is abandoned, and stays so.
    const leader = new pg.Client({ connectionString: url, application_name: 'nadi engine test' })
    await leader.connect()
    cleanups.push(() => leader.end())
    await leader.query('SELECT pg_advisory_lock($1)', [ENGINE_KEY])
    await new Promise((r) => setTimeout(r, 600)) // the API's look-up of the leader is kept half a second
    await expect(api.place(1, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'late' })).rejects.toBeInstanceOf(TradeRejected)
    expect((await sql.get(statement<{ status: unknown }>("SELECT status FROM trade_commands WHERE body LIKE '%late%'")))?.status).toBe('abandoned')

    // A dead leader's leftovers: one command it finished (its order written, marked done), one it took and never finished.
    const ex1 = new Exchange({ conn, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: clock, log: quiet })
    await ex1.start()
    const insert = statement<{ id: bigint }, [string, number, string]>("INSERT INTO trade_commands (inst_id, user_id, kind, body, status, created_at) VALUES (?, ?, 'place', ?, 'taken', 0) RETURNING id")
    const finished = Number((await sql.get(insert, defaultSpec.instId, 1, JSON.stringify({ side: 'sell', type: 'limit', price: 1200, lots: 5000, clientOrderId: 'finished' })))!.id)
    ex1.alsoWrite(async (tx, [o]) => {
      await tx.run(statement<never, [string, number]>("UPDATE trade_commands SET status = 'done', result = ? WHERE id = ?"), JSON.stringify({ order_id: Number(o!.order!.id) }), o!.tag)
    })
    await ex1.place(1, { side: 'sell', type: 'limit', price: 1200, lots: 5000, clientOrderId: 'finished' }, finished)
    await ex1.close()
    const orphan = Number((await sql.get(insert, defaultSpec.instId, 2, JSON.stringify({ side: 'buy', type: 'limit', price: 1200, lots: 1000, clientOrderId: 'orphan' })))!.id)
    const junk = Number((await sql.get(statement<{ id: bigint }>("INSERT INTO trade_commands (inst_id, user_id, kind, body, created_at) VALUES (?, 1, 'place', '{\"side\":\"buy\",\"price\":-1}', 0) RETURNING id"), defaultSpec.instId))!.id)

    // The successor: rebuilds from the journal, applies the orphan once (it fills against the finished order), refuses the junk.
    const ex2 = new Exchange({ conn, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: clock, log: quiet })
    await ex2.start()
    const served = serveTradeCommands(ex2, bus, { log: quiet, now: clock, everyMs: 20 })
    cleanups.push(() => served.close())
    const status = async (id: number) => (await sql.get(statement<{ status: string; result: string }, [number]>('SELECT status, result FROM trade_commands WHERE id = ?'), id))!
    const until = async (pred: () => Promise<boolean>) => {
      for (let i = 0; i < 250 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 20))
      expect(await pred()).toBe(true)
    }
    await until(async () => (await status(orphan)).status === 'done' && (await status(junk)).status === 'done')
    expect(JSON.parse((await status(junk)).result)).toMatchObject({ rejected: 'bad_command' })
    const orders = await sql.all(statement<{ client_order_id: string; status: string }>("SELECT client_order_id, status FROM trade_orders ORDER BY id"))
    expect(orders).toEqual([
      { client_order_id: 'finished', status: 'partially_filled' },
      { client_order_id: 'orphan', status: 'filled' },
    ])
    expect((await sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM trade_fills')))?.v).toBe(1n)
    // The abandoned command was never taken.
    expect((await sql.get(statement<{ v: bigint }>("SELECT COUNT(*) AS v FROM trade_orders WHERE client_order_id = 'late'")))?.v).toBe(0n)

    // Through the table, answered: an order placed, a refusal with its detail, a cancel.
    const placed = await api.place(2, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'through' })
    expect(placed).toMatchObject({ client_order_id: 'through', status: 'pending' })
    // The same client id again answers the same order.
    expect(Number((await api.place(2, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'through' })).id)).toBe(Number(placed.id))
    const poor = api.place(2, { side: 'buy', type: 'limit', price: 9_000_000, lots: 9_000_000, clientOrderId: 'too-big' })
    await expect(poor).rejects.toMatchObject({ reason: 'insufficient_funds', detail: { asset: 'USDT' } })
    expect(await api.cancel(2, Number(placed.id))).toMatchObject({ status: 'cancelled' })
    await expect(api.cancel(1, Number(placed.id))).rejects.toMatchObject({ reason: 'unknown_order' })
    expect((await audit(conn.sql)).violations).toEqual([])

    // Taken by an engine that then goes quiet: the user hears that the outcome is not known yet (never
    // "paused", since it may still happen), and the command stays taken; the next engine applies it, once.
    await served.close()
    const slow = remoteTrading(conn.sql, bus, { instId: defaultSpec.instId, index: 0, now: clock, pendingMs: 5_000, takenMs: 400, pollMs: 20 })
    cleanups.push(() => slow.close())
    const asked = slow.place(2, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'unanswered' })
    const take = statement("UPDATE trade_commands SET status = 'taken' WHERE status = 'pending' AND body LIKE '%unanswered%'")
    for (let i = 0; i < 200 && (await sql.run(take)).changes === 0; i++) await new Promise((r) => setTimeout(r, 10))
    await expect(asked).rejects.toBeInstanceOf(TradeOutcomeUnknown)
    const unanswered = async () => (await sql.get(statement<{ status: string }>("SELECT status FROM trade_commands WHERE body LIKE '%unanswered%'")))?.status
    expect(await unanswered()).toBe('taken')
    const next = serveTradeCommands(ex2, bus, { log: quiet, now: clock, everyMs: 20 })
    cleanups.push(() => next.close())
    await until(async () => (await unanswered()) === 'done')
    expect((await sql.get(statement<{ v: bigint }>("SELECT COUNT(*) AS v FROM trade_orders WHERE client_order_id = 'unanswered'")))?.v).toBe(1n)
    expect((await audit(conn.sql)).violations).toEqual([])
  })

  it('a look that read a command as taken before its batch committed does not apply it again once it is done', { timeout: 60_000 }, async () => {
    const { conn } = freshConnection()
    const { sql } = conn
    await sql.run(statement("INSERT INTO users (id, wallet_address, code, name, created_at) VALUES (1, '0x0000000000000000000000000000000000000001', 'U1CODE', 'u', 0)"))
    await transfer(sql, { ref: 'fund:1:USDT', reason: 'deposit', from: custody('bsc'), to: trade(1), asset: 'USDT', amount: 1_000n * 100_000_000n })
    const clock = () => Date.UTC(2026, 10, 27, 12)
    const bus = new LocalBus()
    const id = Number((await sql.get(statement<{ id: bigint }, [string, string]>("INSERT INTO trade_commands (inst_id, user_id, kind, body, created_at) VALUES (?, 1, 'place', ?, 0) RETURNING id"), defaultSpec.instId, JSON.stringify({ side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'raced' })))!.id)

    // The batch marking the command done waits until a second look has read it as taken; that look's
    // answer is held until the batch committed and its command left the leader's in-flight set.
    let secondRead!: () => void
    const read = new Promise<void>((r) => (secondRead = r))
    let markStarted!: () => void
    const marking = new Promise<void>((r) => (markStarted = r))
    let takenReads = 0
    let marks = 0
    const status = async () => (await sql.get(statement<{ status: string }, [number]>('SELECT status FROM trade_commands WHERE id = ?'), id))!.status
    const hold = (tx: Tx): Tx =>
      new Proxy(tx, {
        get(target, key) {
          const v: unknown = Reflect.get(target, key, target)
          if (typeof v !== 'function') return v
          const f = v as (...a: unknown[]) => Promise<unknown>
          if (key === 'all') {
            return async (st: { text: string }, ...a: unknown[]) => {
              const rows = await f.call(target, st, ...a)
              if (!st.text.includes("status = 'taken' ORDER BY id") || ++takenReads !== 2) return rows
              secondRead()
              while ((await status()) !== 'done') await new Promise((r) => setTimeout(r, 10))
              await new Promise((r) => setTimeout(r, 50))
              return rows
            }
          }
          if (key === 'run') {
            return async (st: { text: string }, ...a: unknown[]) => {
              if (st.text.includes("SET status = 'done', result = v.column2")) {
                marks++
                if (marks === 1) {
                  markStarted()
                  await read
                }
              }
              return f.call(target, st, ...a)
            }
          }
          return f.bind(target)
        },
      })
    const held: Sql = new Proxy(sql, {
      get(target, key) {
        const v: unknown = Reflect.get(target, key, target)
        if (key === 'transaction') return (fn: (tx: Tx) => Promise<unknown>, o?: object) => target.transaction((tx) => fn(hold(tx)), o)
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
    const errors: unknown[] = []
    const log = { info() {}, warn() {}, error: (o: unknown) => void errors.push(o) }
    const ex = new Exchange({ conn: { db: conn.db, sql: held }, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: clock, log })
    await ex.start()
    const served = serveTradeCommands(ex, bus, { log, now: clock, everyMs: 60_000 })
    cleanups.push(() => served.close())
    // The wake-up comes from outside the batch's transaction, as another API process's would.
    await marking
    bus.publish(commandTopics(defaultSpec.instId).sent, { id })
    for (let i = 0; i < 500 && (await status()) !== 'done'; i++) await new Promise((r) => setTimeout(r, 10))
    expect(await status()).toBe('done')
    expect(takenReads).toBeGreaterThanOrEqual(2)
    await new Promise((r) => setTimeout(r, 200))
    // Marked done once, by one batch; nothing failed, and the order is there once.
    expect(marks).toBe(1)
    expect(errors).toEqual([])
    expect((await sql.get(statement<{ v: bigint }>("SELECT COUNT(*) AS v FROM trade_orders WHERE client_order_id = 'raced'")))?.v).toBe(1n)
    await served.close()
    await ex.close()
  })
})
