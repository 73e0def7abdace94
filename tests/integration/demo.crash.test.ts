// A crash test of the demo (issue 9 part 5): the real server as `npm start` runs it — dev chains, the
// demo market maker quoting and trading — with a socket client subscribed and two users trading over
// HTTP; kill -9 of its whole process group mid-flight, a restart on the same data folder, several
// times. Every start comes up with the market live, every acknowledged order is there, the ledger
// audits clean and the journal replays into exactly the open orders.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { MarketStatus, Ticker } from '../../contract/trade.ts'
import { openDatabase } from '../../server/db/index.ts'
import { defaultSpec } from '../../server/exchange/engine/index.ts'
import { diagnose } from '../../server/exchange/repairStore.ts'
import { audit } from '../../server/ledger/index.ts'
import { fundTraders, killChildren, killGroup, placeHttp as place, signInHttp, startChild } from './support/child.ts'
import { Client } from './support/wsClient.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import '../../server/ledger/holders.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'CRASH001'
const CYCLES = 4
/** Orders each start acknowledges before it is killed: with four starts, more than the 100 checked below. */
const PER_CYCLE = 30
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-demo-kill9-'))
// The demo's database: its data folder's SQLite file, or (project integration-pg) a database of the
// run's PostgreSQL cluster, which the same kill -9 cycles then hit.
const pg = testBackend() === 'postgres' ? freshDatabase() : null
const database = pg?.url ?? path.join(dir, 'nadi.sqlite')
afterAll(() => {
  killChildren()
  pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

const startDemo = () =>
  startChild(
    dir,
    {
      NADI_DEMO: '1',
      NADI_DEV_CHAINS: '1',
      NADI_DEMO_MARKET: '1',
      NADI_DEMO_MARKET_EVERY_MS: '150',
      NADI_ROOT_INVITE_CODE: CODE,
      // The same wallets sign in again after every restart, and sign-in limits outlive restarts.
      NADI_LOGIN_PER_IP: '100000',
      NADI_LOGIN_PER_ADDRESS: '100000',
      // Snapshots often, so restarts restore one and replay the journal after it.
      NADI_TRADE_SNAPSHOT_EVERY: '40',
      ...(pg ? { NADI_DATABASE_URL: pg.url } : {}),
    },
    '/api/v1/trade/market',
  )


/** With no server running: the ledger balances, frozen = open orders, and the journal replays into the open orders. */
async function checkFolder(acked: Map<string, number>) {
  const db = openDatabase(database)
  try {
    const byClient = statement<{ id: bigint }, [string]>('SELECT id FROM trade_orders WHERE client_order_id = ?')
    const missing: [string, number][] = []
    for (const [cid, id] of acked) if (Number((await db.sql.get(byClient, cid))?.id ?? -1) !== id) missing.push([cid, id])
    expect(missing).toEqual([])
    expect((await audit(db.sql)).violations).toEqual([])
    const d = await db.sql.transaction((tx) => diagnose(tx, defaultSpec))
    expect(d.replay.ok, JSON.stringify(d.replay)).toBe(true)
    expect(d.healthy).toBe(true)
    return Number((await db.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM trade_fills')))!.v)
  } finally {
    await db.close()
  }
}

it(`the demo survives kill -9 of its process group ${CYCLES} times: every start live, no acknowledged order lost, the audit clean`, { timeout: 240_000 }, async () => {
  const wallets = [Wallet.createRandom(), Wallet.createRandom()]
  // First start: the two users sign up; their trade accounts are funded while no server runs.
  const first = await startDemo()
  const firstTokens = await Promise.all(wallets.map((w) => signInHttp(first.base, w, CODE)))
  expect(firstTokens).toHaveLength(2)
  killGroup(first.proc)
  await first.exited
  await fundTraders(database, wallets.map((w) => w.address), 'crash')

  const acked = new Map<string, number>()
  let fillsBefore = 0
  let n = 0
  const starts: number[] = []
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const t0 = Date.now()
    const server = await startDemo()
    starts.push(Date.now() - t0)
    const status = ((await (await fetch(`${server.base}/api/v1/trade/status?inst_id=NADI-USDT`)).json()) as ApiEnvelope<MarketStatus>).data
    expect(status.state).toBe('live')
    const tokens = await Promise.all(wallets.map((w) => signInHttp(server.base, w, CODE)))

    // A socket client on the public streams and one user's orders.
    const ws = await Client.open(server.base, tokens[0])
    ws.send({ method: 'SUBSCRIBE', params: ['status:NADI-USDT', 'books:NADI-USDT', 'trades:NADI-USDT', 'user@update_order'], id: 1 })
    const frames: { arg?: { channel: string }; data?: unknown[] }[] = []
    const reading = (async () => {
      for (;;) {
        try {
          frames.push(await ws.next(1_500))
        } catch {
          return
        }
        if (ws.closed) return
      }
    })()

    // Both users trade around the market's last price as fast as they are answered; the server dies mid-flight.
    const last = ((await (await fetch(`${server.base}/api/v1/trade/ticker?inst_id=NADI-USDT`)).json()) as ApiEnvelope<Ticker>).data.last ?? '0.25'
    const mid = Number(last)
    let stop = false
    const client = async (k: number) => {
      while (!stop) {
        const i = n++
        const cid = `c${cycle}-${k}-${i}`
        const price = (mid * (0.99 + ((i * 7919) % 21) / 1000)).toFixed(4)
        const res = await place(server.base, tokens[k % 2]!, { side: i % 2 === 0 ? 'buy' : 'sell', price, size: `${10 + (i % 40)}`, client_order_id: cid })
        if (res?.code === 200) acked.set(cid, res.data.id)
        if (res === null) return
      }
    }
    const load = Array.from({ length: 8 }, (_, k) => client(k))
    // Killed mid-flight once this start acknowledged enough orders to matter, however slow the
    // machine: a fixed wait gave 67 orders in all on a loaded CI runner on PostgreSQL.
    const ackedBefore = acked.size
    const since = Date.now()
    while (Date.now() - since < 1200 + cycle * 300 || (acked.size - ackedBefore < PER_CYCLE && Date.now() - since < 60_000)) await new Promise((r) => setTimeout(r, 50))
    killGroup(server.proc)
    await server.exited
    stop = true
    await Promise.all(load)
    await reading

    // The socket was live: a status snapshot saying live, the book, and pushes of the users' orders.
    expect(frames.find((f) => f.arg?.channel === 'status')?.data?.[0]).toMatchObject({ state: 'live' })
    expect(frames.some((f) => f.arg?.channel === 'books')).toBe(true)
    expect(frames.some((f) => f.arg?.channel === 'user@update_order')).toBe(true)

    const fills = await checkFolder(acked)
    expect(fills).toBeGreaterThan(fillsBefore)
    fillsBefore = fills
  }
  expect(acked.size).toBeGreaterThan(100)

  // And once more: it comes up live and takes orders.
  const last = await startDemo()
  const token = await signInHttp(last.base, wallets[0]!, CODE)
  expect(((await (await fetch(`${last.base}/api/v1/trade/status?inst_id=NADI-USDT`)).json()) as ApiEnvelope<MarketStatus>).data.state).toBe('live')
  expect((await place(last.base, token, { side: 'buy', price: '0.1', size: '10', client_order_id: 'after-the-crashes' }))?.code).toBe(200)
  killGroup(last.proc)
  await last.exited
  console.log(`demo crash test: ${CYCLES} kills, ${acked.size} acknowledged orders checked, ${fillsBefore} fills, starts took ${starts.join(', ')} ms`)
})
