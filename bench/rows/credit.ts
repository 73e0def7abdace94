import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Contract, JsonRpcProvider, Network, Wallet, parseUnits } from 'ethers'
import type { ApiEnvelope, PagedList } from '../../contract/envelope.ts'
import type { LoginMessage, LoginResult } from '../../contract/auth.ts'
import type { Deposit, RechargeAddress } from '../../contract/recharge.ts'
import type { Balances } from '../../contract/wallet.ts'
import { buildApp, type Built } from '../../server/app.ts'
import { loadArtifact } from '../../server/chain/contracts.ts'
import { watcherSettings } from '../../server/chain/depositWatcher.ts'
import { loadConfig } from '../../server/config.ts'
import { seconds, summarize } from '../support/stats.ts'
import { atMost, type BenchContext, type Row } from '../support/types.ts'

export const id = 'credit'

const CHAIN = 'bsc'
const TARGET_MS = 2_000
/** What the user's app would do at best: ask for the balances every 20 ms. */
const POLL_MS = 20
const TIMEOUT_MS = 30_000
const INVITE = 'BENCH001'
/** Each sample's deposit: 1.25 USDT more in the fund account. */
const AMOUNT = parseUnits('1.25', 18)
const AMOUNT_LEDGER = 1.25

async function call<T>(app: Built['app'], method: 'GET' | 'POST', url: string, token?: string, payload?: object): Promise<ApiEnvelope<T>> {
  const res = await app.inject({
    method,
    url,
    headers: { lang: 'EN', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body) as ApiEnvelope<T>
}

async function until<T>(what: string, probe: () => Promise<T | null>, everyMs: number): Promise<T> {
  const t0 = performance.now()
  for (;;) {
    const got = await probe()
    if (got !== null) return got
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`credit: timed out waiting for ${what}`)
    await sleep(everyMs)
  }
}

/**
 * Time from the block that completes a deposit's required confirmations to the credit the user sees:
 * the real server in process with dev chains (anvil, manual mining) and its own deposit watcher job
 * (nothing here calls scanDeposits). A signed-in user (SIWE through the API) asks for their USDT
 * deposit address on bsc; per sample, an outside wallet sends them a USDT transfer, blocks are mined
 * until the deposit shows `required − 1` confirmations in GET /api/v1/recharge/list, then, after a random
 * pause of 0…pollMs (so the final block does not land at the same phase of the watcher's timer every
 * time), the block that completes the confirmations is mined. The clock starts when that mine call
 * returns; GET /api/v1/wallet/balances is asked every 20 ms until the fund USDT includes the deposit.
 * The watcher credits on its next pass, so this is about the poll interval (a uniform 0…pollMs wait)
 * plus one pass.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'nadi-bench-credit-'))
  const providers: JsonRpcProvider[] = []
  let close: (() => Promise<void>) | null = null
  try {
    const config = loadConfig(
      {
        NADI_ENV: 'test',
        NADI_DATA_DIR: dataDir,
        NADI_ROOT_INVITE_CODE: INVITE,
        NADI_DEV_CHAINS: '1',
        NADI_DEV_BLOCK_TIME: 'manual',
        LOG_LEVEL: 'silent',
        PORT: '0',
      },
      ctx.root,
    )
    const built = await buildApp({ config })
    const { app, gateway, rootInviteCode } = built
    close = () => app.close()
    await app.ready()
    const dev = gateway.dev
    if (!dev) throw new Error('credit: the gateway has no dev chains (NADI_DEV_CHAINS=1 was not honoured)')
    const pollMs = watcherSettings(built.ctx.config).pollMs
    const chain = gateway.chain(CHAIN)
    const required = chain.confirmations
    if (required < 2) throw new Error(`credit: ${CHAIN} needs ${required} confirmation(s); the row needs at least 2`)

    // The user: signed in through the real SIWE flow, then shown their deposit address.
    const userWallet = new Wallet(`0x${crypto.randomBytes(32).toString('hex')}`)
    const qs = new URLSearchParams({ address: userWallet.address, chainId: String(config.login.chainId), code: rootInviteCode })
    const { message } = (await call<LoginMessage>(app, 'GET', `/api/v1/auth/loginMessage?${qs}`)).data
    const signature = await userWallet.signMessage(message)
    const { token } = (await call<LoginResult>(app, 'POST', '/api/v1/auth/login', undefined, { address: userWallet.address, message, sign_message: signature, code: rootInviteCode })).data
    const { address } = (await call<RechargeAddress>(app, 'GET', `/api/v1/recharge/address?coin=USDT&chain=${CHAIN}`, token)).data

    // The payer: an outside wallet (what a browser wallet or an exchange does), funded by the faucet.
    const network = Network.from(chain.id)
    const provider = new JsonRpcProvider(chain.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1 })
    providers.push(provider)
    const payer = new Wallet(`0x${crypto.randomBytes(32).toString('hex')}`, provider)
    await gateway.faucet(CHAIN, payer.address, { USDT: AMOUNT * BigInt(ctx.runs + 1), native: parseUnits('1', 18) })
    const usdt = new Contract(chain.tokens.USDT!, loadArtifact('TestToken').abi as string[], payer)

    const fundUsdt = async (): Promise<number> => {
      const { assets } = (await call<Balances>(app, 'GET', '/api/v1/wallet/balances', token)).data
      return Number(assets.find((a) => a.asset === 'USDT')?.fund.available ?? '0')
    }
    const depositOf = async (tx: string): Promise<Deposit | undefined> =>
      (await call<PagedList<Deposit>>(app, 'GET', '/api/v1/recharge/list', token)).data.list.find((d) => d.tx_hash === tx)

    const samples: number[] = []
    const pauses: number[] = []
    for (let i = 0; i < ctx.runs; i++) {
      const before = await fundUsdt()
      const tx = ((await usdt.getFunction('transfer')(address, AMOUNT)) as { hash: string }).hash
      await dev.mine(CHAIN, required - 1) // the deposit's block and the ones on it: required − 1 confirmations
      await until(`deposit ${tx} at ${required - 1}/${required}`, async () => ((await depositOf(tx))?.confirmations === required - 1 ? true : null), POLL_MS)
      if ((await fundUsdt()) !== before) throw new Error('credit: the deposit was credited before its last confirmation')
      const pause = Math.random() * pollMs
      pauses.push(Math.round(pause))
      await sleep(pause)

      await dev.mine(CHAIN, 1)
      const t0 = performance.now()
      const target = before + AMOUNT_LEDGER
      await until(`the credit of ${tx}`, async () => ((await fundUsdt()) >= target - 1e-9 ? true : null), POLL_MS)
      const ms = performance.now() - t0
      samples.push(ms)
      ctx.log(`credit: run ${i + 1}/${ctx.runs}: ${Math.round(ms)} ms`)
    }
    const s = summarize(samples)
    return [
      atMost({
        name: `deposit: last required confirmation (${required}) → credit in /wallet/balances (watcher polls every ${pollMs} ms)`,
        value: s.median,
        unit: 'ms',
        max: TARGET_MS,
        format: seconds,
        details: { ...s, pollMs, required, chain: CHAIN, balancePollMs: POLL_MS, pausesBeforeLastBlockMs: pauses, amount: AMOUNT_LEDGER },
      }),
    ]
  } finally {
    for (const p of providers) p.destroy()
    await close?.().catch(() => undefined)
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}
