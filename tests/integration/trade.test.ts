// The spot market over HTTP: orders freeze, fill, settle and release through the ledger; lists,
// deals, depth, ticker and candles follow; bad input moves nothing; a restart rebuilds the same book
// from the journal. The ledger audit (frozen = what open orders hold) passes after every test.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import type { PagedList } from '../../contract/envelope.ts'
import type { Candle, Deal, Depth, MarketInfo, Order, PlaceOrderBody, Ticker } from '../../contract/trade.ts'
import { parseMoney } from '../../contract/money.ts'
import { translate } from '../../server/i18n.ts'
import { audit, balance, custody, FEES, trade, transfer, type Asset } from '../../server/ledger/index.ts'
import { statement } from '../../server/db/query/types.ts'

const start = useServers()
const T = '/api/v1/trade'

const live: TestServer[] = []
afterEach(async () => {
  for (const s of live.splice(0)) {
    const report = await audit(s.ctx.sql)
    expect(report.violations).toEqual([])
  }
})
async function boot(env?: Record<string, string>): Promise<TestServer> {
  const s = await start(env ? { env } : {})
  live.push(s)
  return s
}

const units = (text: string) => parseMoney(text)!
let refs = 0
/** Money in a user's trade account, the way a deposit and a transfer would put it there. */
async function credit(s: TestServer, userId: number, asset: Asset, amount: string) {
  await transfer(s.ctx.sql, { ref: `test:trade:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset, amount: units(amount) })
}
const bal = (s: TestServer, userId: number, asset: Asset) => balance(s.ctx.sql, trade(userId), asset)
const msg = (key: string, params?: Record<string, string | number>) => translate('EN', key, params)

let cid = 0
async function place(s: TestServer, who: SignedIn, body: Partial<PlaceOrderBody>) {
  return s.post<Order>(`${T}/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: `c${++cid}`, ...body }, { token: who.token, idempotencyKey: idemKey(), lang: 'EN' })
}
const limit = (side: 'buy' | 'sell', price: string, size: string) => ({ side, type: 'limit' as const, price, size })

async function twoTraders(s: TestServer) {
  const alice = await s.signIn(ROOT_CODE)
  const bob = await s.signIn(ROOT_CODE)
  await credit(s, alice.userId, 'USDT', '1000')
  await credit(s, alice.userId, 'NADI', '1000')
  await credit(s, bob.userId, 'USDT', '1000')
  await credit(s, bob.userId, 'NADI', '1000')
  return { alice, bob }
}

describe('placing and matching', () => {
  it('a limit order rests: it freezes price × size, shows in the book and in current orders', async () => {
    const s = await boot()
    const { alice } = await twoTraders(s)
    const res = await place(s, alice, limit('buy', '0.25', '100'))
    expect(res.body_.code).toBe(200)
    expect(res.body_.data).toMatchObject({ side: 'buy', type: 'limit', price: '0.25', size: '100', filled: '0', status: 'pending' })
    expect(await bal(s, alice.userId, 'USDT')).toEqual({ available: units('975'), frozen: units('25') })
    const depth = (await s.get<Depth>(`${T}/depth?inst_id=NADI-USDT`)).body_.data
    expect(depth.bids).toEqual([['0.25', '100']])
    const open = (await s.get<PagedList<Order>>(`${T}/orderList?state=open`, { token: alice.token })).body_.data
    expect(open.total).toBe(1)
    expect(open.list[0]!.id).toBe(res.body_.data.id)
  })

  it('a crossing order fills at the resting price; both settle exactly, fees go to the fee account', async () => {
    const s = await boot()
    const { alice, bob } = await twoTraders(s)
    const maker = (await place(s, alice, limit('sell', '0.3', '100'))).body_.data
    const taker = await place(s, bob, limit('buy', '0.31', '40'))
    expect(taker.body_.data).toMatchObject({ status: 'filled', filled: '40', filled_quote: '12', avg_price: '0.3', fee: '0.04', fee_asset: 'NADI' })
    // Bob froze 0.31 × 40 = 12.4, paid 12 at the maker's price: 0.4 released; he receives 40 NADI less 0.1 %.
    expect(await bal(s, bob.userId, 'USDT')).toEqual({ available: units('988'), frozen: 0n })
    expect(await bal(s, bob.userId, 'NADI')).toEqual({ available: units('1039.96'), frozen: 0n })
    // Alice sold 40 of her 100 frozen NADI for 12 USDT less 0.1 %; 60 stay frozen on the book.
    expect(await bal(s, alice.userId, 'NADI')).toEqual({ available: units('900'), frozen: units('60') })
    expect(await bal(s, alice.userId, 'USDT')).toEqual({ available: units('1011.988'), frozen: 0n })
    expect((await balance(s.ctx.sql, FEES, 'USDT')).available).toBe(units('0.012'))
    expect((await balance(s.ctx.sql, FEES, 'NADI')).available).toBe(units('0.04'))
    const open = (await s.get<PagedList<Order>>(`${T}/orderList?state=open`, { token: alice.token })).body_.data
    expect(open.list[0]).toMatchObject({ id: maker.id, status: 'partially_filled', filled: '40', fee: '0.012', fee_asset: 'USDT' })
    const deals = (await s.get<PagedList<Deal>>(`${T}/dealList`, { token: bob.token })).body_.data
    expect(deals.list).toEqual([expect.objectContaining({ side: 'buy', role: 'taker', price: '0.3', size: '40', quote: '12', fee: '0.04', fee_asset: 'NADI' })])
    const aliceDeals = (await s.get<PagedList<Deal>>(`${T}/dealList`, { token: alice.token })).body_.data
    expect(aliceDeals.list).toEqual([expect.objectContaining({ side: 'sell', role: 'maker', fee: '0.012', fee_asset: 'USDT' })])
    const ticker = (await s.get<Ticker>(`${T}/ticker?inst_id=NADI-USDT`)).body_.data
    expect(ticker).toMatchObject({ last: '0.3', vol24h: '40', vol_quote24h: '12' })
    const candles = (await s.get<{ list: Candle[] }>(`${T}/klines?inst_id=NADI-USDT&bar=1m`)).body_.data.list
    expect(candles).toHaveLength(1)
    expect(candles[0]!.slice(1)).toEqual(['0.3', '0.3', '0.3', '0.3', '40', '12'])
  })

  it('a market buy spends at most its USDT amount; when the book runs out the rest is cancelled and returned', async () => {
    const s = await boot()
    const { alice, bob } = await twoTraders(s)
    await place(s, alice, limit('sell', '0.5', '10'))
    const res = await place(s, bob, { side: 'buy', type: 'market', quote_amount: '20' })
    expect(res.body_.data).toMatchObject({ status: 'cancelled', filled: '10', filled_quote: '5', cancel_reason: 'no_liquidity' })
    expect(await bal(s, bob.userId, 'USDT')).toEqual({ available: units('995'), frozen: 0n })
    // The history says the market ended it, not its owner.
    const history = (await s.get<PagedList<Order>>(`${T}/orderList?state=history`, { token: bob.token })).body_.data
    expect(history.list.map((x) => x.cancel_reason)).toEqual(['no_liquidity'])
  })

  it('a resting order reached by its owner’s own order is cancelled by the market, and says so in the history', async () => {
    const s = await boot()
    const { alice } = await twoTraders(s)
    const resting = (await place(s, alice, limit('sell', '0.3', '10'))).body_.data
    const crossing = await place(s, alice, limit('buy', '0.3', '10'))
    expect(crossing.body_.data).toMatchObject({ status: 'pending', filled: '0', cancel_reason: null })
    const history = (await s.get<PagedList<Order>>(`${T}/orderList?state=history`, { token: alice.token })).body_.data
    expect(history.list.map((x) => [x.id, x.status, x.cancel_reason])).toEqual([[resting.id, 'cancelled', 'self_trade']])
    expect(await bal(s, alice.userId, 'NADI')).toEqual({ available: units('1000'), frozen: 0n })
  })

  it('a cancel releases what the order still holds; cancelling again, or another user’s order, is refused', async () => {
    const s = await boot()
    const { alice, bob } = await twoTraders(s)
    const o = (await place(s, alice, limit('buy', '0.2', '50'))).body_.data
    const byBob = await s.post(`${T}/cancelOrder`, { order_id: o.id }, { token: bob.token, idempotencyKey: idemKey(), lang: 'EN' })
    expect(byBob.statusCode).toBe(404)
    expect(byBob.body_.msg).toBe(msg('errors.tradeOrderNotOpen'))
    const res = await s.post<Order>(`${T}/cancelOrder`, { order_id: o.id }, { token: alice.token, idempotencyKey: idemKey() })
    expect(res.body_.data.status).toBe('cancelled')
    expect(await bal(s, alice.userId, 'USDT')).toEqual({ available: units('1000'), frozen: 0n })
    const again = await s.post(`${T}/cancelOrder`, { order_id: o.id }, { token: alice.token, idempotencyKey: idemKey() })
    expect(again.statusCode).toBe(404)
    const history = (await s.get<PagedList<Order>>(`${T}/orderList?state=history`, { token: alice.token })).body_.data
    expect(history.list.map((x) => [x.status, x.cancel_reason])).toEqual([['cancelled', null]])
  })

  it('the same client order id places one order, however often it is sent', async () => {
    const s = await boot()
    const { alice } = await twoTraders(s)
    const body = { inst_id: 'NADI-USDT', client_order_id: 'same-1', ...limit('buy', '0.2', '10') }
    const a = await s.post<Order>(`${T}/placeOrder`, body, { token: alice.token, idempotencyKey: idemKey() })
    const b = await s.post<Order>(`${T}/placeOrder`, body, { token: alice.token, idempotencyKey: idemKey() })
    expect(b.body_.data.id).toBe(a.body_.data.id)
    expect(await s.count('SELECT COUNT(*) FROM trade_orders')).toBe(1)
    expect((await bal(s, alice.userId, 'USDT')).frozen).toBe(units('2'))
  })
})

describe('bad input moves nothing', () => {
  it.each([
    ['zero size', limit('buy', '0.25', '0'), 'errors.tradeSizeRequired', {}],
    ['size off the step', limit('buy', '0.25', '1.001'), 'errors.tradeSizeStep', { step: '0.01' }],
    ['price off the step', limit('buy', '0.25001', '10'), 'errors.tradePriceStep', { step: '0.0001' }],
    ['below the minimum total', limit('buy', '0.01', '10'), 'errors.tradeMinNotional', { min: '1' }],
    ['missing price', { side: 'buy', type: 'limit', size: '10' }, 'errors.tradePriceRequired', {}],
    ['market buy without amount', { side: 'buy', type: 'market' }, 'errors.tradeAmountRequired', {}],
    ['more than it holds', limit('buy', '1', '5000'), 'errors.paymentInsufficient', { asset: 'USDT', current: '1000', required: '5000' }],
  ] as const)('%s', async (_name, body, key, params) => {
    const s = await boot()
    const { alice } = await twoTraders(s)
    const before = { usdt: await bal(s, alice.userId, 'USDT'), orders: await s.count('SELECT COUNT(*) FROM trade_orders'), journal: await s.count('SELECT COUNT(*) FROM exchange_journal') }
    const res = await place(s, alice, body as Partial<PlaceOrderBody>)
    expect(res.statusCode).toBe(400)
    expect(res.body_.msg).toBe(msg(key, params))
    expect({ usdt: await bal(s, alice.userId, 'USDT'), orders: await s.count('SELECT COUNT(*) FROM trade_orders'), journal: await s.count('SELECT COUNT(*) FROM exchange_journal') }).toEqual(before)
  })

  it('malformed bodies are refused by the schema: negative, more than 8 decimals, another market', async () => {
    const s = await boot()
    const { alice } = await twoTraders(s)
    for (const body of [limit('buy', '-1', '1'), limit('buy', '0.123456789', '1'), { ...limit('buy', '1', '1'), inst_id: 'BTC-USDT' }]) {
      const res = await s.post(`${T}/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: `m${++cid}`, ...body }, { token: alice.token, idempotencyKey: idemKey() })
      expect(res.statusCode).toBe(400)
    }
    expect(await s.count('SELECT COUNT(*) FROM trade_orders')).toBe(0)
  })

  it('orders need a signed-in user; lists show only the caller’s own', async () => {
    const s = await boot()
    const { alice, bob } = await twoTraders(s)
    expect((await s.post(`${T}/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: 'x', ...limit('buy', '1', '1') })).statusCode).toBe(401)
    await place(s, alice, limit('buy', '0.2', '10'))
    expect((await s.get<PagedList<Order>>(`${T}/orderList?state=open`, { token: bob.token })).body_.data.total).toBe(0)
  })
})

describe('the market data', () => {
  it('market rules come from the spec: steps, minimums, fees', async () => {
    const s = await boot()
    const m = (await s.get<MarketInfo>(`${T}/market`)).body_.data
    expect(m).toMatchObject({ inst_id: 'NADI-USDT', price_step: '0.0001', size_step: '0.01', min_notional: '1', maker_fee: '0.001', taker_fee: '0.001' })
  })
})

describe('journal and recovery', () => {
  it('a restart rebuilds the same book from the journal; resting orders still fill after it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-trade-restart-'))
    // A snapshot every 4 commands: the restart restores the newest one and replays the journal after it.
    // Both servers on one database: the folder's SQLite file, or one PostgreSQL database of their own.
    const pg = testBackend() === 'postgres' ? freshDatabase() : null
    // Dropped once the servers are closed (after every afterEach).
    if (pg) onTestFinished(() => pg.drop())
    const env = { ...(pg ? { NADI_DATABASE_URL: pg.url } : { NADI_DB_FILE: path.join(dir, 'db.sqlite') }), NADI_TRADE_SNAPSHOT_EVERY: '4' }
    try {
      const s1 = await boot(env)
      const { alice, bob } = await twoTraders(s1)
      for (let i = 0; i < 5; i++) await place(s1, alice, limit('sell', `0.3${i}`, '10'))
      for (let i = 0; i < 5; i++) await place(s1, bob, limit('buy', `0.2${i}`, '10'))
      await place(s1, bob, limit('buy', '0.31', '15'))
      await new Promise((r) => setTimeout(r, 50)) // let the last snapshot's batch commit
      expect(await s1.count('SELECT COUNT(*) FROM exchange_snapshots')).toBeGreaterThan(0)
      const snapshot = s1.exchange!.engineSnapshot()
      const depth = (await s1.get<Depth>(`${T}/depth?inst_id=NADI-USDT`)).body_.data
      live.splice(live.indexOf(s1), 1)
      expect((await audit(s1.ctx.sql)).violations).toEqual([])
      await s1.close()

      const s2 = await boot(env)
      expect(s2.exchange!.engineSnapshot()).toEqual(snapshot)
      const again = (await s2.get<Depth>(`${T}/depth?inst_id=NADI-USDT`)).body_.data
      expect({ asks: again.asks, bids: again.bids }).toEqual({ asks: depth.asks, bids: depth.bids })
      const bob2 = await s2.signIn(ROOT_CODE, bob.wallet)
      const res = await place(s2, bob2, limit('buy', '0.31', '5'))
      expect(res.body_.data).toMatchObject({ status: 'filled', avg_price: '0.31' })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a command that fails after the engine took it abandons its whole batch: nothing is kept, the book is rebuilt from the journal', async () => {
    const s = await boot()
    const { alice, bob } = await twoTraders(s)
    await place(s, alice, limit('sell', '0.3', '100'))
    const before = { book: s.exchange!.engineSnapshot(), usdt: await bal(s, bob.userId, 'USDT'), nadi: await bal(s, alice.userId, 'NADI'), journal: await s.count('SELECT COUNT(*) FROM exchange_journal') }
    // Take the id the next order will get, so writing its row fails after the engine matched it.
    const next = Number((await s.ctx.sql.get(statement<{ v: bigint }>('SELECT MAX(id) AS v FROM trade_orders')))?.v) + 1
    await s.ctx.sql.run(statement("INSERT INTO trade_orders (id, user_id, client_order_id, inst_id, side, type, price, size, fee_asset, frozen, status, created_at, updated_at) VALUES (?, ?, 'squat', 'NADI-USDT', 'buy', 'limit', 1, 1, 'NADI', 0, 'cancelled', 0, 0)"), next, bob.userId)
    const res = await place(s, bob, limit('buy', '0.3', '40'))
    expect(res.statusCode).toBe(500)
    expect(s.exchange!.engineSnapshot()).toEqual(before.book)
    expect({ usdt: await bal(s, bob.userId, 'USDT'), nadi: await bal(s, alice.userId, 'NADI'), journal: await s.count('SELECT COUNT(*) FROM exchange_journal') }).toEqual({ usdt: before.usdt, nadi: before.nadi, journal: before.journal })
    // The next order gets a free id and trades as if nothing had happened.
    const again = await place(s, bob, limit('buy', '0.3', '40'))
    expect(again.body_.data).toMatchObject({ status: 'filled', filled: '40' })
    expect(again.body_.data.id).toBeGreaterThan(next)
  })
})
