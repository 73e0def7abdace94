// kill -9 under load, for real (issue 5 part 2): the server runs as a child process (`node --import
// tsx server/main.ts`) while clients place crossing orders over HTTP as fast as it answers; it is
// killed mid-flight. Every order it acknowledged must be in the database afterwards, the ledger must
// balance with frozen = what open orders hold, and the restarted server must rebuild the same book
// from its journal and keep trading.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { Depth } from '../../contract/trade.ts'
import { parseMoney } from '../../contract/money.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit } from '../../server/ledger/index.ts'
import { fundTraders, killChildren, placeHttp as place, signInHttp, startChild } from './support/child.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import '../../server/ledger/holders.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'ROOT0001'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-trade-kill9-'))
// The data folder's SQLite file, or (project integration-pg) a database of the run's cluster.
const pg = testBackend() === 'postgres' ? freshDatabase() : null
const database = pg?.url ?? path.join(dir, 'nadi.sqlite')
afterAll(() => {
  killChildren()
  pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

const startServer = () =>
  startChild(
    dir,
    {
      NADI_ROOT_INVITE_CODE: CODE,
      NADI_LOGIN_PER_IP: '100000',
      // Snapshots often, so the restart restores one and replays the journal after it.
      NADI_TRADE_SNAPSHOT_EVERY: '50',
      ...(pg ? { NADI_DATABASE_URL: pg.url } : {}),
    },
    '/api/v1/trade/market',
  )


it('kill -9 under load loses no acknowledged order; the restart rebuilds the same book and keeps trading', { timeout: 90_000 }, async () => {
  const first = await startServer()
  const wallets = Array.from({ length: 4 }, () => Wallet.createRandom())
  const tokens = await Promise.all(wallets.map((w) => signInHttp(first.base, w, CODE)))
  await fundTraders(database, wallets.map((w) => w.address), 'kill9')

  // Clients placing crossing orders around 0.25 as fast as they are answered; the server dies mid-flight.
  const acked = new Map<string, number>()
  let stop = false
  let n = 0
  const client = async (k: number) => {
    while (!stop) {
      const i = n++
      const cid = `k${k}-${i}`
      const buy = i % 2 === 0
      const price = (0.24 + ((i * 7919) % 20) / 1000).toFixed(3)
      const res = await place(first.base, tokens[k % tokens.length]!, { side: buy ? 'buy' : 'sell', price, size: `${10 + (i % 50)}`, client_order_id: cid })
      if (res?.code === 200) acked.set(cid, res.data.id)
      if (res === null) return
    }
  }
  const load = Array.from({ length: 24 }, (_, k) => client(k))
  // Killed once enough orders are acknowledged, not after a fixed time: on a busy CI machine (the
  // browser suite runs beside it) 1.5 s once held only 36 answers.
  await expect.poll(() => acked.size, { timeout: 45_000, interval: 20 }).toBeGreaterThanOrEqual(80)
  first.proc.kill('SIGKILL')
  await first.exited
  stop = true
  await Promise.all(load)
  expect(acked.size).toBeGreaterThan(50)

  // Every acknowledged order is there, under its client id; the ledger balances, frozen = open orders.
  const db = openDatabase(database)
  try {
    const byClient = statement<{ id: bigint }, [string]>('SELECT id FROM trade_orders WHERE client_order_id = ?')
    const missing: [string, number][] = []
    for (const [cid, id] of acked) if (Number((await db.sql.get(byClient, cid))?.id ?? -1) !== id) missing.push([cid, id])
    expect(missing).toEqual([])
    expect((await audit(db.sql)).violations).toEqual([])
    expect(Number((await db.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM trade_fills')))?.v)).toBeGreaterThan(0)
    const open = await db.sql.all(statement<{ side: string; price: bigint; left: bigint }>("SELECT side, price, SUM(size - filled) AS left FROM trade_orders WHERE status IN ('pending', 'partially_filled') GROUP BY side, price"))

    // The restart replays the journal into the same book the database describes.
    const second = await startServer()
    const depth = ((await (await fetch(`${second.base}/api/v1/trade/depth?inst_id=NADI-USDT&size=400`)).json()) as ApiEnvelope<Depth>).data
    const levels = (s: 'buy' | 'sell') =>
      open
        .filter((r) => r.side === s)
        .map((r) => [r.price, r.left] as const)
        .sort((a, b) => (s === 'buy' ? Number(b[0] - a[0]) : Number(a[0] - b[0])))
    const wire = (l: [string, string][]) => l.map(([p, q]) => [parseMoney(p)!, parseMoney(q)!] as const)
    expect(wire(depth.bids)).toEqual(levels('buy'))
    expect(wire(depth.asks)).toEqual(levels('sell'))
    const after = await place(second.base, tokens[0]!, { side: 'buy', price: '0.3', size: '10', client_order_id: 'after-restart' })
    expect(after?.code).toBe(200)
    second.proc.kill('SIGTERM')
    await second.exited
  } finally {
    await db.close()
  }
})
