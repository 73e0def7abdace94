// A server for the HTTP order-placement rows (exchange, envelope): built in this process on a
// throwaway data folder, listening on a free loopback port, its traders signed in by `signIn` and
// each funded with 10 M USDT and 40 M NADI in their trade accounts. Closing it removes the folder.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Wallet } from 'ethers'
import '../../server/ledger/holders.ts'
import { buildApp, type Built } from '../../server/app.ts'
import { loadConfig, type Config } from '../../server/config.ts'
import { statement } from '../../server/db/query/types.ts'
import { custody, trade, transfer } from '../../server/ledger/index.ts'
import type { BenchContext } from './types.ts'

const USER_BY_ADDRESS = statement<{ id: bigint }, [address: string]>('SELECT id FROM users WHERE wallet_address = ?')

/** 1 token in ledger units (1e-8). */
const UNIT = 100_000_000n

export interface Trader<T> {
  userId: number
  /** What `signIn` answered for this trader (a token, or a token with its handshake). */
  session: T
}

export interface TradingServer<T> {
  built: Built
  origin: string
  traders: Trader<T>[]
  close(): Promise<void>
}

/** `label` names the data folder; `env` is added to the bench's own settings (e.g. the envelope, PostgreSQL). */
export async function startTradingServer<T>(
  ctx: BenchContext,
  o: { label: string; traders: number; env?: Record<string, string>; signIn(b: Built, config: Config, origin: string, wallet: Wallet): Promise<T> },
): Promise<TradingServer<T>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `nadi-bench-${o.label}-`))
  let built: Built | undefined
  const close = async () => {
    try {
      await built?.app.close()
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
  try {
    const config = loadConfig(
      {
        NADI_ENV: 'test',
        NADI_DATA_DIR: dataDir,
        NADI_DEMO: '0',
        NADI_ROOT_INVITE_CODE: 'BENCHX01',
        LOG_LEVEL: 'silent',
        PORT: '0',
        // One address signs all the bench's traders in.
        NADI_LOGIN_PER_IP: '100000',
        NADI_LOGIN_PER_ADDRESS: '1000',
        ...o.env,
      },
      ctx.root,
    )
    built = await buildApp({ config })
    const b = built
    const origin = new URL(await b.app.listen({ port: 0, host: '127.0.0.1' })).origin
    const traders: Trader<T>[] = []
    for (let i = 0; i < o.traders; i++) {
      // The real sign-in: an issued message signed by a fresh key, registered under the root invite.
      const wallet = new Wallet(`0x${crypto.randomBytes(32).toString('hex')}`)
      const session = await o.signIn(b, config, origin, wallet)
      const user = await b.ctx.sql.get(USER_BY_ADDRESS, wallet.address.toLowerCase())
      if (!user) throw new Error(`bench: ${wallet.address} signed in but has no user row`)
      const userId = Number(user.id)
      traders.push({ userId, session })
    }
    await b.ctx.sql.transaction(async (tx) => {
      for (const { userId } of traders) {
        await transfer(tx, { ref: `bench:${userId}:USDT`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset: 'USDT', amount: 10_000_000n * UNIT })
        await transfer(tx, { ref: `bench:${userId}:NADI`, reason: 'deposit', from: custody('bsc'), to: trade(userId), asset: 'NADI', amount: 40_000_000n * UNIT })
      }
    })
    return { built: b, origin, traders, close }
  } catch (err) {
    await close()
    throw err
  }
}
