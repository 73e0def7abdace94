// The market's writer batches its round trips (issue 34 §3): a batch of commands costs a fixed number
// of statements, whatever the number of commands in it, and writes exactly what the same commands
// write one batch each — orders, fills, deals, journal, balances, activity scores, and each
// command's answer or refusal. On both backends.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Connection } from '../../server/db/index.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
import { Exchange, TradeRejected, type PlaceInput } from '../../server/exchange/exchange.ts'
import { defaultSpec, frozenForPlace } from '../../server/exchange/engine/index.ts'
import { audit, balance, custody, trade, transfer } from '../../server/ledger/index.ts'
import '../../server/ledger/holders.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { rng } from './support/rng.ts'
import { statement, type Sql, type Tx } from '../../server/db/query/types.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-batch-'))
const databases: TestDatabase[] = []
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  for (const d of databases) d.drop()
})

let n = 0
function database(): ReturnType<typeof openDatabase> {
  if (testBackend() === 'sqlite') return openDatabase(path.join(dir, `nadi-${++n}.sqlite`))
  const d = freshDatabase()
  databases.push(d)
  return openDatabase(d.url)
}

/** The database's Sql, with every statement it runs counted, inside its transactions and savepoints too. */
function counting(real: Sql): { sql: Sql; count: () => number } {
  let count = 0
  const statements = new Set<PropertyKey>(['all', 'get', 'run', 'rows', 'row', 'exec'])
  const nests = new Set<PropertyKey>(['transaction', 'savepoint'])
  const wrap = <T extends object>(q: T): T =>
    new Proxy(q, {
      get(target, key) {
        const v: unknown = Reflect.get(target, key, target)
        if (typeof v !== 'function') return v
        const f = v as (...a: unknown[]) => unknown
        if (statements.has(key)) return (...a: unknown[]) => (count++, f.apply(target, a))
        if (nests.has(key)) return (fn: (tx: Tx) => Promise<unknown>, ...rest: unknown[]) => f.call(target, (tx: Tx) => fn(wrap(tx)), ...rest)
        return f.bind(target)
      },
    })
  return { sql: wrap(real), count: () => count }
}

const UNITS = 100_000_000n
const CLOCK = Date.UTC(2026, 11, 2, 12)

/** A migrated database with users 1..users, each holding `usdt` and `nadi` in their trade account, and an activity measuring trading. */
async function market(users: number, usdt: bigint, nadi: bigint) {
  const db = database()
  if (testBackend() === 'sqlite') await migrateDatabase(db) // PostgreSQL's is a copy of the migrated template
  const add = statement<never, [number, string, string, string]>('INSERT INTO users (id, wallet_address, code, name, created_at) VALUES (?, ?, ?, ?, 0)')
  for (let u = 1; u <= users; u++) {
    await db.sql.run(add, u, `0x${String(u).padStart(40, '0')}`, `U${u}CODE`, `user ${u}`)
    await transfer(db.sql, { ref: `fund:${u}:USDT`, reason: 'deposit', from: custody('bsc'), to: trade(u), asset: 'USDT', amount: usdt })
    await transfer(db.sql, { ref: `fund:${u}:NADI`, reason: 'deposit', from: custody('bsc'), to: trade(u), asset: 'NADI', amount: nadi })
  }
  await db.sql.run(statement("INSERT INTO activities (slug, title, body, cover, measure, starts_at, ends_at, active, created_at, updated_at) VALUES ('vol', '{}', '{}', '', 'trading', ?, ?, 1, 0, 0)"), CLOCK - 3_600_000, CLOCK + 3_600_000)
  return db
}

/** Every push built, as if every user listened: the pushes after a commit read what they send. */
const everyoneListens = { publish() {}, publishToUser() {} }

const exchangeOn = async (conn: Connection, maxBatch?: number) => {
  const ex = new Exchange({ conn, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: () => CLOCK, publisher: everyoneListens, maxBatch })
  await ex.start()
  return ex
}

describe('the market writer batches its round trips', () => {
  it('a batch of 198 commands executes as many statements as a batch of 3 of the same kinds', { timeout: 60_000 }, async () => {
    const db = await market(4, 1_000_000n * UNITS, 1_000_000n * UNITS)
    const { sql, count } = counting(db.sql)
    const ex = await exchangeOn({ db: db.db, sql })
    let cid = 0
    const rest = (user: number) => ex.place(user, { side: 'sell', type: 'limit', price: 3000, lots: 1000, clientOrderId: `r${++cid}` })
    // Orders for the cancels and for the crossing buys to fill, in batches of their own.
    const toCancel = await Promise.all(Array.from({ length: 70 }, (_, i) => ex.place(1 + (i % 4), { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: `c${i}` })))
    await Promise.all(Array.from({ length: 70 }, (_, i) => rest(1 + (i % 4))))

    /** One batch of `k` of each kind: a resting sell, a buy that fills one resting sell (fees both ways), a cancel. */
    const statementsOf = async (k: number) => {
      const before = count()
      const jobs: Promise<unknown>[] = []
      for (let i = 0; i < k; i++) {
        jobs.push(ex.place(1 + (i % 2), { side: 'sell', type: 'limit', price: 3100, lots: 1000, clientOrderId: `s${++cid}` }))
        jobs.push(ex.place(3 + (i % 2), { side: 'buy', type: 'limit', price: 3000, lots: 1000, clientOrderId: `b${++cid}` }))
        jobs.push(ex.cancel(Number(toCancel[0]!.user_id), Number(toCancel.shift()!.id)))
      }
      await Promise.all(jobs)
      // The candles are saved and the balances pushed after the commit.
      await new Promise((r) => setImmediate(r))
      await ex.published()
      return count() - before
    }
    // The first fills make the fee pool's accounts (two statements more, once).
    await statementsOf(1)
    const one = await statementsOf(1)
    const many = await statementsOf(66)
    expect(many).toBe(one)
    // Reads, one statement per table written, the posting, the pushes' balances and the candles: a small constant.
    expect(one).toBeLessThanOrEqual(24)
    expect((await db.sql.get(statement<{ n: bigint }>('SELECT COUNT(*) AS n FROM trade_fills')))!.n >= 67n).toBe(true)
    expect((await audit(db.sql)).violations).toEqual([])
    await ex.close()
    await db.close()
  })

  it('a random sequence of commands sent as one batch writes what it writes one command per batch, answers included', { timeout: 60_000 }, async () => {
    // Seeded: the same sequence for both runs.
    const { next: rand, int } = rng(20261202)
    // Little money, so freezes are refused once earlier commands of the same batch have taken it.
    type Step = { user: number; place: PlaceInput } | { user: number; cancel: number }
    const steps: Step[] = []
    for (let i = 0; i < 300; i++) {
      const user = 1 + int(4)
      const r = int(20)
      // Cancels name the order ids the sequence will give (1, 2, …), some not open any more, some another user's.
      if (r < 4) steps.push({ user, cancel: 1 + int(i + 1) })
      else if (r < 5) steps.push({ user, place: { side: 'sell', type: 'market', lots: 100 + int(3000), clientOrderId: `m${i}` } })
      else if (r < 6) steps.push({ user, place: { side: 'buy', type: 'market', quote: 1_000_000 + int(4_000_000), clientOrderId: `q${i}` } })
      // A client id used again now and then: the first order is the answer.
      else steps.push({ user, place: { side: rand() < 0.5 ? 'buy' : 'sell', type: 'limit', price: 2480 + int(40), lots: 400 + int(4000), clientOrderId: r === 6 && i > 10 ? `l${i - 1 - int(10)}` : `l${i}` } })
    }
    const send = (ex: Exchange, s: Step) => ('cancel' in s ? ex.cancel(s.user, s.cancel) : ex.place(s.user, s.place))
    const answer = (o: PromiseSettledResult<unknown>) =>
      o.status === 'fulfilled' ? o.value : o.reason instanceof TradeRejected ? { refused: o.reason.reason, detail: o.reason.detail } : { error: String(o.reason) }
    const tables = async (sql: Sql) => ({
      orders: await sql.all(statement('SELECT * FROM trade_orders ORDER BY id')),
      fills: await sql.all(statement('SELECT * FROM trade_fills ORDER BY id')),
      deals: await sql.all(statement('SELECT * FROM trade_deals ORDER BY id')),
      journal: await sql.all(statement('SELECT seq, inst_id, command, created_at FROM exchange_journal ORDER BY seq')),
      balances: await sql.all(statement('SELECT user_id, kind, asset, available, frozen FROM ledger_accounts ORDER BY user_id, kind, asset')),
      scores: await sql.all(statement('SELECT activity_id, user_id, score, reached_at FROM activity_scores ORDER BY activity_id, user_id')),
    })

    const run = async (batched: boolean) => {
      const db = await market(4, 30n * UNITS, 150n * UNITS)
      const ex = await exchangeOn(db)
      let answers: unknown[]
      if (batched) answers = (await Promise.allSettled(steps.map((s) => send(ex, s)))).map(answer)
      else {
        answers = []
        for (const s of steps) answers.push(answer((await Promise.allSettled([send(ex, s)]))[0]!))
      }
      const out = { answers, ...(await tables(db.sql)), violations: (await audit(db.sql)).violations }
      await ex.close()
      await db.close()
      return out
    }
    const one = await run(false)
    const all = await run(true)
    expect(all).toEqual(one)
    // The sequence exercised what it claims: fills, refusals of each kind, repeated client ids.
    const refused = new Set(one.answers.flatMap((x) => ((x as { refused?: string }).refused ? [(x as { refused: string }).refused] : [])))
    expect([...refused].sort()).toEqual(expect.arrayContaining(['insufficient_funds', 'not_owner', 'unknown_order']))
    expect(one.fills.length).toBeGreaterThan(30)
    expect(one.scores.length).toBeGreaterThan(0)
    expect(one.violations).toEqual([])
  })
})

// On PostgreSQL a batch reads and runs while the one before it writes and commits (docs/processes.md):
// its reads may not see that commit, and must then answer as if they had. One command per batch makes
// every batch begin behind an open one; the answers must be those of batches one after the other.
describe('batches back to back (overlapping on PostgreSQL)', () => {
  it('a freeze counts what the batch before took even before it committed: exactly the orders the money pays for', { timeout: 60_000 }, async () => {
    const cost = frozenForPlace(defaultSpec, { kind: 'place', orderId: 0, userId: 1, side: 'buy', type: 'limit', price: 1000, lots: 1000, ts: 0 }).amount
    const db = await market(1, cost * 10n + cost / 2n, UNITS)
    const ex = await exchangeOn(db, 1)
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => ex.place(1, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: `f${i}` })))
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason instanceof TradeRejected ? o.reason.reason : String(o.reason)] : []))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10)
    expect(refused).toEqual(new Array(30).fill('insufficient_funds'))
    const held = await balance(db.sql, trade(1), 'USDT')
    expect([held.available, held.frozen]).toEqual([cost / 2n, cost * 10n])
    if (testBackend() === 'postgres') expect(ex.overlapped).toBeGreaterThan(10)
    expect((await audit(db.sql)).violations).toEqual([])
    await ex.close()
    await db.close()
  })

  // Between processes (PostgreSQL): a transfer out of a trade account commits after the batch read the
  // balance. Played here by a trigger that empties the account inside the batch's transaction, once
  // (a sequence's nextval outlives the rollback): the ledger refuses the posting, the batch is rolled
  // back, and its commands run again over fresh balances instead of failing.
  it.skipIf(testBackend() !== 'postgres')('a batch whose posting the ledger refused after money moved runs its commands again, once', { timeout: 60_000 }, async () => {
    const db = await market(2, 1_000_000n * UNITS, 1_000_000n * UNITS)
    for (const ddl of [
      'CREATE SEQUENCE drained',
      `CREATE FUNCTION drain() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF nextval('drained') = 1 THEN UPDATE ledger_accounts SET available = 0 WHERE user_id = 1 AND kind = 'trade' AND asset = 'USDT'; END IF; RETURN NEW; END $$`,
      'CREATE TRIGGER drain BEFORE INSERT ON exchange_journal FOR EACH ROW EXECUTE FUNCTION drain()',
    ]) {
      await db.sql.run(statement(ddl))
    }
    const errors: unknown[] = []
    const ex = new Exchange({ conn: db, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: () => CLOCK, log: { error: (o) => errors.push(o), info() {} } })
    await ex.start()
    const [a, b] = await Promise.all([
      ex.place(1, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: 'drained' }),
      ex.place(2, { side: 'sell', type: 'limit', price: 3000, lots: 1000, clientOrderId: 'beside' }),
    ])
    expect([a.status, b.status]).toEqual(['pending', 'pending'])
    // The first run was refused (logged) and rolled back whole; the second wrote each order once.
    expect(errors).toHaveLength(1)
    expect(Number((await db.sql.get(statement<{ n: bigint }>("SELECT nextval('drained') AS n")))!.n)).toBeGreaterThan(2)
    expect((await db.sql.get(statement<{ n: bigint }>('SELECT COUNT(*) AS n FROM trade_orders')))!.n).toBe(2n)
    expect((await audit(db.sql)).violations).toEqual([])
    await ex.close()
    await db.close()
  })

  it('orders answer as the batch before left them: a maker it filled, then cancelled; a client id it placed, repeated', { timeout: 60_000 }, async () => {
    const db = await market(2, 1_000_000n * UNITS, 1_000_000n * UNITS)
    const ex = await exchangeOn(db, 1)
    const orderRow = statement<Record<string, unknown>, [number]>('SELECT * FROM trade_orders WHERE id = ?')
    for (let round = 0; round < 10; round++) {
      const maker = await ex.place(1, { side: 'sell', type: 'limit', price: 2500, lots: 4000, clientOrderId: `m${round}` })
      // Each its own batch, each begun behind the one before: a fill of the maker (fees on it), its
      // cancel, a new order, and the same client id again.
      const [fill, cancel, first, again] = await Promise.all([
        ex.place(2, { side: 'buy', type: 'limit', price: 2500, lots: 1000, clientOrderId: `t${round}` }),
        ex.cancel(1, Number(maker.id)),
        ex.place(2, { side: 'buy', type: 'limit', price: 1000, lots: 1000, clientOrderId: `d${round}` }),
        ex.place(2, { side: 'buy', type: 'limit', price: 1100, lots: 2000, clientOrderId: `d${round}` }),
      ])
      expect(fill.status).toBe('filled')
      expect([cancel.status, cancel.filled, cancel.fee > 0n]).toEqual(['cancelled', 1000n * defaultSpec.sizeStep, true])
      expect(cancel).toEqual(await db.sql.get(orderRow, Number(maker.id)))
      expect(again).toEqual(first)
      expect(first).toEqual(await db.sql.get(orderRow, Number(first.id)))
    }
    if (testBackend() === 'postgres') expect(ex.overlapped).toBeGreaterThan(20)
    expect((await audit(db.sql)).violations).toEqual([])
    await ex.close()
    await db.close()
  })
})
