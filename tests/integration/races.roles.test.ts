// Money races across two api processes on one PostgreSQL database (issue 34 §2): requests alternate
// between them, so nothing one process's event loop orders can hold the line — only the database's
// conditional updates, row locks and unique keys. Never double spent, the audit clean, and a race the
// database refuses answered like any refusal (a 4xx in the user's language), never a 500.

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit, balance, custody, fund, transfer } from '../../server/ledger/index.ts'
import { createPayOrder } from '../../server/modules/orders/service.ts'
import type { Ctx } from '../../server/context.ts'
import '../../server/ledger/holders.ts'
import { localeText } from './support/server.ts'
import { killChildren, signInHttp, startChild, type Child } from './support/child.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'

const CODE = 'RACE0001'
const UNIT = 100_000_000n
const on = testBackend() === 'postgres'
let db: TestDatabase
let dir: string
let apis: Child[] = []

beforeAll(async () => {
  if (!on) return
  db = freshDatabase()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-races-'))
  const env = { NADI_DATABASE_URL: db.url, NADI_ROOT_INVITE_CODE: CODE, NADI_LOGIN_PER_IP: '100000' }
  // The engine migrates and seeds first; then two api processes.
  await startChild(dir, env, '/api/v1/common/health', ['--role', 'engine'])
  apis = await Promise.all([0, 1].map(() => startChild(dir, env, '/api/v1/trade/market', ['--role', 'api'])))
}, 120_000)

afterAll(() => {
  killChildren()
  db?.drop()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

/** One user, signed in through the first api process, with `amount` in the fund account. */
async function funded(asset: 'USDT' | 'NADI', amount: bigint): Promise<{ token: string; userId: number }> {
  const wallet = Wallet.createRandom()
  const token = await signInHttp(apis[0]!.base, wallet, CODE)
  const conn = openDatabase(db.url)
  try {
    const userId = Number(conn.sqlite.prepare('SELECT id FROM users WHERE wallet_address = ?').pluck().get(wallet.address.toLowerCase()))
    transfer(conn.sqlite, { ref: `race:${userId}:${asset}`, reason: 'deposit', from: custody(asset === 'USDT' ? 'bsc' : 'nadi'), to: fund(userId), asset, amount })
    return { token, userId }
  } finally {
    await conn.close()
  }
}

/** `n` keyed POSTs at once, alternating between the two api processes: each answer's HTTP status and envelope. */
async function burst(n: number, pathName: string, token: string, body: unknown) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${apis[i % 2]!.base}/api/v1/${pathName}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID(), lang: 'EN' },
        body: JSON.stringify(body),
      })
      return { status: res.status, body: (await res.json()) as ApiEnvelope<unknown> }
    }),
  )
}

function books(check: (sqlite: ReturnType<typeof openDatabase>['sqlite']) => void) {
  const conn = openDatabase(db.url)
  try {
    expect(audit(conn.sqlite).violations).toEqual([])
    check(conn.sqlite)
  } finally {
    void conn.close()
  }
}

it.runIf(on)('one order paid 50 times at once across two api processes: debited once, every answer the paid order or a 409 in the user’s language, none a 500', { timeout: 60_000 }, async () => {
  const me = await funded('NADI', 5n * UNIT)
  const conn = openDatabase(db.url)
  let orderId: number
  try {
    // Test set-up only: an order as a shop's route makes one (its ctx needs only these).
    orderId = createPayOrder({ sqlite: conn.sqlite, now: Date.now, config: { orders: { payWithinMs: 15 * 60_000 } } } as unknown as Ctx, { userId: me.userId, type: 'destroy', asset: 'NADI', total: 2n * UNIT })
  } finally {
    await conn.close()
  }
  const answers = await burst(50, 'orders/payByBalance', me.token, { id: orderId })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  // A payment of a paid order answers the order as paid; one the database refused at the same moment, "changed at the same moment".
  for (const a of answers) {
    if (a.status === 200) expect((a.body.data as { status: string }).status).toBe('completed')
    else expect([a.status, a.body.msg]).toEqual([409, localeText('en', 'errors.concurrentChange')])
  }
  books((sqlite) => {
    expect(balance(sqlite, fund(me.userId), 'NADI').available).toBe(3n * UNIT)
    expect(Number(sqlite.prepare("SELECT COUNT(*) FROM payments WHERE order_ref = ? AND status = 'paid'").pluck().get(`order:${orderId}`))).toBe(1)
  })
})

it.runIf(on)('50 transfers of 1 USDT at once across two api processes from a balance of 10: exactly 10 go through, the rest refused, the balance never below 0', { timeout: 60_000 }, async () => {
  const me = await funded('USDT', 10n * UNIT)
  const answers = await burst(50, 'wallet/transfer', me.token, { asset: 'USDT', amount: '1', from: 'fund', to: 'trade' })
  expect(answers.filter((a) => a.status >= 500)).toEqual([])
  expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
  books((sqlite) => expect(balance(sqlite, fund(me.userId), 'USDT').available).toBe(0n))
})

it.runIf(on)('the last 3 seats of a tier, 12 buyers with the stake at once across two api processes: 3 seats taken and paid, the rest refused, none a 500', { timeout: 90_000 }, async () => {
  const conn = openDatabase(db.url)
  let tierId: number
  let stake: bigint
  try {
    // Test set-up only: a tier as the node catalogue's load writes one, three of its 50 seats left.
    stake = 1_000n * UNIT
    tierId = 7
    conn.sqlite
      .prepare(
        `INSERT INTO node_tiers (id, type, seats_total, seats_left, limit_num, amount, days, power, level_id, withdraw_rate_ppm, machine_rate_ppm, created_at, updated_at)
         VALUES (?, 'genesis', 50, 3, 1, ?, 30, 0, 1, 0, 0, 0, 0)`,
      )
      .run(tierId, stake)
  } finally {
    await conn.close()
  }
  const buyers = await Promise.all(Array.from({ length: 12 }, () => funded('USDT', stake)))
  const tries = await Promise.all(
    buyers.map(async (b, i) => {
      const res = await fetch(`${apis[i % 2]!.base}/api/v1/node/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${b.token}`, 'idempotency-key': crypto.randomUUID(), lang: 'EN' },
        body: JSON.stringify({ node_id: tierId }),
      })
      return { b, status: res.status, body: (await res.json()) as ApiEnvelope<{ id: number }> }
    }),
  )
  expect(tries.filter((t) => t.status >= 500)).toEqual([])
  const held = tries.filter((t) => t.status === 200)
  expect(held).toHaveLength(3)
  for (const t of tries.filter((x) => x.status !== 200)) expect(t.status, t.body.msg).toBe(409)
  for (const [i, t] of held.entries()) {
    const res = await fetch(`${apis[i % 2]!.base}/api/v1/orders/payByBalance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.b.token}`, 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ id: t.body.data.id }),
    })
    expect(res.status).toBe(200)
  }
  books((sqlite) => {
    expect(Number(sqlite.prepare('SELECT seats_left FROM node_tiers WHERE id = ?').pluck().get(tierId))).toBe(0)
    for (const t of held) expect(balance(sqlite, fund(t.b.userId), 'USDT').available).toBe(0n)
  })
})
