// The data folder two overlapping servers left (../shared/fixtures/journal-refused-on-replay): its
// journal stops replaying at a cancel of order 99. It must start and stay up with the market halted
// (issue 9 parts 2 and 3): trading refused with a localized "trading is paused", the socket saying
// so, everything else serving; the audit reports the true state; `market check` says where the
// journal stops and what a repair would do; `market repair`, run inside the live server, rebuilds the
// book from the open orders and the ledger, the market comes back live, the audit is clean, and the
// next start is live too.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { Depth, MarketStatus } from '../../contract/trade.ts'
import { openDatabase } from '../../server/db/index.ts'
import { translate } from '../../server/i18n.ts'
import { killChildren, killGroup, runCli, signInHttp, startChild } from './support/child.ts'
import { Client } from './support/wsClient.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/journal-refused-on-replay/nadi.sqlite')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-halt-'))
const databases: TestDatabase[] = []
afterAll(() => {
  killChildren()
  for (const d of databases) d.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

/**
 * The fixture in `folder`; in the integration-pg project moved as it is (`move-to --as-is`: it fails
 * its audit) into a database of the run's cluster. Answers the environment that points there.
 */
async function fixtureIn(folder: string): Promise<Record<string, string>> {
  fs.copyFileSync(FIXTURE, path.join(folder, 'nadi.sqlite'))
  if (testBackend() !== 'postgres') return {}
  const db = freshDatabase({ empty: true })
  databases.push(db)
  const moved = await runCli(folder, ['move-to', db.url, '--as-is'])
  expect(moved.out, moved.err).toContain('the audit finds the same 1 problem(s) on both sides')
  expect(moved.code).toBe(0)
  return { NADI_DATABASE_URL: db.url }
}

const getJson = async <T>(url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers })
  return { status: res.status, body: (await res.json()) as ApiEnvelope<T> }
}
const postJson = async <T>(url: string, body: unknown, headers: Record<string, string>) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as ApiEnvelope<T> }
}

it('the fixture starts with its market halted, the rest serves, and the operator repairs it without a restart', { timeout: 120_000 }, async () => {
  const env = await fixtureIn(dir)
  const server = await startChild(dir, env, '/api/v1/common/mainInfo')
  const base = server.base

  // Halted, with the journal row where replay stops; the log says so.
  const status = await getJson<MarketStatus>(`${base}/api/v1/trade/status?inst_id=NADI-USDT`)
  expect(status.body.data).toMatchObject({ state: 'halted', journal_seq: 244 })
  expect(server.output()).toContain('the market is HALTED')
  const ws = await Client.open(base)
  ws.send({ method: 'SUBSCRIBE', params: ['status:NADI-USDT'], id: 1 })
  expect(await ws.next()).toEqual({ id: 1, result: null })
  expect(await ws.next()).toMatchObject({ arg: { channel: 'status', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ state: 'halted', journal_seq: 244 }] })

  // Everything else serves: sign-in of a new user under an existing invite code, their balances.
  const token = await signInHttp(base, Wallet.createRandom(), 'DEMOTAKER')
  const auth = { authorization: `Bearer ${token}` }
  expect((await getJson(`${base}/api/v1/wallet/balances`, auth)).status).toBe(200)
  // Trading is refused in the user's language, and the refusal is not stored under its Idempotency-Key.
  const order = { inst_id: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.25', size: '10', client_order_id: 'while-halted' }
  const en = await postJson(`${base}/api/v1/trade/placeOrder`, order, { ...auth, lang: 'EN', 'idempotency-key': 'k-halted-1' })
  expect(en.status).toBe(503)
  expect(en.body).toMatchObject({ code: 503, msg: translate('EN', 'errors.tradingPaused') })
  const tw = await postJson(`${base}/api/v1/trade/cancelOrder`, { order_id: 123 }, { ...auth, lang: 'TW', 'idempotency-key': 'k-halted-2' })
  expect(tw).toMatchObject({ status: 503, body: { msg: translate('TW', 'errors.tradingPaused') } })
  expect(translate('TW', 'errors.tradingPaused')).not.toBe(translate('EN', 'errors.tradingPaused'))

  // The audit reports the folder's true state: user 2's open orders hold more USDT than the ledger froze.
  const audit = await runCli(dir, ['audit'], env)
  expect(audit.code).toBe(1)
  expect(audit.out).toContain('[frozen-vs-holders] account 5 (user 2 trade USDT): frozen 586.683275, holders hold 1347.589982')
  const check = await runCli(dir, ['market', 'check'], env)
  expect(check.code).toBe(1)
  expect(check.out).toContain('replay: FAILS at journal row 244')
  expect(check.out).toContain('user 2 trade USDT: ledger frozen 586.683275, open orders hold 1347.589982')

  // The repair runs inside the live server and prints what it did; the socket hears the market come back.
  const repair = await runCli(dir, ['market', 'repair'], env)
  expect(repair.err).toContain(`run inside server pid ${server.proc.pid}`)
  expect(repair.code).toBe(0)
  expect(repair.out).toContain('market NADI-USDT repaired')
  expect(repair.out).toContain('it was halted: exchange: journal row 244 was refused on replay')
  expect(repair.out).toMatch(/cancel order 145 of user 2 \(buy limit, holds 56\.807609 USDT\): the ledger has not frozen what it holds/)
  expect(repair.out).toContain('now: live')
  let pushed: { arg: { channel: string }; data: MarketStatus[] } | undefined
  for (let i = 0; i < 10 && pushed?.arg.channel !== 'status'; i++) pushed = await ws.next(5000)
  expect(pushed?.data[0]).toMatchObject({ state: 'live' })
  ws.close()

  expect((await getJson<MarketStatus>(`${base}/api/v1/trade/status?inst_id=NADI-USDT`)).body.data.state).toBe('live')
  const depth = (await getJson<Depth>(`${base}/api/v1/trade/depth?inst_id=NADI-USDT&size=400`)).body.data
  expect(depth.bids.length + depth.asks.length).toBe(18)
  expect((await runCli(dir, ['audit'], env)).code).toBe(0)
  expect((await runCli(dir, ['market', 'check'], env)).code).toBe(0)
  // Trading again: the same request is now judged on its merits (this user has no USDT in trade).
  const again = await postJson(`${base}/api/v1/trade/placeOrder`, order, { ...auth, lang: 'EN', 'idempotency-key': 'k-halted-1' })
  expect(again.status).toBe(400)
  expect(again.body.code).not.toBe(503)

  // The next start on the folder is live from the repaired snapshot.
  killGroup(server.proc)
  await server.exited
  const next = await startChild(dir, env, '/api/v1/common/mainInfo')
  expect((await getJson<MarketStatus>(`${next.base}/api/v1/trade/status?inst_id=NADI-USDT`)).body.data.state).toBe('live')
  expect((await getJson<Depth>(`${next.base}/api/v1/trade/depth?inst_id=NADI-USDT&size=400`)).body.data).toMatchObject({ bids: depth.bids, asks: depth.asks })
  killGroup(next.proc)
  await next.exited
})

it('repairing a stopped server\'s folder takes the lock itself and prints what it did', { timeout: 60_000 }, async () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-halt-offline-'))
  try {
    const env = await fixtureIn(d)
    const r = await runCli(d, ['market', 'repair'], env)
    expect(r.code).toBe(0)
    expect(r.err).not.toContain('run inside')
    expect(r.out).toContain('release 36.843756 USDT of user 2')
    expect((await runCli(d, ['audit'], env)).code).toBe(0)
    // The order the repair cancelled says so in its owner's history.
    const db = openDatabase(env.NADI_DATABASE_URL ?? path.join(d, 'nadi.sqlite'))
    try {
      expect(await db.sql.get(statement<{ status: unknown; cancel_reason: unknown }>('SELECT status, cancel_reason FROM trade_orders WHERE id = 145'))).toEqual({ status: 'cancelled', cancel_reason: 'repair' })
    } finally {
      await db.close()
    }
    // A second repair finds nothing to do.
    expect((await runCli(d, ['market', 'repair'], env)).out).toContain('nothing to repair')
  } finally {
    fs.rmSync(d, { recursive: true, force: true })
  }
})
