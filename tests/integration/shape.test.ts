// The scale-out shape on one machine (`npm run shape`, scripts/shape/launch.ts; docs/processes.md), on
// the run's PostgreSQL: the dev chains as a process of their own, two engines, a jobs process, two api
// processes and the proxy, each a real process. What `npm start` does in one process works across
// them: through the proxy two users sign in and take test tokens from the faucet at the same moment
// on the two api processes (only the chains process mints, so neither mint takes the other's nonce);
// each sends a deposit from the demo wallet (the RPC proxy) to the address the api processes give
// alike; the jobs process credits it once, the owner's socket hears of it through the proxy; and an
// order placed on one api process fills against one placed on the other.

import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Interface, JsonRpcProvider, Network, Wallet, parseUnits, type HDNodeWallet } from 'ethers'
import { afterAll, describe, expect, it } from 'vitest'
import type { ApiEnvelope } from '../../contract/envelope.ts'
import type { Deposit, RechargeAddress } from '../../contract/recharge.ts'
import type { PushFrame } from '../../contract/socket.ts'
import type { Balances } from '../../contract/wallet.ts'
import type { DevChainsManifest } from '../../server/chain/sharedDevChains.ts'
import { openDatabase } from '../../server/db/index.ts'
import { audit } from '../../server/ledger/index.ts'
import '../../server/ledger/holders.ts'
import { startShape, type Shape } from '../../scripts/shape/launch.ts'
import { freshDatabase, testBackend, type TestDatabase } from '../support/pg.ts'
import { serverArgs } from '../support/serverBundle.ts'
import { placeHttp, signInHttp, until } from './support/child.ts'
import { Client } from './support/wsClient.ts'
import { statement } from '../../server/db/query/types.ts'

const CODE = 'ROOT0001'
const NADI_CHAIN = 92025
const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)', 'function balanceOf(address) view returns (uint256)'])
let shape: Shape | null = null
const dbs: TestDatabase[] = []
const dirs: string[] = []
afterAll(async () => {
  await shape?.stop()
  for (const d of dbs) d.drop()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

/** A request of the app through the proxy: its envelope's data and the api process that served it. */
async function call<T>(base: string, token: string, method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ data: T; api: string | null }> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const env = (await res.json()) as ApiEnvelope<T>
  if (res.status !== 200) throw new Error(`${method} ${p} answered ${res.status}: ${JSON.stringify(env)}`)
  return { data: env.data, api: res.headers.get('x-nadi-api') }
}

const balanceOf = (b: Balances, asset: string) => b.assets.find((a) => a.asset === asset)!

describe.runIf(testBackend() === 'postgres')('the scale-out shape on one machine', () => {
  it('through the proxy: sign-in, the faucet on both api processes at once, deposits from the demo wallet credited once by the jobs process and pushed to their owner, and an order on one api process filled by one on the other', { timeout: 110_000 }, async () => {
    const db = freshDatabase()
    dbs.push(db)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nadi-shape-test-'))
    dirs.push(dir)
    const logs: string[] = []
    shape = await startShape({
      databaseUrl: db.url,
      dataDir: dir,
      listen: { host: '127.0.0.1', port: 0 },
      entryArgs: serverArgs,
      output: (name, line) => logs.push(`${name} | ${line}`),
      env: {
        NADI_ENV: 'test',
        NADI_DEMO: '0',
        NADI_ROOT_INVITE_CODE: CODE,
        NADI_LOGIN_PER_IP: '100000',
        NADI_DIST_DIR: path.join(dir, 'no-dist'),
        NADI_TRADE_MAKER_FEE_PPM: '0',
        NADI_TRADE_TAKER_FEE_PPM: '0',
      },
    })
    try {
      const url = shape.url
      const [api1, api2] = shape.processes.filter((p) => p.role === 'api')
      expect(shape.processes.map((p) => p.name).sort()).toEqual(['api1', 'api2', 'chains', 'engine1', 'engine2', 'jobs'])

      const alice = Wallet.createRandom()
      const bob = Wallet.createRandom()
      const [ta, tb] = [await signInHttp(url, alice, CODE), await signInHttp(url, bob, CODE)]

      // Both at once, one on each api process: each asks the chains process, which mints one after the other.
      const taps = await Promise.all([ta, tb].map((t) => call<{ usdt: string }>(url, t, 'POST', '/api/v1/devchain/faucet', { chain: 'nadi' })))
      expect(new Set(taps.map((t) => t.api))).toEqual(new Set(['1', '2']))

      // The demo wallet's path to the chain: the RPC proxy of whichever api process the proxy picks.
      const network = Network.from(NADI_CHAIN)
      const rpc = new JsonRpcProvider(`${url}/api/v1/devchain/rpc/nadi`, network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 })
      const manifest = (await (await fetch(`${shape.chainsUrl}/chains`)).json()) as DevChainsManifest
      const tokens = manifest.chains.find((c) => c.key === 'nadi')!.tokens
      const onChain = async (token: string, who: string) => BigInt(ERC20.decodeFunctionResult('balanceOf', await rpc.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [who]) }))[0] as bigint)
      for (const w of [alice, bob]) {
        expect([await onChain(tokens.USDT, w.address), await onChain(tokens.NADI, w.address)]).toEqual([parseUnits('1000', 18), parseUnits('1000', 18)])
      }

      // Every api process gives the same deposit address and the tokens the chains process deployed.
      const addressOf = (t: string, coin: string) => call<RechargeAddress>(url, t, 'GET', `/api/v1/recharge/address?coin=${coin}&chain=nadi`)
      const [a1, a2] = [await addressOf(ta, 'USDT'), await addressOf(ta, 'USDT')]
      expect(new Set([a1.api, a2.api])).toEqual(new Set(['1', '2']))
      expect(a1.data).toEqual(a2.data)
      expect(a1.data.token).toBe(tokens.USDT)
      const bobNadi = (await addressOf(tb, 'NADI')).data
      expect(bobNadi.token).toBe(tokens.NADI)

      const socket = await Client.open(url, ta)
      socket.send({ method: 'SUBSCRIBE', params: ['user@deposit'], id: 1 })
      const credited: Deposit[] = []
      const listening = (async () => {
        while (socket.open && credited.length === 0) {
          const f = await socket.next<PushFrame>(60_000).catch(() => null)
          if (f && 'arg' in f && f.arg.channel === 'user@deposit') credited.push(...(f.data as Deposit[]).filter((d) => d.status === 'credited'))
        }
      })()

      const send = async (w: HDNodeWallet, token: string, to: string, amount: string) => {
        const tx = await w.connect(rpc).sendTransaction({ to: token, data: ERC20.encodeFunctionData('transfer', [to, parseUnits(amount, 18)]) })
        return tx.hash
      }
      const [aliceTx, bobTx] = [await send(alice, tokens.USDT, a1.data.address, '250'), await send(bob, tokens.NADI, bobNadi.address, '400')]

      const fund = async (base: string, t: string, asset: string) => balanceOf((await call<Balances>(base, t, 'GET', '/api/v1/wallet/balances')).data, asset).fund.available
      await until(async () => (await fund(url, ta, 'USDT')) === '250' && (await fund(url, tb, 'NADI')) === '400', 'both deposits credited')
      await until(() => credited.length > 0, "the credit pushed to alice's socket through the proxy")
      expect(credited[0]).toMatchObject({ coin: 'USDT', chain: 'nadi', tx_hash: aliceTx, amount: '250' })

      // Credited once: the watcher reads past them (and re-reads its reorg window) and nothing changes.
      const conn = openDatabase(db.url)
      try {
        const last = (await conn.sql.get(statement<{ block: bigint }>("SELECT MAX(block_number) AS block FROM deposits WHERE status = 'credited'")))!.block
        const cursor = statement<{ block: bigint }>("SELECT block FROM deposit_cursors WHERE chain = 'nadi'")
        await until(async () => ((await conn.sql.get(cursor))?.block ?? 0n) >= last + 3n, 'the deposit watcher past the credits')
        const rows = await conn.sql.all(statement<{ tx_hash: string; status: string }>('SELECT tx_hash, status FROM deposits'))
        expect(rows).toHaveLength(2)
        expect(Object.fromEntries(rows.map((r) => [r.tx_hash, r.status]))).toEqual({ [aliceTx]: 'credited', [bobTx]: 'credited' })
      } finally {
        await conn.close()
      }
      for (const p of [api1!, api2!]) {
        expect([await fund(p.base, ta, 'USDT'), await fund(p.base, tb, 'NADI')]).toEqual(['250', '400'])
      }

      // Into the trade accounts, then an order on api1 filled by one on api2.
      await call(url, ta, 'POST', '/api/v1/wallet/transfer', { asset: 'USDT', amount: '250', from: 'fund', to: 'trade' })
      await call(url, tb, 'POST', '/api/v1/wallet/transfer', { asset: 'NADI', amount: '400', from: 'fund', to: 'trade' })
      const buy = await placeHttp(api1!.base, ta, { side: 'buy', price: '0.3', size: '100', client_order_id: 'shape-buy' })
      expect(buy?.code).toBe(200)
      const sell = await placeHttp(api2!.base, tb, { side: 'sell', price: '0.3', size: '100', client_order_id: 'shape-sell' })
      expect(sell?.code).toBe(200)
      const trade = async (t: string) => (await call<Balances>(url, t, 'GET', '/api/v1/wallet/balances')).data
      await until(async () => balanceOf(await trade(ta), 'NADI').trade.available === '100', "alice's NADI from the fill")
      const [a, b] = [await trade(ta), await trade(tb)]
      expect([balanceOf(a, 'USDT').trade, balanceOf(a, 'NADI').trade]).toEqual([
        { available: '220', frozen: '0' },
        { available: '100', frozen: '0' },
      ])
      expect([balanceOf(b, 'USDT').trade, balanceOf(b, 'NADI').trade]).toEqual([
        { available: '30', frozen: '0' },
        { available: '300', frozen: '0' },
      ])

      socket.close()
      await listening
      const after = openDatabase(db.url)
      try {
        expect((await audit(after.sql)).violations).toEqual([])
      } finally {
        await after.close()
      }
    } catch (err) {
      console.log(logs.slice(-200).join('\n'))
      throw err
    }
  })
})
