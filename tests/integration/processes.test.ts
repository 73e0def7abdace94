// Several processes for real (issue 19, docs/processes.md): two api processes, two engine candidates
// and a jobs process on one PostgreSQL database, each a child process. Users trade through api A and
// watch through api B; the engine leader is killed with -9 under load and the standby takes over;
// then api A is killed and its socket reconnects to B. Throughout: every acknowledged order is in the
// database under its client id, the book B's sockets build (seqIds continuous, checksums matching,
// with the app's own rules) is the engine's, and the ledger audit is clean.

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import WebSocket from 'ws'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { PushFrame } from '../../contract/socket.ts'
import type { BookData, Depth, Order } from '../../contract/trade.ts'
import { applyBookMessage, type LocalBook } from '../../src/api/socketBook.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit } from '../../server/ledger/index.ts'
import '../../server/ledger/holders.ts'
import { localeText } from './support/server.ts'
import { fundTraders, killChildren, placeHttp as place, signInHttp, startChild, type Child } from './support/child.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'ROOT0001'
const HEALTH = '/api/v1/common/health'
const READY = '/api/v1/trade/market'
const INST = 'NADI-USDT'
const dirs: string[] = []
const dbs: TestDatabase[] = []
const sockets: WebSocket[] = []
afterAll(() => {
  for (const s of sockets) s.terminate()
  killChildren()
  for (const d of dbs) d.drop()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

async function until<T>(fn: () => T | Promise<T>, what: string, ms = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function health(c: Child): Promise<{ leading: boolean } | null> {
  try {
    const r = await fetch(`${c.base}${HEALTH}`)
    return ((await r.json()) as ApiEnvelope<{ leading: boolean }>).data
  } catch {
    return null
  }
}

/** A socket of the app on an api process, recording pushes; the book it keeps with the app's rules. */
async function watch(base: string, token: string, streams: string[]) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?token=${token}`)
  sockets.push(ws)
  const pushes: PushFrame[] = []
  let book: LocalBook | null = null
  const problems: string[] = []
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  ws.on('message', (raw) => {
    const f = JSON.parse(raw.toString()) as PushFrame
    if (!('arg' in f)) return
    pushes.push(f)
    if (f.arg.channel !== 'books') return
    for (const d of f.data as BookData[]) {
      const step = applyBookMessage(book, f.action, d)
      if (step.ok) book = step.book
      else if (step.reason !== 'no-snapshot') problems.push(`${step.reason} at ${d.seqId} after ${book?.seqId}`)
    }
  })
  await new Promise((r, j) => {
    ws.once('open', r)
    ws.once('error', j)
  })
  ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: streams, id: 1 }))
  return { ws, pushes, problems, closed, book: () => book }
}

const levelsOf = (l: [string, string][]) => l.map(([p, s]) => `${p}@${s}`).join(' ')

describe.runIf(testBackend() === 'postgres')('several processes on one database', () => {
  it('trade through A, watch through B; kill -9 of the engine leader under load: the standby leads, every acknowledged order is kept, the audit is clean; kill -9 of A: its socket reconnects to B; with no engine, trading is paused and the rest serves', { timeout: 180_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-processes-'))
    dirs.push(dir)
    const env = { NADI_DATABASE_URL: db.url, NADI_ROOT_INVITE_CODE: CODE, NADI_LOGIN_PER_IP: '100000', NADI_TRADE_SNAPSHOT_EVERY: '50' }
    const role = (r: string, ready: string) => startChild(dir, env, ready, ['--role', r])
    const [e1, a] = await Promise.all([role('engine', HEALTH), role('api', READY)])
    await until(async () => (await health(e1))?.leading, 'the first engine to lead')
    const [e2, b, jobs] = await Promise.all([role('engine', HEALTH), role('api', READY), role('jobs', HEALTH)])
    expect((await health(e2))?.leading).toBe(false)
    await until(async () => (await health(jobs))?.leading, 'the jobs process to lead')

    const wallets = Array.from({ length: 4 }, () => Wallet.createRandom())
    const tokens = await Promise.all(wallets.map((w) => signInHttp(a.base, w, CODE)))
    await fundTraders(db.url, wallets.map((w) => w.address), 'processes')

    // An order through A: its owner's socket on B hears of it, and B's book shows it.
    const onB = await watch(b.base, tokens[0]!, [`books:${INST}`, 'user@update_order'])
    await until(() => onB.book(), 'the first book snapshot on B')
    const first = await place(a.base, tokens[0]!, { side: 'buy', price: '0.2', size: '10', client_order_id: 'first' })
    expect(first?.code).toBe(200)
    await until(() => onB.pushes.some((p) => p.arg.channel === 'user@update_order' && (p.data as Order[]).some((o) => o.id === first!.data.id)), "the order's update on B")
    await until(() => onB.book()?.bids.some(([p]) => p === '0.2'), 'the order in B’s book')

    // Crossing orders through both api processes as fast as they answer; the engine leader dies mid-flight.
    const acked = new Map<string, number>()
    const answers = { ok: 0, paused: 0, other: new Set<string>() }
    let firstAfterKill: number | null = null
    let killedAt = 0
    let stop = false
    let n = 0
    const client = async (k: number) => {
      while (!stop) {
        const i = n++
        const cid = `p${k}-${i}`
        const via = i % 2 === 0 ? a : b
        const res = await place(via.base, tokens[k % tokens.length]!, { side: i % 2 === 0 ? 'buy' : 'sell', price: (0.24 + ((i * 7919) % 20) / 1000).toFixed(3), size: `${10 + (i % 50)}`, client_order_id: cid })
        if (res?.code === 200) {
          acked.set(cid, res.data.id)
          answers.ok++
          if (killedAt && firstAfterKill === null) firstAfterKill = Date.now() - killedAt
        } else if (res?.code === 503) answers.paused++
        else answers.other.add(JSON.stringify(res))
      }
    }
    const load = Array.from({ length: 12 }, (_, k) => client(k))
    await until(() => acked.size >= 40, 'orders acknowledged before the kill')
    e1.proc.kill('SIGKILL')
    killedAt = Date.now()
    await e1.exited
    await until(async () => (await health(e2))?.leading, 'the standby engine to lead', 10_000)
    const ledAfter = Date.now() - killedAt
    await until(() => firstAfterKill !== null && acked.size >= 120, 'orders acknowledged after the failover')
    stop = true
    await Promise.all(load)
    expect([...answers.other]).toEqual([])
    // Within 5 s of the leader's death the standby leads (its election polls every second).
    expect(ledAfter).toBeLessThan(5_000)

    // Every acknowledged order is in the database under its client id; no command is left unanswered.
    const conn = openDatabase(db.url)
    try {
      const byClient = statement<{ id: bigint }, [string]>('SELECT id FROM trade_orders WHERE client_order_id = ?')
      const missing: [string, number][] = []
      for (const [cid, id] of acked) if (Number((await conn.sql.get(byClient, cid))?.id ?? -1) !== id) missing.push([cid, id])
      expect(missing).toEqual([])
      expect((await conn.sql.get(statement<{ v: bigint }>("SELECT COUNT(*) AS v FROM trade_commands WHERE status IN ('pending', 'taken')")))?.v).toBe(0n)
      expect((await audit(conn.sql)).violations).toEqual([])
    } finally {
      await conn.close()
    }

    // B's socket followed both engines: its book is the new engine's, and nothing was out of step for good.
    const depth = async (c: Child) => ((await (await fetch(`${c.base}/api/v1/trade/depth?inst_id=${INST}&size=25`)).json()) as ApiEnvelope<Depth>).data
    await until(async () => {
      const d = await depth(b)
      const mine = onB.book()
      return mine && levelsOf(d.bids) === levelsOf(mine.bids.slice(0, 25)) && levelsOf(d.asks) === levelsOf(mine.asks.slice(0, 25))
    }, 'B’s socket book to match B’s depth')

    // B's candles (the engine's saved ones and the mirror's current one) end at B's last price.
    const get = async <T>(c: Child, q: string) => ((await (await fetch(`${c.base}/api/v1/trade/${q}`)).json()) as ApiEnvelope<T>).data
    const candles = (await get<{ list: [number, string, string, string, string, string, string][] }>(b, `klines?inst_id=${INST}&bar=1m&limit=5`)).list
    expect(candles.length).toBeGreaterThan(0)
    expect(candles.at(-1)![4]).toBe((await get<{ last: string }>(b, `ticker?inst_id=${INST}`)).last)

    // kill -9 of A: a socket on A closes; the app reconnects to B (the balancer's other upstream) and trades on.
    const onA = await watch(a.base, tokens[1]!, [`books:${INST}`, 'user@update_order'])
    await until(() => onA.book(), 'a book snapshot on A')
    a.proc.kill('SIGKILL')
    await a.exited
    expect(await onA.closed).toBe(1006)
    const again = await watch(b.base, tokens[1]!, [`books:${INST}`, 'user@update_order'])
    await until(() => again.book(), 'a fresh snapshot after reconnecting to B')
    const after = await place(b.base, tokens[1]!, { side: 'sell', price: '0.5', size: '10', client_order_id: 'after-a-died' })
    expect(after?.code).toBe(200)
    await until(() => again.pushes.some((p) => p.arg.channel === 'user@update_order' && (p.data as Order[]).some((o) => o.id === after!.data.id)), 'the order update on the reconnected socket')
    expect([...onB.problems, ...again.problems]).toEqual([])

    // No engine at all: trading answers "paused" in the user's language, the market reads halted, the rest serves.
    e2.proc.kill('SIGKILL')
    await e2.exited
    const paused = await until(async () => {
      const r = await fetch(`${b.base}/api/v1/trade/placeOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[2]}`, lang: 'EN', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ inst_id: INST, side: 'buy', type: 'limit', price: '0.2', size: '10', client_order_id: 'while-paused' }),
      })
      return r.status === 503 ? ((await r.json()) as ApiEnvelope<null>) : null
    }, 'trading to answer paused')
    expect(paused.msg).toBe(localeText('en', 'errors.tradingPaused'))
    const status = ((await (await fetch(`${b.base}/api/v1/trade/status?inst_id=${INST}`)).json()) as ApiEnvelope<{ state: string }>).data
    expect(status.state).toBe('halted')
    expect((await fetch(`${b.base}/api/v1/user/info`, { headers: { authorization: `Bearer ${tokens[2]}` } })).status).toBe(200)
    // An engine again: it leads, and trading resumes.
    const e3 = await role('engine', HEALTH)
    await until(async () => (await health(e3))?.leading, 'the new engine to lead')
    const resumed = await until(async () => {
      const r = await place(b.base, tokens[2]!, { side: 'buy', price: '0.2', size: '10', client_order_id: 'resumed' })
      return r?.code === 200 ? r : null
    }, 'trading to resume')
    expect(resumed.data.client_order_id).toBe('resumed')
  })
})
