// kill -9 in the middle of a withdrawal, for real: the server runs as a child process (`node --import
// tsx server/main.ts`, what `npm run serve` runs) on a data folder and on anvil nodes that outlive it.
// It is killed twice — by itself right after the signed transaction is stored and before it is
// broadcast (the failpoint), then from outside while the transaction waits in the node's pool — and
// a third start must finish the withdrawal: exactly one transfer on chain, and a balanced ledger.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Wallet, parseUnits } from 'ethers'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { Withdrawal } from '../../contract/withdraw.ts'
import { main as cli } from '../../server/cli.ts'
import type { DevChains } from '../../server/chain/devChains.ts'
import type { Gateway } from '../../server/chain/gateway.ts'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { audit, balance, custody, findPosting, fund, transfer } from '../../server/ledger/index.ts'
import '../../server/modules/withdraw/frozen.ts'
import { killChildren, startChild, type Child } from './support/child.ts'
import { HOT, NADI_ID, startWithdrawChains, withdrawChainsEnv } from './support/withdrawChains.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'ROOT0001'

let chains: DevChains
let gw: Gateway
let dir: string
let db: Database_ | undefined
/** On the PostgreSQL run, the database the killed and restarted servers share. */
let pg: TestDatabase | null = null

beforeAll(async () => {
  ;({ chains, gw } = await startWithdrawChains())
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-kill9-'))
})

afterAll(async () => {
  killChildren()
  await db?.close()
  await gw?.close()
  fs.rmSync(dir, { recursive: true, force: true })
  pg?.drop()
})

/** Starts the server as production would run it against these chains, and waits until it answers. */
function startServer(extra: Record<string, string> = {}): Promise<Child> {
  const env: Record<string, string> = {
    NADI_ROOT_INVITE_CODE: CODE,
    ...withdrawChainsEnv(chains),
    NADI_WITHDRAW_EVERY_MS: '100',
    ...(pg ? { NADI_DATABASE_URL: pg.url } : {}),
    ...extra,
  }
  return startChild(dir, env, '/api/v1/withdraw/config')
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v !== null && v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function signIn(base: string, wallet: Pick<Wallet, 'address' | 'signMessage'>): Promise<string> {
  const q = new URLSearchParams({ address: wallet.address, chainId: String(NADI_ID), code: CODE })
  const issued = (await (await fetch(`${base}/api/v1/auth/loginMessage?${q}`)).json()) as ApiEnvelope<{ message: string }>
  const { message } = issued.data
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ address: wallet.address, message, sign_message: await wallet.signMessage(message), code: CODE }),
  })
  const body = (await res.json()) as ApiEnvelope<{ token: string }>
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(body)}`)
  return body.data.token
}

it('kill -9 twice in the middle of a withdrawal: after the restart it completes exactly once and the ledger balances', { timeout: 90_000 }, async () => {
  pg = testBackend() === 'postgres' ? freshDatabase() : null
  // 1. A server that dies (SIGKILL, by itself) right after the signed transaction is stored.
  const first = await startServer({ NADI_WITHDRAW_FAILPOINT: 'crash-after-store' })
  const wallet = Wallet.createRandom()
  const token = await signIn(first.base, wallet)
  db = openDatabase(pg?.url ?? path.join(dir, 'nadi.sqlite'))
  const { sql } = db
  const userId = (await sql.get(statement<{ id: bigint }>('SELECT id FROM users WHERE wallet_address = ?'), wallet.address.toLowerCase()))!.id
  await transfer(sql, { ref: 'test:deposit:kill9', reason: 'deposit', from: custody('nadi'), to: fund(userId), asset: 'NADI', amount: parseUnits('5', 8) })

  const to = Wallet.createRandom().address
  // The answer normally arrives before the sender's next pass kills the process; the database is the record either way.
  const answer = await fetch(`${first.base}/api/v1/withdraw/apply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ coin: 'NADI', chain: 'nadi', amount: '1', address: to }),
  }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as ApiEnvelope<Withdrawal> }),
    () => null,
  )
  if (answer) expect([answer.status, answer.body.data.status]).toEqual([200, 'approved'])
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' })
  const id = (await sql.get(statement<{ id: bigint }>('SELECT id FROM withdrawals WHERE user_id = ?'), userId))!.id

  const row = async () => (await sql.get(statement<{ status: string; tx_hash: string; nonce: bigint }>('SELECT status, tx_hash, nonce FROM withdrawals WHERE id = ?'), id))!
  const stored = await row()
  expect(stored.status).toBe('broadcast')
  expect(await gw.dev!.rpc('nadi', 'eth_getTransactionByHash', [stored.tx_hash])).toBeNull() // never broadcast

  // 2. Restarted, it broadcasts the stored bytes; killed from outside while they wait to be mined.
  const second = await startServer()
  await until('the stored transaction in the node', () => gw.dev!.rpc('nadi', 'eth_getTransactionByHash', [stored.tx_hash]))
  second.proc.kill('SIGKILL')
  expect(await second.exited).toEqual({ code: null, signal: 'SIGKILL' })
  expect((await row()).status).toBe('broadcast')
  await gw.dev!.mine('nadi', 3)

  // 3. Restarted again, it sees 3 confirmations and settles.
  const third = await startServer()
  await until('the withdrawal confirmed', async () => (await row()).status === 'confirmed')
  third.proc.kill('SIGTERM')
  expect((await third.exited).code).toBe(0)

  // Exactly one transfer reached the chain, and it is the one stored first; the hot wallet signed one transaction.
  const logs = await gw.transferLogs('nadi', 'NADI', 0, await gw.blockNumber('nadi'), [to])
  expect(logs.map((l) => [l.txHash, l.from, l.amount])).toEqual([[stored.tx_hash, HOT, parseUnits('1', 18)]])
  expect(await gw.tokenBalance('nadi', 'NADI', to)).toBe(parseUnits('1', 18))
  expect(Number(await gw.dev!.rpc('nadi', 'eth_getTransactionCount', [HOT, 'latest']))).toBe(1)
  expect((await row()).tx_hash).toBe(stored.tx_hash)

  // The ledger: amount + fee paid once, nothing frozen, nothing refunded, every invariant holds.
  expect(await balance(sql, fund(userId), 'NADI')).toEqual({ available: parseUnits('3.9', 8), frozen: 0n })
  expect(await findPosting(sql, `withdraw:${id}:settle`)).not.toBeNull()
  expect(await findPosting(sql, `withdraw:${id}:refund`)).toBeNull()
  const report = await audit(db.sql)
  expect(report.holders).toContain('withdrawals')
  expect(report.violations).toEqual([])
  let printed = ''
  const code = await cli(['audit'], { env: { NADI_ENV: 'test', NADI_DATA_DIR: dir, ...(pg ? { NADI_DATABASE_URL: pg.url } : {}) }, io: { out: (t) => void (printed += t), err: (t) => void (printed += t) } })
  expect([code, printed]).toEqual([0, expect.stringContaining('OK: no violations')])
})
