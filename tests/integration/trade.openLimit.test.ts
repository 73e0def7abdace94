// The per-user limit of open orders in a market (issue 33, "abuse that is still free": one user rested
// 260 orders in a row). The limit is checked where an order is accepted, by the market's one writer, so
// it holds under concurrent requests on both backends and across processes; the journal's replay never
// refuses an order it already holds. The ledger audit passes after every test.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import type { Order, PlaceOrderBody } from '../../contract/trade.ts'
import { parseMoney } from '../../contract/money.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, custody, trade, transfer } from '../../server/ledger/index.ts'
import { openDatabase } from '../../server/db/index.ts'
import { defaultSpec } from '../../server/exchange/engine/index.ts'
import { Exchange } from '../../server/exchange/exchange.ts'
import { LocalBus } from '../../server/roles/bus.ts'
import { ENGINE_KEY } from '../../server/roles/leader.ts'
import { remoteTrading, serveTradeCommands } from '../../server/roles/tradeCommands.ts'
import '../../server/ledger/holders.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()
const T = '/api/v1/trade'
const live: TestServer[] = []
afterEach(async () => {
  for (const s of live.splice(0)) expect((await audit(s.ctx.sql)).violations).toEqual([])
})
async function boot(env?: Record<string, string>): Promise<TestServer> {
  const s = await start(env ? { env } : {})
  live.push(s)
  return s
}
let refs = 0
const credit = (s: TestServer, userId: number, amount: string) =>
  transfer(s.ctx.sql, { ref: `test:openLimit:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset: 'USDT', amount: parseMoney(amount)! })
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)
let cid = 0
const place = (s: TestServer, who: SignedIn, body: Partial<PlaceOrderBody>) =>
  s.post<Order>(`${T}/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: `ol${++cid}`, ...body }, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
const cancel = (s: TestServer, who: SignedIn, id: number) => s.post<Order>(`${T}/cancelOrder`, { inst_id: 'NADI-USDT', order_id: id }, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
/** A bid that rests: far below any ask (none here). */
const bid = (i: number) => ({ side: 'buy' as const, type: 'limit' as const, price: `0.${String(1000 + i).padStart(4, '0')}`, size: '10' })
const openOf = (s: TestServer, userId: number) => s.count("SELECT COUNT(*) FROM trade_orders WHERE user_id = ? AND status IN ('pending', 'partially_filled')", userId)
const state = async (s: TestServer, userId: number) => ({ open: await openOf(s, userId), journal: await s.count('SELECT COUNT(*) FROM exchange_journal'), usdt: await balance(s.ctx.sql, trade(userId), 'USDT') })

describe('the per-user limit of open orders', () => {
  it('the 201st open order is refused with the reason and changes nothing; cancelling one lets another in; a market order still trades', async () => {
    const s = await boot()
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, '10000')
    const placed = await Promise.all(Array.from({ length: 200 }, (_, i) => place(s, me, bid(i))))
    expect(placed.map((r) => r.statusCode)).toEqual(Array(200).fill(200))
    const before = await state(s, me.userId)
    expect(before.open).toBe(200)

    const refused = await place(s, me, bid(200))
    expect(refused.statusCode).toBe(409)
    expect(refused.body_.msg).toBe(msg('errors.tradeOpenOrdersLimit', { max: 200 }))
    expect(await state(s, me.userId)).toEqual(before)

    // A market order takes no place on the book: it is not refused for the limit (none to sell it, so it ends at once).
    const market = await place(s, me, { side: 'buy', type: 'market', quote_amount: '5' })
    expect(market.statusCode).toBe(200)
    expect(await openOf(s, me.userId)).toBe(200)

    expect((await cancel(s, me, placed[0]!.body_.data.id)).statusCode).toBe(200)
    expect((await place(s, me, bid(201))).statusCode).toBe(200)
    expect((await place(s, me, bid(202))).statusCode).toBe(409)
    // Another user has places of their own.
    const other = await s.signIn(ROOT_CODE)
    await credit(s, other.userId, '100')
    expect((await place(s, other, bid(0))).statusCode).toBe(200)
  })

  it('holds under concurrent requests: with 3 of 5 open, ten at once get the 2 places left', async () => {
    const s = await boot({ NADI_TRADE_MAX_OPEN_ORDERS: '5' })
    const me = await s.signIn(ROOT_CODE)
    await credit(s, me.userId, '1000')
    for (let i = 0; i < 3; i++) expect((await place(s, me, bid(i))).statusCode).toBe(200)
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => place(s, me, bid(10 + i))))
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(2)
    expect(new Set(burst.filter((r) => r.statusCode !== 200).map((r) => r.body_.msg))).toEqual(new Set([msg('errors.tradeOpenOrdersLimit', { max: 5 })]))
    expect(await openOf(s, me.userId)).toBe(5)
  })

  it('a restart under a lower limit replays every journaled order and refuses only new ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-open-limit-'))
    const pg = testBackend() === 'postgres' ? freshDatabase() : null
    if (pg) onTestFinished(() => pg.drop())
    const db: Record<string, string> = pg ? { NADI_DATABASE_URL: pg.url } : { NADI_DB_FILE: path.join(dir, 'db.sqlite') }
    try {
      const s1 = await boot({ ...db, NADI_TRADE_MAX_OPEN_ORDERS: '5' })
      const me = await s1.signIn(ROOT_CODE)
      await credit(s1, me.userId, '1000')
      const ids: number[] = []
      for (let i = 0; i < 5; i++) ids.push((await place(s1, me, bid(i))).body_.data.id)
      const book = s1.exchange!.engineSnapshot()
      live.splice(live.indexOf(s1), 1)
      await s1.close()

      const s2 = await boot({ ...db, NADI_TRADE_MAX_OPEN_ORDERS: '3' })
      expect(s2.exchange!.status().state).toBe('live')
      expect(s2.exchange!.engineSnapshot()).toEqual(book)
      const me2 = await s2.signIn(ROOT_CODE, me.wallet)
      expect((await place(s2, me2, bid(5))).body_.msg).toBe(msg('errors.tradeOpenOrdersLimit', { max: 3 }))
      await cancel(s2, me2, ids[0]!)
      await cancel(s2, me2, ids[1]!)
      expect((await place(s2, me2, bid(6))).statusCode).toBe(409)
      await cancel(s2, me2, ids[2]!)
      expect((await place(s2, me2, bid(7))).statusCode).toBe(200)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

const cleanups: (() => unknown)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe.runIf(testBackend() === 'postgres')('the limit across processes', () => {
  it('an order sent by an API process through the command table is refused by the engine with the limit it applies', async () => {
    const db = freshDatabase()
    cleanups.push(() => db.drop())
    const conn = openDatabase(db.url)
    cleanups.push(() => conn.close())
    await conn.sql.run(statement("INSERT INTO users (id, wallet_address, code, name, created_at) VALUES (1, ?, 'U1CODE', 'user 1', 0)"), `0x${'1'.padStart(40, '0')}`)
    await transfer(conn.sql, { ref: 'fund:1', reason: 'deposit', from: custody('bsc'), to: trade(1), asset: 'USDT', amount: 1_000_000n * 100_000_000n })
    const clock = () => Date.UTC(2026, 11, 1, 12)
    const leader = new pg.Client({ connectionString: db.url, application_name: 'nadi engine test' })
    await leader.connect()
    cleanups.push(() => leader.end())
    await leader.query('SELECT pg_advisory_lock($1)', [ENGINE_KEY])
    const bus = new LocalBus()
    const ex = new Exchange({ conn, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 1000 }, now: clock, maxOpenPerUser: 2 })
    await ex.start()
    cleanups.push(() => ex.close())
    const server = serveTradeCommands(ex, bus, { log: { warn() {}, error() {} }, now: clock, everyMs: 20 })
    cleanups.push(() => server.close())
    const api = remoteTrading(conn.sql, bus, { instId: defaultSpec.instId, index: 0, now: clock, pollMs: 20 })
    cleanups.push(() => api.close())
    const order = (n: number) => api.place(1, { side: 'buy', type: 'limit', price: 1000 + n, lots: 1000, clientOrderId: `x${n}` })
    await order(1)
    await order(2)
    await expect(order(3)).rejects.toMatchObject({ reason: 'open_orders_limit', detail: { max: 2 } })
    expect((await conn.sql.get(statement<{ n: bigint }>("SELECT COUNT(*) AS n FROM trade_orders WHERE user_id = 1 AND status = 'pending'")))?.n).toBe(2n)
  })
})
