// kill -9 in a burst of keyed requests, then every key sent again. The failpoint kills the server at
// the one moment a random kill hits only now and then: an effect committed, its answer not yet sent.
// Before the answer was written in the effect's own transaction, the reservation committed ahead of
// the handler outlived the process, and every retry of the keys caught there answered 409 "still
// being processed" for a day, some of them applied and some not. On SQLite and (project
// integration-pg) on PostgreSQL.

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { TransferRecord } from '../../contract/wallet.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit } from '../../server/ledger/index.ts'
import { fundTraders, killChildren, killGroup, signInHttp, startChild } from './support/child.ts'
import { freshDatabase, testBackend } from '../support/pg.ts'
import '../../server/ledger/holders.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'KEYCRASH1'
const CLIENTS = 32
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-keys-kill9-'))
const pg = testBackend() === 'postgres' ? freshDatabase() : null
const database = pg?.url ?? path.join(dir, 'nadi.sqlite')
afterAll(() => {
  killChildren()
  pg?.drop()
  fs.rmSync(dir, { recursive: true, force: true })
})

const start = (env: Record<string, string> = {}) =>
  startChild(dir, { NADI_ROOT_INVITE_CODE: CODE, NADI_LOGIN_PER_IP: '100000', ...(pg ? { NADI_DATABASE_URL: pg.url } : {}), ...env }, '/api/v1/common/config')

interface Sent {
  token: string
  userIndex: number
  key: string
  body: string
}

/** POST wallet/transfer with a key; the envelope, or null when the connection died with the server. */
async function transfer(base: string, s: Sent): Promise<{ status: number; body: ApiEnvelope<TransferRecord> } | null> {
  try {
    const res = await fetch(`${base}/api/v1/wallet/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}`, 'idempotency-key': s.key },
      body: s.body,
    })
    return { status: res.status, body: (await res.json()) as ApiEnvelope<TransferRecord> }
  } catch {
    return null
  }
}

it('kill -9 between an effect and its answer: every key sent again answers 200, and each transfer is applied exactly once', { timeout: 180_000 }, async () => {
  const wallets = Array.from({ length: 4 }, () => Wallet.createRandom())
  const first = await start()
  const tokens = await Promise.all(wallets.map((w) => signInHttp(first.base, w, CODE)))
  killGroup(first.proc)
  await first.exited
  const userIds = await fundTraders(database, wallets.map((w) => w.address), 'keys-crash')

  // 32 clients send keyed transfers (trade → fund, 1 USDT each, every one its own key) until the
  // server dies at its 60th answer.
  const doomed = await start({ NADI_IDEMPOTENCY_FAILPOINT: 'crash-before-answer:60' })
  const sent: Sent[] = []
  let dead = false
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (!dead) {
        const userIndex = (c + sent.length) % wallets.length
        const s: Sent = { token: tokens[userIndex]!, userIndex, key: crypto.randomUUID(), body: JSON.stringify({ asset: 'USDT', amount: '1', from: 'trade', to: 'fund' }) }
        sent.push(s)
        if ((await transfer(doomed.base, s)) === null) dead = true
      }
    }),
  )
  expect((await doomed.exited).signal).toBe('SIGKILL')
  expect(sent.length).toBeGreaterThan(60)

  // The restarted server answers every key, and a second round replays the first.
  const again = await start()
  const answers = await Promise.all(sent.map((s) => transfer(again.base, s)))
  const refused = answers.map((a, i) => ({ a, key: sent[i]!.key })).filter(({ a }) => a?.status !== 200 || a.body.code !== 200)
  expect(refused.map(({ a, key }) => `${key}: ${a?.status} ${a?.body.msg}`)).toEqual([])
  const replays = await Promise.all(sent.map((s) => transfer(again.base, s)))
  expect(replays.map((r, i) => r?.body.data?.id === answers[i]!.body.data.id)).not.toContain(false)
  killGroup(again.proc)
  await again.exited

  // One transfer a key: as many rows per user as keys sent for that user, every answer a different row.
  const ids = new Set(answers.map((a) => a!.body.data.id))
  expect(ids.size).toBe(sent.length)
  const db = openDatabase(database)
  try {
    for (const [i, userId] of userIds.entries()) {
      const rows = Number((await db.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM wallet_transfers WHERE user_id = ?'), userId))!.v)
      expect(rows, `user ${i}`).toBe(sent.filter((s) => s.userIndex === i).length)
    }
    expect(Number((await db.sql.get(statement<{ v: bigint }>('SELECT COUNT(*) AS v FROM idempotency_keys WHERE status IS NULL')))!.v)).toBe(0)
    expect((await audit(db.sql)).violations).toEqual([])
  } finally {
    await db.close()
  }
})
