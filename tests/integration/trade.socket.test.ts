// The market's socket streams with a real client (DESIGN §5): a book snapshot, then updates whose
// sequence ids continue and whose checksums match a book rebuilt from them with the app's own
// applier; trades, tickers and candles after a fill; user@update_order and user@balance only to
// their owner.

import { describe, expect, it } from 'vitest'
import { ROOT_CODE, idemKey, useServers, type SignedIn, type TestServer } from './support/server.ts'
import { Client } from './support/wsClient.ts'
import type { BookData, PlaceOrderBody } from '../../contract/trade.ts'
import { parseMoney } from '../../contract/money.ts'
import { applyBookMessage, type LocalBook } from '../../src/api/socketBook.ts'
import { custody, trade, transfer } from '../../server/ledger/index.ts'

const start = useServers()
let refs = 0
let cid = 0

async function credit(s: TestServer, userId: number, asset: 'USDT' | 'NADI', amount: string) {
  await transfer(s.ctx.sql, { ref: `test:ws:${++refs}`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset, amount: parseMoney(amount)! })
}
async function place(s: TestServer, who: SignedIn, body: Partial<PlaceOrderBody>) {
  const res = await s.post(`/api/v1/trade/placeOrder`, { inst_id: 'NADI-USDT', client_order_id: `w${++cid}`, ...body }, { token: who.token, idempotencyKey: idemKey() })
  expect(res.body_.code).toBe(200)
  return res.body_.data as { id: number }
}
interface Push<T = unknown> {
  arg: { channel: string; instId?: string }
  action: 'snapshot' | 'update'
  data: T[]
}

/** Reads frames until one on `channel` arrives (other streams' pushes may come first). */
async function nextOn<T>(c: Client, channel: string): Promise<Push<T>> {
  for (;;) {
    const f = await c.next<Push<T> & { id?: unknown }>()
    if (f.arg?.channel === channel) return f
  }
}

describe('market streams', () => {
  it('books: a snapshot, then updates with continuous sequence ids whose checksums match the rebuilt book', async () => {
    const s = await start()
    const alice = await s.signIn(ROOT_CODE)
    const bob = await s.signIn(ROOT_CODE)
    for (const u of [alice, bob]) {
      await credit(s, u.userId, 'USDT', '100000')
      await credit(s, u.userId, 'NADI', '100000')
    }
    await place(s, alice, { side: 'sell', type: 'limit', price: '0.5', size: '10' })
    const c = await Client.open(s)
    c.send({ method: 'SUBSCRIBE', params: ['books:NADI-USDT'], id: 1 })
    expect(await c.next()).toEqual({ id: 1, result: null })
    const snap = await nextOn<BookData>(c, 'books')
    expect(snap.action).toBe('snapshot')
    expect(snap.data[0]!.prevSeqId).toBe(-1)
    expect(snap.data[0]!.asks).toEqual([['0.5', '10']])
    let r = applyBookMessage(null, 'snapshot', snap.data[0]!)
    expect(r.ok).toBe(true)
    let book = (r as { book: LocalBook }).book

    // A mix of resting, crossing and cancelled orders; every update must apply cleanly.
    const ids: number[] = []
    for (let i = 0; i < 12; i++) {
      const side = i % 2 ? 'buy' : 'sell'
      const price = side === 'sell' ? `0.5${i % 5}` : `0.4${i % 5}`
      ids.push((await place(s, i % 3 ? alice : bob, { side, type: 'limit', price, size: `${5 + i}` })).id)
    }
    await place(s, bob, { side: 'buy', type: 'limit', price: '0.52', size: '30' })
    await s.post('/api/v1/trade/cancelOrder', { order_id: ids[1] }, { token: alice.token, idempotencyKey: idemKey() })
    let updates = 0
    let seq = snap.data[0]!.seqId
    const want = s.exchange!.bookSnapshot().seqId
    while (seq < want) {
      const u = await nextOn<BookData>(c, 'books')
      expect(u.action).toBe('update')
      expect(u.data[0]!.prevSeqId).toBe(seq)
      r = applyBookMessage(book, 'update', u.data[0]!)
      expect(r).toMatchObject({ ok: true })
      book = (r as { book: LocalBook }).book
      seq = u.data[0]!.seqId
      updates++
    }
    expect(updates).toBeGreaterThan(5)
    const server = s.exchange!.bookSnapshot()
    expect({ asks: book.asks, bids: book.bids }).toEqual({ asks: server.asks, bids: server.bids })
    c.close()
  })

  it('a fill is pushed on trades, tickers and candles; order and balance changes reach only their owner', async () => {
    const s = await start()
    const alice = await s.signIn(ROOT_CODE)
    const bob = await s.signIn(ROOT_CODE)
    await credit(s, alice.userId, 'NADI', '1000')
    await credit(s, bob.userId, 'USDT', '1000')
    const pub = await Client.open(s)
    pub.send({ method: 'SUBSCRIBE', params: ['trades:NADI-USDT', 'tickers:NADI-USDT', 'candle1m:NADI-USDT'], id: 1 })
    expect(await pub.next()).toEqual({ id: 1, result: null })
    for (const ch of ['trades', 'tickers', 'candle1m']) expect((await nextOn(pub, ch)).action).toBe('snapshot')
    const a = await Client.open(s, alice.token)
    const b = await Client.open(s, bob.token)
    for (const c of [a, b]) {
      c.send({ method: 'SUBSCRIBE', params: ['user@update_order', 'user@balance'], id: 2 })
      expect(await c.next()).toEqual({ id: 2, result: null })
      expect((await nextOn(c, 'user@balance')).action).toBe('snapshot')
    }

    const ask = await place(s, alice, { side: 'sell', type: 'limit', price: '0.4', size: '100' })
    const mine = await nextOn<{ id: number; status: string }>(a, 'user@update_order')
    expect(mine.data[0]).toMatchObject({ id: ask.id, status: 'pending' })
    expect(await b.silent()).toBe(true)

    await place(s, bob, { side: 'buy', type: 'market', quote_amount: '20' })
    const t = await nextOn<{ price: string; size: string; side: string }>(pub, 'trades')
    expect(t.data[0]).toMatchObject({ price: '0.4', size: '50', side: 'buy' })
    expect((await nextOn<{ last: string }>(pub, 'tickers')).data[0]).toMatchObject({ last: '0.4' })
    const candle = await nextOn<unknown[]>(pub, 'candle1m')
    expect(candle.data[0]!.slice(1)).toEqual(['0.4', '0.4', '0.4', '0.4', '50', '20'])

    expect((await nextOn<{ id: number; status: string }>(a, 'user@update_order')).data[0]).toMatchObject({ id: ask.id, status: 'partially_filled', filled: '50' })
    const bal = await nextOn<{ asset: string; available: string; frozen: string }>(a, 'user@balance')
    expect(bal.data).toEqual(
      expect.arrayContaining([
        { asset: 'USDT', account: 'trade', available: '19.98', frozen: '0' },
        { asset: 'NADI', account: 'trade', available: '900', frozen: '50' },
      ]),
    )
    const bobOrder = await nextOn<{ status: string }>(b, 'user@update_order')
    expect(bobOrder.data[0]).toMatchObject({ status: 'filled' })
    for (const c of [pub, a, b]) c.close()
  })

  it('private market streams need a signed-in connection', async () => {
    const s = await start()
    const c = await Client.open(s)
    c.send({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 })
    expect(await c.next()).toMatchObject({ id: 1, error: { code: 401 } })
    c.close()
  })

  it('a stream of another market or an interval that is not one of the seven is refused as unknown, and the connection stays usable', async () => {
    const s = await start()
    const c = await Client.open(s)
    for (const [id, stream] of [
      [1, 'candle2m:NADI-USDT'],
      [2, 'books:BTC-USDT'],
      [3, 'candle1m:nadi-usdt'],
      [4, 'tickers:'],
    ] as const) {
      c.send({ method: 'SUBSCRIBE', params: [stream], id })
      expect(await c.next()).toMatchObject({ id, error: { code: 404 } })
    }
    c.send({ method: 'SUBSCRIBE', params: ['candle4h:NADI-USDT'], id: 5 })
    expect(await c.next()).toEqual({ id: 5, result: null })
    expect((await nextOn(c, 'candle4h')).action).toBe('snapshot')
    c.close()
  })
})
