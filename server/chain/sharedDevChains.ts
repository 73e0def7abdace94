// The dev chains as one process of their own (the chains process, ./devChainsProcess.ts), seen from
// both sides: what it tells every other process (the manifest: each chain's node and the token
// addresses it deployed), what it is asked to mint (the faucet), and how a server uses that pair
// instead of starting its own (NADI_DEV_CHAINS_URL) — what lets role processes share one pair.
//
// Why one owner: the tokens' deployer is the only account that may mint, and its transactions take
// its nonces one after the other. Two processes minting with it would both take the next nonce and
// one mint would be lost, so only the chains process mints; everything else a role needs works on
// the nodes directly (reads, deposits' logs, the hot wallet's withdrawals — sent by the jobs leader
// alone), and the token addresses every process uses are the ones the manifest names.

import { Wallet, getAddress } from 'ethers'
import type { FastifyBaseLogger } from 'fastify'
import { CHAIN_TOKENS, type ChainConfig, type ChainSettings, type ChainTokenSymbol } from '../config.ts'
import type { FaucetAmounts, SharedDevChains } from './gateway.ts'

/** What `GET /chains` of the chains process answers. */
export interface DevChainsManifest {
  blockTime: number | 'manual'
  /** The hot wallet the chains process funded (null: none). */
  hotWallet: string | null
  chains: { key: string; id: number; rpcUrl: string; pid: number; tokens: Record<ChainTokenSymbol, string> }[]
}

/** What `POST /faucet` takes: token and native amounts in wei, as decimal strings. */
export interface FaucetRequest {
  chain: string
  to: string
  amounts: FaucetAmounts
}

/** The most one faucet call mints of each token or coin (wei): the app asks for 1,000 tokens and 1 coin. */
export const FAUCET_MAX_WEI = 1_000_000n * 10n ** 18n

const FAUCET_FIELDS = { USDT: 'usdt', NADI: 'nadi', native: 'native' } as const

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string') return null
  try {
    const u = new URL(v)
    return u.protocol === 'http:' || u.protocol === 'https:' ? v : null
  } catch {
    return null
  }
}

function address(v: unknown): string | null {
  if (typeof v !== 'string') return null
  try {
    return getAddress(v)
  } catch {
    return null
  }
}

/**
 * The chains process's manifest, checked against this process's networks: every chain it is
 * configured with must be there under the same key and id (NADI_CHAIN_ID the same on both sides),
 * with a node URL and every token's address. Throws a message that says which part is wrong.
 */
export function parseManifest(raw: unknown, networks: readonly ChainSettings[]): DevChainsManifest {
  const bad = (why: string) => new Error(`the chains process answered a manifest this server cannot use: ${why}`)
  if (!isRecord(raw) || !Array.isArray(raw.chains)) throw bad('no list of chains')
  const blockTime = raw.blockTime
  if (!(blockTime === 'manual' || (typeof blockTime === 'number' && Number.isSafeInteger(blockTime) && blockTime >= 0))) throw bad('blockTime is not a number of seconds or "manual"')
  const hotWallet = raw.hotWallet === null ? null : address(raw.hotWallet)
  if (hotWallet === null && raw.hotWallet !== null) throw bad('hotWallet is not an address')
  const chains = networks.map((n) => {
    const c = (raw.chains as unknown[]).find((x) => isRecord(x) && x.key === n.key)
    if (!isRecord(c)) throw bad(`it runs no chain "${n.key}"`)
    if (c.id !== n.id) throw bad(`it runs ${n.key} as chain ${String(c.id)}, this server has ${n.id} (NADI_CHAIN_ID must be the same for both)`)
    const rpcUrl = httpUrl(c.rpcUrl)
    if (!rpcUrl) throw bad(`${n.key} has no http(s) node URL`)
    const pid = c.pid
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) throw bad(`${n.key} has no node pid`)
    const tokens = {} as Record<ChainTokenSymbol, string>
    for (const sym of CHAIN_TOKENS) {
      const a = isRecord(c.tokens) ? address(c.tokens[sym]) : null
      if (!a) throw bad(`${n.key} has no ${sym} address`)
      tokens[sym] = a
    }
    return { key: n.key, id: n.id, rpcUrl, pid, tokens }
  })
  return { blockTime, hotWallet, chains }
}

/** A faucet request to the chains process, checked: a chain it runs, an address, amounts from 0 to FAUCET_MAX_WEI. */
export function parseFaucetRequest(raw: unknown, chainKeys: ReadonlySet<string>): FaucetRequest | { error: string } {
  if (!isRecord(raw)) return { error: 'expected a JSON object {chain, to, usdt?, nadi?, native?}' }
  const unknownField = Object.keys(raw).find((k) => !['chain', 'to', ...Object.values(FAUCET_FIELDS)].includes(k))
  if (unknownField !== undefined) return { error: `unknown field "${unknownField}"` }
  if (typeof raw.chain !== 'string' || !chainKeys.has(raw.chain)) return { error: `chain must be one of ${[...chainKeys].join(', ')}` }
  const to = address(raw.to)
  if (!to) return { error: 'to must be an address' }
  const amounts: FaucetAmounts = {}
  for (const [sym, field] of Object.entries(FAUCET_FIELDS) as [keyof FaucetAmounts, string][]) {
    const v = raw[field]
    if (v === undefined) continue
    if (typeof v !== 'string' || !/^[0-9]{1,30}$/.test(v) || BigInt(v) > FAUCET_MAX_WEI) return { error: `${field} must be a whole number of wei from 0 to ${FAUCET_MAX_WEI}` }
    amounts[sym] = BigInt(v)
  }
  return { chain: raw.chain, to, amounts }
}

/** The body of a faucet request for these amounts (what parseFaucetRequest reads back). */
export function faucetBody(chain: string, to: string, amounts: FaucetAmounts): Record<string, string> {
  const body: Record<string, string> = { chain, to }
  for (const [sym, field] of Object.entries(FAUCET_FIELDS) as [keyof FaucetAmounts, string][]) {
    const v = amounts[sym]
    if (v !== undefined) body[field] = v.toString()
  }
  return body
}

const at = (base: string, p: string) => new URL(p, base.endsWith('/') ? base : `${base}/`).href

type Logger = Pick<FastifyBaseLogger, 'info' | 'warn'>

/**
 * The chains process's pair, for a server started with NADI_DEV_CHAINS_URL: asks for the manifest
 * until the chains process answers (it may still be starting: `waitMs`, 30 s), and answers the
 * networks with its nodes and tokens. A manifest that does not fit this server's networks stops the start.
 */
export async function attachDevChains(cc: ChainConfig, log: Logger, waitMs = 30_000): Promise<{ dev: SharedDevChains; networks: ChainSettings[] }> {
  const url = cc.devChainsUrl
  if (!url) throw new Error('attachDevChains needs NADI_DEV_CHAINS_URL')
  const deadline = Date.now() + waitMs
  let res: Response
  for (;;) {
    try {
      res = await fetch(at(url, 'chains'), { signal: AbortSignal.timeout(5000) })
      break
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`NADI_DEV_CHAINS_URL: no chains process answers at ${url} (${(err as Error).message}); start it with \`npm run chains\``, { cause: err })
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  if (!res.ok) throw new Error(`NADI_DEV_CHAINS_URL: ${at(url, 'chains')} answered ${res.status}; is it the chains process (\`npm run chains\`)?`)
  const manifest = parseManifest(await res.json().catch(() => null), cc.networks)
  const hot = cc.hotWalletKey ? new Wallet(cc.hotWalletKey.reveal()).address : null
  if (hot !== manifest.hotWallet) log.warn({ hotWallet: hot, funded: manifest.hotWallet }, 'the chains process funded another hot wallet than this server signs with: withdrawals will lack funds')
  const networks = cc.networks.map((n) => {
    const c = manifest.chains.find((x) => x.key === n.key)!
    return { ...n, rpcUrl: c.rpcUrl, tokens: { ...c.tokens } }
  })
  log.info({ url, chains: manifest.chains.map(({ key, id, rpcUrl, tokens }) => ({ key, id, rpcUrl, tokens })) }, 'dev chains shared')
  const dev: SharedDevChains = {
    url,
    blockTime: manifest.blockTime,
    chains: manifest.chains.map(({ key, id, rpcUrl, pid }) => ({ key, id, rpcUrl, pid })),
    async faucet(chain, to, amounts) {
      const r = await fetch(at(url, 'faucet'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faucetBody(chain, to, amounts)),
        signal: AbortSignal.timeout(30_000),
      })
      if (!r.ok) {
        const why = ((await r.json().catch(() => null)) as { error?: unknown } | null)?.error
        throw new Error(`the chains process's faucet answered ${r.status}${typeof why === 'string' ? `: ${why}` : ''}`)
      }
    },
  }
  return { dev, networks }
}
