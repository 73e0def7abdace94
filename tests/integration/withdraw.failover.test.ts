// The jobs leader killed in the middle of a withdrawal batch (issue 19), with real processes on one
// PostgreSQL database and on anvil nodes the test owns: five approved withdrawals of five users on two
// chains; two `--role jobs` processes, the leader A with the failpoint that kills it right after a
// signed transaction is stored and before it is broadcast. The standby B leads within 5 s, broadcasts
// the stored bytes and sends the rest; it is killed with kill -9 while the transactions wait for their
// confirmations; a third process C leads and confirms them. Exactly one transfer per withdrawal
// reaches the chains, each user pays amount + fee once, and the ledger audit is clean.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Wallet } from 'ethers'
import { parseMoney } from '../../contract/money.ts'
import type { DevChains } from '../../server/chain/devChains.ts'
import type { Gateway } from '../../server/chain/gateway.ts'
import { toTokenUnits } from '../../server/chain/units.ts'
import { openDatabase, type Database_ } from '../../server/db/index.ts'
import { statement } from '../../server/db/query/types.ts'
import { audit, balance, custody, findPosting, fund, transfer } from '../../server/ledger/index.ts'
import '../../server/modules/withdraw/frozen.ts'
import { create, type WithdrawalRow } from '../../server/modules/withdraw/store.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { killChildren, killGroup, leadsJobs, runCli, startChild, type Child } from './support/child.ts'
import { HOT, startWithdrawChains, withdrawChainsEnv } from './support/withdrawChains.ts'

const HEALTH = '/api/v1/common/health'
const FEE = parseMoney('0.1')!
const FUNDED = parseMoney('50')!
/** The batch: each user withdraws once, amounts all different, on both chains. */
const BATCH = [
  { chain: 'nadi', amount: '1' },
  { chain: 'bsc', amount: '2.5' },
  { chain: 'nadi', amount: '3.25' },
  { chain: 'bsc', amount: '4' },
  { chain: 'nadi', amount: '5.125' },
] as const

let chains: DevChains | undefined
let gw: Gateway | undefined
let database: Database_ | undefined
const dirs: string[] = []
const dbs: TestDatabase[] = []
afterAll(async () => {
  killChildren()
  await database?.close()
  await gw?.close()
  await chains?.stop()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  for (const d of dbs) d.drop()
})

describe.runIf(testBackend() === 'postgres')('the jobs leader killed mid-way', () => {
  it('a withdrawal batch cut by two kills of the jobs leader is finished by its successors, each withdrawal sent and paid exactly once', { timeout: 90_000 }, async () => {
    const started = await startWithdrawChains()
    ;({ chains, gw } = started)
    const { chains: dev, gw: chain } = started
    const pg = freshDatabase()
    dbs.push(pg)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-wdfail-'))
    dirs.push(dir)
    const env = { NADI_DATABASE_URL: pg.url, ...withdrawChainsEnv(dev), NADI_WITHDRAW_EVERY_MS: '100' }
    const jobs = (extra: Record<string, string> = {}): Promise<Child> => startChild(dir, { ...env, ...extra }, HEALTH, ['--role', 'jobs'])

    const a = await jobs({ NADI_WITHDRAW_FAILPOINT: 'crash-after-store' })
    await expect.poll(() => leadsJobs(a), { timeout: 10_000 }).toBe(true)
    const b = await jobs()
    expect(await leadsJobs(b)).toBe(false)

    // The batch, committed at once: five users funded, each with one approved withdrawal.
    database = openDatabase(pg.url)
    const { db, sql } = database
    const store = { db, now: () => Date.now() }
    const newUser = statement<{ id: bigint }, [address: string, code: string, at: number]>(
      "INSERT INTO users (wallet_address, code, name, depth, created_at) VALUES (?, ?, 'u', 0, ?) RETURNING id",
    )
    const queued = await sql.transaction(async (tx) => {
      const made: WithdrawalRow[] = []
      for (const [i, w] of BATCH.entries()) {
        const userId = (await tx.get(newUser, Wallet.createRandom().address.toLowerCase(), `WDF${i}`, Date.now()))!.id
        await transfer(tx, { ref: `test:deposit:wdfail:${userId}`, reason: 'deposit', from: custody(w.chain), to: fund(userId), asset: 'NADI', amount: FUNDED })
        made.push(await create(tx, store, { userId, chain: w.chain, amount: parseMoney(w.amount)!, fee: FEE, address: Wallet.createRandom().address, autoApprove: true }))
      }
      return made
    })
    expect(queued.map((w) => w.status)).toEqual(BATCH.map(() => 'approved'))

    const rows = () => sql.all(statement<WithdrawalRow>('SELECT * FROM withdrawals ORDER BY id'))
    const inNode = (w: WithdrawalRow) => chain.dev!.rpc(w.chain, 'eth_getTransactionByHash', [w.tx_hash])

    // 1. A signs the first transfer, stores it, and dies before broadcasting it.
    expect(await a.exited).toEqual({ code: null, signal: 'SIGKILL' })
    const killedAt = Date.now()
    const storedByA = (await rows()).filter((w) => w.status === 'broadcast')
    expect(storedByA.length).toBeGreaterThanOrEqual(1)
    for (const w of storedByA) expect(await inNode(w)).toBeNull() // never broadcast

    // 2. B leads within 5 s, broadcasts A's stored bytes and sends the rest of the batch.
    await expect.poll(() => leadsJobs(b), { timeout: 5000, interval: 50 }).toBe(true)
    const takeover = Date.now() - killedAt
    console.log(`jobs leader killed mid-withdrawal: the standby led after ${takeover} ms`)
    expect(takeover).toBeLessThan(5000)
    await expect.poll(async () => (await rows()).every((w) => w.status === 'broadcast'), { timeout: 15_000, interval: 50 }).toBe(true)
    for (const w of await rows()) await expect.poll(() => inNode(w), { timeout: 10_000, interval: 50 }).not.toBeNull()
    for (const w of storedByA) expect((await rows()).find((r) => r.id === w.id)!.tx_hash).toBe(w.tx_hash)

    // 3. One block each: every transaction mined, 1 of 3 confirmations, seen by B; then B is killed.
    for (const c of dev.chains) await chain.dev!.mine(c.key, 1)
    await expect.poll(async () => (await rows()).every((w) => w.confirmations === 1n), { timeout: 10_000, interval: 50 }).toBe(true)
    killGroup(b.proc)
    expect(await b.exited).toEqual({ code: null, signal: 'SIGKILL' })
    const broadcastByB = await rows()
    expect(broadcastByB.map((w) => w.status)).toEqual(BATCH.map(() => 'broadcast'))
    for (const c of dev.chains) await chain.dev!.mine(c.key, 2)

    // 4. C leads and confirms every withdrawal of the batch.
    const c = await jobs()
    await expect.poll(async () => (await rows()).every((w) => w.status === 'confirmed'), { timeout: 20_000, interval: 100 }).toBe(true)
    expect(await leadsJobs(c)).toBe(true)
    c.proc.kill('SIGTERM')
    expect((await c.exited).code).toBe(0)

    // On chain: exactly one transfer per withdrawal, the one stored, of its amount to its address; the
    // hot wallet signed as many transactions on each chain as the chain has withdrawals.
    const done = await rows()
    expect(done.map((w) => w.tx_hash)).toEqual(broadcastByB.map((w) => w.tx_hash))
    for (const key of ['bsc', 'nadi']) {
      const ofChain = done.filter((w) => w.chain === key)
      const logs = await chain.transferLogs(key, 'NADI', 0, await chain.blockNumber(key), ofChain.map((w) => w.address))
      const seen = logs.map((l) => [l.txHash, l.from, l.to, l.amount]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))
      const expected = ofChain.map((w) => [w.tx_hash, HOT, w.address, toTokenUnits(w.amount)]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))
      expect(seen).toEqual(expected)
      for (const w of ofChain) expect(await chain.tokenBalance(key, 'NADI', w.address)).toBe(toTokenUnits(w.amount))
      expect(Number(await chain.dev!.rpc(key, 'eth_getTransactionCount', [HOT, 'latest']))).toBe(ofChain.length)
    }

    // The ledger: each user paid amount + fee once, nothing frozen, nothing refunded, every invariant holds.
    for (const w of done) {
      expect(await balance(sql, fund(w.user_id), 'NADI')).toEqual({ available: FUNDED - w.amount - w.fee, frozen: 0n })
      expect(await findPosting(sql, `withdraw:${w.id}:settle`)).not.toBeNull()
      expect(await findPosting(sql, `withdraw:${w.id}:refund`)).toBeNull()
    }
    expect((await audit(sql)).violations).toEqual([])
    const printed = await runCli(dir, ['audit'], { NADI_DATABASE_URL: pg.url })
    expect([printed.code, printed.out]).toEqual([0, expect.stringContaining('OK: no violations')])
  })
})
