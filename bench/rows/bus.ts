// Socket fan-out across processes (issue 19), beside the in-process row of ./exchange.ts: the same
// drive (book changes through the exchange) and the same receiver (1,000 sockets in a worker), but the
// engine publishes through a PgBus and the sockets are held by another process whose hub a second
// PgBus feeds, so the difference is what PostgreSQL's NOTIFY and a second process cost.

import { spawn } from 'node:child_process'
import path from 'node:path'
import '../../server/ledger/holders.ts'
import { openDatabase } from '../../server/db/index.ts'
import { migrateDatabase } from '../../server/db/migrate.ts'
import { defaultFees, defaultSpec } from '../../server/exchange/engine/spec.ts'
import { Exchange } from '../../server/exchange/exchange.ts'
import { custody, trade, transfer } from '../../server/ledger/index.ts'
import { serveMarketBase } from '../../server/roles/marketMirror.ts'
import { PgBus } from '../../server/roles/pgBus.ts'
import { busPublisher } from '../../server/ws/hub.ts'
import { onPostgres } from '../support/postgres.ts'
import { millis } from '../support/stats.ts'
import { info, type BenchContext, type Row } from '../support/types.ts'
import { fanoutRows, UNITS, WS_CLIENTS } from './exchange.ts'
import { statement } from '../../server/db/query/types.ts'

export const id = 'bus'

const ACROSS_NAME = `socket fan-out across processes (PostgreSQL bus): ${WS_CLIENTS.toLocaleString('en-US')} book subscribers`

/** The engine here, as an engine process publishes; the sockets on bench/support/busApi.ts, which answers subscribers from its mirror. */
async function acrossRows(ctx: BenchContext, url: string): Promise<Row[]> {
  const conn = openDatabase(url)
  const { sql } = conn
  const quiet = { info() {}, warn: (o: unknown, m?: string) => ctx.log(`bus: ${m ?? ''} ${JSON.stringify(o)}`), error: (o: unknown, m?: string) => ctx.log(`bus: ${m ?? ''} ${String((o as { err?: unknown }).err)}`) }
  await migrateDatabase(conn)
  const userId = Number((await sql.get(statement<{ id: bigint }>('INSERT INTO users (code, name, created_at) VALUES (?, ?, 0) RETURNING id'), 'BXBUS', 'bench bus'))!.id)
  await transfer(sql, { ref: `seed:${userId}:USDT`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset: 'USDT', amount: 1_000_000n * UNITS })
  const bus = new PgBus({ url, log: quiet, name: 'bench-engine' })
  const ex = new Exchange({ conn, spec: defaultSpec, fees: defaultFees, now: Date.now, publisher: busPublisher(bus) })
  await ex.start()
  const stopServing = serveMarketBase(bus, ex)
  const api = spawn(process.execPath, ['--import', 'tsx', path.join(ctx.root, 'bench/support/busApi.ts'), url], { cwd: ctx.root, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    let err = ''
    api.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`the API process did not start within 30 s: ${err}`)), 30_000)
      api.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /port (\d+)/.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve(Number(m[1]))
        }
      })
      api.once('exit', (code) => reject(new Error(`the API process exited (${code}): ${err}`)))
    })
    return await fanoutRows(ctx, { exchange: ex, userId, wsUrl: `ws://127.0.0.1:${port}/`, label: ' across processes (PostgreSQL bus)' })
  } finally {
    api.kill('SIGTERM')
    stopServing()
    await ex.close()
    await bus.close()
    await conn.close()
  }
}

const HOP_NAME = 'bus: publish → delivery on another connection (PgBus, 200 messages at 100/s)'
const HOP_MESSAGES = 200

/** What the bus itself adds: one message from one PgBus to another, same process, same clock. */
async function hopRows(ctx: BenchContext, url: string): Promise<Row[]> {
  const log = { info() {}, warn: (o: unknown, m?: string) => ctx.log(`bus: ${m ?? ''} ${JSON.stringify(o)}`), error: (o: unknown, m?: string) => ctx.log(`bus: ${m ?? ''}`) }
  const from = new PgBus({ url, log, name: 'bench-from' })
  const to = new PgBus({ url, log, name: 'bench-to' })
  try {
    const ms: number[] = []
    to.subscribe('books:BENCH', (p) => ms.push(performance.now() - (p as { at: number }).at))
    await Promise.all([from.settled(), to.settled()])
    for (let i = 0; i < HOP_MESSAGES; i++) {
      from.publish('books:BENCH', { at: performance.now(), i })
      await new Promise((r) => setTimeout(r, 10))
    }
    await to.settled()
    if (ms.length !== HOP_MESSAGES) throw new Error(`${ms.length} of ${HOP_MESSAGES} messages arrived`)
    ms.sort((a, b) => a - b)
    const p50 = ms[Math.floor(ms.length * 0.5)]!
    const p99 = ms[Math.floor(ms.length * 0.99)]!
    ctx.log(`bus: one hop p50 ${millis(p50)}, p99 ${millis(p99)}`)
    return [info({ name: HOP_NAME, value: p99, unit: 'ms', format: (v) => `p99 ${millis(v)} (p50 ${millis(p50)})`, details: { p50Ms: p50, p99Ms: p99, maxMs: ms.at(-1), messages: HOP_MESSAGES } })]
  } finally {
    await from.close()
    await to.close()
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const across = await onPostgres(ctx, ACROSS_NAME, (url) => acrossRows(ctx, url))
  return [...across, ...(await onPostgres(ctx, HOP_NAME, (url) => hopRows(ctx, url)))]
}
