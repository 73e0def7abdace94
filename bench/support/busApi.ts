// The API side of the "socket fan-out across processes" row (bench/rows/exchange.ts), as its own
// process: argv <postgres url>. A hub whose bus is a PgBus of its own, the market's streams served
// from a mirror of the engine (server/roles/marketMirror.ts), sockets on a free loopback port.
// Prints `port <n>` once the mirror knows the market; SIGTERM closes it.

import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import { openDatabase } from '../../server/db/index.ts'
import { defaultSpec } from '../../server/exchange/engine/spec.ts'
import { tradeBalances } from '../../server/exchange/exchange.ts'
import { marketStreamsOf } from '../../server/exchange/streams.ts'
import { followMarket, mirrorView } from '../../server/roles/marketMirror.ts'
import { PgBus } from '../../server/roles/pgBus.ts'
import { Hub } from '../../server/ws/hub.ts'

const url = process.argv[2]!
const log = { info() {}, warn: (o: unknown, m?: string) => void process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`), error: (o: unknown, m?: string) => void process.stderr.write(`${m ?? ''} ${String((o as { err?: unknown }).err)}\n`) }
const conn = openDatabase(url)
const bus = new PgBus({ url, log, name: 'bench-api' })
const market = followMarket(bus, defaultSpec.instId, { retryMs: 500, log })
const hub = new Hub({ maxSubscriptions: 50, maxMessagesPerSecond: 20, heartbeatMs: 30_000, maxPayload: 4096 }, Date.now, undefined, { bus, log })
for (const f of marketStreamsOf(mirrorView(market.mirror, { now: Date.now, tradeBalances: (u) => tradeBalances(conn.sql, u) }))) hub.register(f)
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false })
wss.on('connection', (socket) => hub.attach(socket, null))
hub.start()
await new Promise((r) => wss.once('listening', r))
market.mirror.whenKnown(() => process.stdout.write(`port ${(wss.address() as AddressInfo).port}\n`))
process.on('SIGTERM', () => {
  hub.stop()
  market.close()
  wss.close()
  void bus
    .close()
    .then(() => conn.close())
    .then(() => process.exit(0))
})
