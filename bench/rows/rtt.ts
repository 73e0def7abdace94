// What a database on another host costs one api process (issue 34 §6): the read mix and order
// placement of ./processes.ts through one `--role all` server on PostgreSQL, straight to the cluster,
// then through a proxy that adds 1 ms of round trip (../support/delayProxy.ts). With a synchronous
// driver every statement's round trip holds the event loop, so the added millisecond is paid per
// statement by every request; the targets are the issue's: reads fall by at most 30 %, orders by at
// most 50 %.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Wallet } from 'ethers'
import '../../server/ledger/holders.ts'
import { fundTraders, killGroup, signInHttp, startChild, type Child } from '../../tests/integration/support/child.ts'
import { setup as bundleServer } from '../../tests/support/serverBundle.ts'
import { delayProxy } from '../support/delayProxy.ts'
import { onPostgres } from '../support/postgres.ts'
import type { BenchContext, Row } from '../support/types.ts'
import { drive, orderMix, perSecond, readMix, type Request } from './processes.ts'

export const id = 'rtt'

const CODE = 'BENCHRTT1'
const READY = '/api/v1/trade/market'
const USERS = 24
const RTT_MS = 1
const POOL = 24
const WARM_UP_MS = 1_500
const WINDOW_MS = 3_000

async function rates(base: string, mixes: { reads: () => Request; orders: () => Request }) {
  await drive([base], mixes.reads, WARM_UP_MS)
  const reads = await drive([base], mixes.reads, WINDOW_MS)
  const orders = await drive([base], mixes.orders, WINDOW_MS)
  return { reads: (reads.ok / reads.ms) * 1000, orders: (orders.ok / orders.ms) * 1000, readsP99: reads.p99Ms, ordersP99: orders.p99Ms }
}

async function measure(ctx: BenchContext, url: string): Promise<Row[]> {
  await bundleServer()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-bench-rtt-'))
  const u = new URL(url)
  const proxy = await delayProxy({ host: u.hostname, port: Number(u.port) }, RTT_MS)
  const delayed = new URL(url)
  delayed.port = String(proxy.port)
  // The pool docs/settings.md sizes for a database on another host, near and far alike, so the ratio
  // is the round trip's alone.
  const env = { NADI_ROOT_INVITE_CODE: CODE, NADI_LOGIN_PER_IP: '100000', NADI_TRADE_MAX_OPEN_ORDERS: '100000', NADI_PG_POOL: String(POOL) }
  let server: Child | null = null
  const start = async (dbUrl: string) => (server = await startChild(dir, { ...env, NADI_DATABASE_URL: dbUrl }, READY))
  const stop = async () => {
    if (!server) return
    killGroup(server.proc)
    await server.exited
    server = null
  }
  try {
    const direct = await start(url)
    const wallets = Array.from({ length: USERS }, () => Wallet.createRandom())
    const tokens: string[] = []
    for (let i = 0; i < wallets.length; i += 8) tokens.push(...(await Promise.all(wallets.slice(i, i + 8).map((w) => signInHttp(direct.base, w, CODE)))))
    await stop()
    await fundTraders(url, wallets.map((w) => w.address), 'bench-rtt')
    const mixes = (tag: string) => ({ reads: readMix(tokens), orders: orderMix(tokens, tag) })
    const near = await rates((await start(url)).base, mixes('n'))
    await stop()
    const far = await rates((await start(delayed.href)).base, mixes('f'))
    await stop()
    ctx.log(`rtt: reads ${perSecond(near.reads)} → ${perSecond(far.reads)}, orders ${perSecond(near.orders)} → ${perSecond(far.orders)} with +${RTT_MS} ms to PostgreSQL`)
    const row = (what: string, a: number, b: number, min: number, p99: number): Row => ({
      name: `one api process (NADI_PG_POOL=${POOL}), ${what}/s with +${RTT_MS} ms of round trip to PostgreSQL, × without (p99 ${p99.toFixed(0)} ms)`,
      measured: `${(b / a).toFixed(2)}× (${perSecond(b)} of ${perSecond(a)})`,
      target: `≥ ${min.toFixed(2)}×`,
      pass: b / a >= min,
      value: b / a,
      unit: '×',
      limit: min,
      details: { without: a, with: b },
    })
    return [row('reads', near.reads, far.reads, 0.7, far.readsP99), row('orders', near.orders, far.orders, 0.5, far.ordersP99)]
  } finally {
    await stop()
    await proxy.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  return onPostgres(ctx, 'rtt', (url) => measure(ctx, url))
}
