// Live data across processes (issue 19) on PostgreSQL: the market's engine publishes through one bus
// (as an engine process does, busPublisher), an API process's hub on another bus serves real sockets
// from a mirror of the market. A client on the API side sees the engine's book from a snapshot on,
// with continuous seqIds and matching checksums (applied with the app's own code), a client joining
// later gets a snapshot the next update follows, and a user's order update published by the engine
// reaches that user's socket on the API side — nobody else's.

import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { applyBookMessage, type LocalBook } from '../../src/api/socketBook.ts'
import type { PushFrame } from '../../contract/socket.ts'
import type { BookData, Order } from '../../contract/trade.ts'
import { openDatabase } from '../../server/db/index.ts'
import { defaultSpec } from '../../server/exchange/engine/index.ts'
import { Exchange, tradeBalances } from '../../server/exchange/exchange.ts'
import { marketStreamsOf } from '../../server/exchange/streams.ts'
import { custody, trade, transfer } from '../../server/ledger/index.ts'
import '../../server/ledger/holders.ts'
import { followMarket, mirrorView, serveMarketBase } from '../../server/roles/marketMirror.ts'
import { PgBus } from '../../server/roles/pgBus.ts'
import { busPublisher, Hub, MISSED_UPDATES } from '../../server/ws/hub.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const WS = { maxSubscriptions: 50, maxMessagesPerSecond: 1000, heartbeatMs: 30_000, maxPayload: 4096 }
const quiet = { info() {}, warn() {}, error() {} }
const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** A socket client of the API side that records every push. */
async function client(port: number, userId: number, streams: string[]) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?user=${userId}`)
  const pushes: PushFrame[] = []
  const acks: unknown[] = []
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as PushFrame & { id?: unknown }
    if ('arg' in f) pushes.push(f)
    else acks.push(f)
  })
  await new Promise((r) => ws.once('open', r))
  ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: streams, id: 1 }))
  cleanups.push(() => ws.close())
  return { ws, pushes, acks }
}

async function until(pred: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The book a client keeps from its books pushes, with the app's rules; throws on a gap or bad checksum. */
function follow(pushes: PushFrame[]): { book: LocalBook | null; seqIds: number[] } {
  let book: LocalBook | null = null
  const seqIds: number[] = []
  for (const p of pushes) {
    if (p.arg.channel !== 'books') continue
    for (const d of p.data as BookData[]) {
      const step = applyBookMessage(book, p.action, d)
      if (!step.ok) {
        if (step.reason === 'no-snapshot') continue
        throw new Error(`book ${step.reason} at seqId ${d.seqId} (prev ${d.prevSeqId}, had ${book?.seqId})`)
      }
      book = step.book
      seqIds.push(d.seqId)
    }
  }
  return { book, seqIds }
}

describe.runIf(testBackend() === 'postgres')('socket pushes across processes', () => {
  it("a client on another process follows the engine's book with continuous seqIds and checksums, and gets its own order updates; after its bus connection dies, a fresh snapshot or a reconnect", { timeout: 60_000 }, async () => {
    const db: TestDatabase = freshDatabase()
    cleanups.push(() => db.drop())
    const conn = openDatabase(db.url)
    cleanups.push(() => conn.close())
    const addUser = statement<never, [number, string, string, string]>('INSERT INTO users (id, wallet_address, code, name, created_at) VALUES (?, ?, ?, ?, 0)')
    for (const id of [1, 2, 3]) {
      await conn.sql.run(addUser, id, `0x${String(id).padStart(40, '0')}`, `U${id}CODE`, `user ${id}`)
      for (const asset of ['USDT', 'NADI'] as const) await transfer(conn.sql, { ref: `fund:${id}:${asset}`, reason: 'deposit', from: custody('bsc'), to: trade(id), asset, amount: 1_000_000n * 100_000_000n })
    }

    // The engine's process: the exchange publishes through its bus, and answers mirrors' requests.
    const engineBus = new PgBus({ url: db.url, log: quiet, name: 'engine' })
    cleanups.push(() => engineBus.close())
    let clock = Date.UTC(2026, 10, 27, 12)
    const exchange = new Exchange({ conn, spec: defaultSpec, fees: { makerFeePpm: 1000, takerFeePpm: 2000 }, now: () => clock, publisher: busPublisher(engineBus), log: quiet })
    await exchange.start()
    cleanups.push(() => exchange.close())
    cleanups.push(serveMarketBase(engineBus, exchange))
    await engineBus.settled()
    // Orders before the API process starts: its mirror must get them from the base.
    for (let i = 1; i <= 20; i++) {
      await exchange.place(1, { side: 'buy', type: 'limit', price: 2000 - i, lots: 1000 * i, clientOrderId: `b${i}` })
      await exchange.place(1, { side: 'sell', type: 'limit', price: 2000 + i, lots: 1000 * i, clientOrderId: `s${i}` })
    }

    // The API process: a hub on a bus of its own, the market from its mirror, real sockets.
    const apiBus = new PgBus({ url: db.url, log: quiet, name: 'api' })
    cleanups.push(() => apiBus.close())
    const followed = followMarket(apiBus, defaultSpec.instId, { retryMs: 500 })
    cleanups.push(() => followed.close())
    const hub = new Hub(WS, () => clock, undefined, { bus: apiBus, log: quiet })
    for (const f of marketStreamsOf(mirrorView(followed.mirror, { now: () => clock, tradeBalances: (u) => tradeBalances(conn.sql, u) }))) hub.register(f)
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    wss.on('connection', (socket, req) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('user'))
      hub.attach(socket, { id, address: `0x${id}`, sessionId: id, handshakeId: null, previousHandshakeId: null })
    })
    cleanups.push(() => new Promise<void>((r) => wss.close(() => r())))
    cleanups.push(() => hub.stop())
    await new Promise((r) => wss.once('listening', r))
    const port = (wss.address() as AddressInfo).port
    await apiBus.settled()
    await until(() => followed.mirror.known, 'the mirror to get its base')

    const watcher = await client(port, 2, ['books:NADI-USDT', 'user@update_order'])
    const bystander = await client(port, 3, ['user@update_order'])
    await until(() => watcher.pushes.length > 0, 'the first snapshot')

    // Trading through the engine: user 2 takes and rests, user 1 requotes.
    const mine: number[] = []
    let late: Awaited<ReturnType<typeof client>> | null = null
    for (let i = 1; i <= 30; i++) {
      clock += 1000
      const o = await exchange.place(2, { side: i % 2 ? 'buy' : 'sell', type: 'limit', price: i % 2 ? 2000 + (i % 5) : 2000 - (i % 5), lots: 600 + i, clientOrderId: `u${i}` })
      mine.push(Number(o.id))
      await exchange.place(1, { side: i % 2 ? 'sell' : 'buy', type: 'limit', price: i % 2 ? 2001 + (i % 7) : 1999 - (i % 7), lots: 800, clientOrderId: `q${i}` })
      if (i === 15) {
        // A client that joins midway: its snapshot must be the book the next update follows.
        late = await client(port, 3, ['books:NADI-USDT'])
      }
    }
    if (!late) throw new Error('no late client')
    const engineSeq = exchange.bookSnapshot().seqId
    const joined = late
    await until(() => follow(watcher.pushes).book?.seqId === engineSeq && follow(joined.pushes).book?.seqId === engineSeq, `both clients at the engine's seqId ${engineSeq}`)

    for (const c of [watcher, joined]) {
      const { book, seqIds } = follow(c.pushes)
      // A snapshot, then every update after it, one by one.
      expect(seqIds.slice(1)).toEqual(seqIds.slice(1).map((_, i) => seqIds[0]! + i + 1))
      const engineBook = exchange.bookSnapshot()
      expect(book!.asks).toEqual(engineBook.asks)
      expect(book!.bids).toEqual(engineBook.bids)
    }
    expect(follow(joined.pushes).seqIds[0]).toBeGreaterThan(follow(watcher.pushes).seqIds[0]!)
    expect(follow(watcher.pushes).seqIds.length).toBeGreaterThan(30)
    // The first snapshot held the orders placed before the API process started (from the base).
    const first = watcher.pushes.find((p) => p.arg.channel === 'books')!
    expect(first.action).toBe('snapshot')
    expect((first.data[0] as BookData).bids.length).toBeGreaterThanOrEqual(20)

    // User 2's own order updates crossed; user 3 (another user on the same process) got none of them.
    await until(() => watcher.pushes.filter((p) => p.arg.channel === 'user@update_order').length >= mine.length, "user 2's order updates")
    const orderIds = new Set(watcher.pushes.filter((p) => p.arg.channel === 'user@update_order').flatMap((p) => (p.data as Order[]).map((o) => o.id)))
    for (const id of mine) expect(orderIds.has(id), `order ${id}`).toBe(true)
    expect(bystander.pushes).toEqual([])

    // The API process's bus connection dies while the engine trades on: its book clients get a fresh
    // snapshot from the re-based mirror and go on from it; a socket on a stream with no snapshot
    // (user@update_order) is told to reconnect, and a reconnect refreshes the app's screens.
    const reader = await client(port, 3, ['books:NADI-USDT'])
    await until(() => reader.pushes.length > 0, "the reader's snapshot")
    const closed = new Promise<number>((r) => watcher.ws.once('close', (code) => r(code)))
    const killer = openDatabase(db.url)
    try {
      expect(await killer.sql.all(statement<{ ok: unknown }>("SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'nadi bus api %'"))).toEqual([{ ok: 1n }])
    } finally {
      await killer.close()
    }
    for (let i = 1; i <= 5; i++) {
      clock += 1000
      await exchange.place(1, { side: 'sell', type: 'limit', price: 2100 + i, lots: 700, clientOrderId: `gap${i}` })
    }
    expect(await closed).toBe(MISSED_UPDATES)
    await until(() => reader.pushes.filter((p) => p.action === 'snapshot').length === 2, 'a fresh snapshot after the gap')
    await exchange.place(1, { side: 'buy', type: 'limit', price: 1900, lots: 700, clientOrderId: 'after' })
    const now = exchange.bookSnapshot()
    await until(() => follow(reader.pushes).book?.seqId === now.seqId, "the reader at the engine's seqId")
    expect(follow(reader.pushes).book!.asks).toEqual(now.asks)
    expect(follow(reader.pushes).book!.bids).toEqual(now.bids)
  })
})
