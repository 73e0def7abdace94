import fs from 'node:fs'
import path from 'node:path'
import { HDNodeWallet, Mnemonic, SigningKey, id as keccakText } from 'ethers'
import { Secret, envAddress, envFlag, envHttpUrl, envInt, type Env } from '../settings.ts'

/** The coins users deposit, pay with and withdraw (NADI only): the chain watcher and the payments read these. */
export type TokenSymbol = 'USDT' | 'NADI'
export const TOKENS: readonly TokenSymbol[] = ['USDT', 'NADI']
/**
 * Every token the platform has on a chain: the coins, and MEME, the airdrop token (SPEC §1 "MEME airdrop
 * doubling") — held by the hot wallet and credited by airdrops, never deposited nor withdrawn.
 */
export type ChainTokenSymbol = TokenSymbol | 'MEME'
export const CHAIN_TOKENS: readonly ChainTokenSymbol[] = [...TOKENS, 'MEME']

/** One EVM chain: `key` names it in code and env (NADI_CHAIN_<KEY>_*). */
export interface ChainSettings {
  id: number
  key: string
  name: string
  nativeSymbol: string
  /** JSON-RPC endpoint; null when unset (the dev chains fill it in at start). */
  rpcUrl: string | null
  /** Blocks on top of a deposit's block before it is credited (the deposit's own block counts as 1). */
  confirmations: number
  /** Checksummed ERC-20 addresses (18 decimals); null when the token is not on this chain. */
  tokens: Record<ChainTokenSymbol, string | null>
}

export interface ChainConfig {
  /** Start two local anvil nodes with freshly deployed test tokens (default: on in demo development). */
  devChains: boolean
  /**
   * NADI_DEV_CHAINS_URL: the dev chains run by a process of their own (`npm run chains`, ./devChainsProcess.ts),
   * which this process uses instead of starting its own — what lets role processes share one pair. Implies devChains.
   */
  devChainsUrl: string | null
  /** Dev chains: seconds per block (interval mining), 0 = a block per transaction, 'manual' = only evm_mine. */
  devBlockTime: number | 'manual'
  networks: ChainSettings[]
  /** The hot wallet's private key: NADI_HOT_WALLET_KEY_FILE (preferred) or NADI_HOT_WALLET_KEY; a fixed dev key with dev chains. */
  hotWalletKey: Secret | null
  /**
   * Extended key for deposit addresses (NADI_DEPOSIT_XKEY): an xpub of m/44'/60'/0'/0 (preferred: the server
   * never holds the deposit keys) or a root xprv. Address of user N: m/44'/60'/0'/0/N.
   */
  depositXkey: Secret | null
  /** Most blocks one eth_getLogs call asks for (public RPCs cap the range). */
  logRange: number
  /** NADI_CHAIN_REQUIRED=1: refuse to start when a chain setting is missing instead of turning features off. */
  required: boolean
}

/** The deposit watcher (server/chain/depositWatcher.ts). */
export interface DepositSettings {
  /** NADI_DEPOSIT_POLL_MS: milliseconds between passes (1 s with dev chains, else 5 s). */
  pollMs: number
  /** NADI_DEPOSIT_REORG_WINDOW (12): blocks re-read on every pass, to see replaced blocks. */
  reorgWindow: number
  /** NADI_CHAIN_<KEY>_DEPOSIT_START_BLOCK: where a chain is read from the first time, per chain key. */
  startBlocks: Record<string, number>
}

/** Dev chains only: anvil's well-known mnemonic. Account 0 deploys the tokens, account 1 is the hot wallet. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
/** Dev only: the deposit root, distinct from anvil's accounts so no deposit address is a funded dev account. */
export function devDepositXpub(): string {
  const mnemonic = Mnemonic.fromEntropy(keccakText('nadi dev deposit addresses').slice(0, 34))
  return HDNodeWallet.fromSeed(mnemonic.computeSeed()).derivePath("m/44'/60'/0'/0").neuter().extendedKey
}
export function devHotWalletKey(): string {
  return HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/1").privateKey
}

/**
 * The chains and the keys the server uses on them. `root` is where a relative NADI_HOT_WALLET_KEY_FILE is
 * read from; dev chains default to on in the demo's development (`demoDevelopment`) and are refused in production.
 */
export function readChainSettings(env: Env, root: string, opts: { production: boolean; demoDevelopment: boolean }): ChainConfig {
  const nadiChainId = envInt(env, 'NADI_CHAIN_ID', 9_2025, 1)
  // Dev chains come with demo development: tests opt in (NADI_DEV_CHAINS=1), so a server in a test starts no nodes.
  const devChainsUrl = envHttpUrl(env, 'NADI_DEV_CHAINS_URL')
  if (devChainsUrl && env.NADI_DEV_CHAINS?.trim() === '0') throw new Error('NADI_DEV_CHAINS=0 and NADI_DEV_CHAINS_URL contradict each other: the URL is where this process finds the dev chains')
  const devChains = devChainsUrl !== null || envFlag(env, 'NADI_DEV_CHAINS', opts.demoDevelopment ? '1' : '0')
  if (devChains && opts.production) throw new Error(`${devChainsUrl ? 'NADI_DEV_CHAINS_URL' : 'NADI_DEV_CHAINS=1'} is not allowed in production: the dev chains' keys are public`)
  const network = (id: number, key: string, name: string, nativeSymbol: string): ChainSettings => {
    const p = `NADI_CHAIN_${key.toUpperCase()}_`
    return {
      id,
      key,
      name,
      nativeSymbol,
      rpcUrl: envHttpUrl(env, `${p}RPC_URL`),
      confirmations: envInt(env, `${p}CONFIRMATIONS`, 3, 1),
      tokens: { USDT: envAddress(env, `${p}USDT_ADDRESS`), NADI: envAddress(env, `${p}NADI_ADDRESS`), MEME: envAddress(env, `${p}MEME_ADDRESS`) },
    }
  }
  const networks = [network(56, 'bsc', 'BNB Smart Chain', 'BNB'), network(nadiChainId, 'nadi', 'NADI Chain', 'NADI')]
  if (nadiChainId === 56) throw new Error('NADI_CHAIN_ID must differ from BSC (56)')
  return {
    devChains,
    devChainsUrl,
    devBlockTime: devBlockTime(env),
    networks,
    hotWalletKey: hotWalletKey(env, root, devChains),
    depositXkey: depositXkey(env, devChains),
    logRange: envInt(env, 'NADI_CHAIN_LOG_RANGE', 2000, 1),
    required: env.NADI_CHAIN_REQUIRED === '1',
  }
}

/** The NADI chain's id (NADI_CHAIN_ID): sign-in messages name it. */
export function nadiChainId(chain: ChainConfig): number {
  const nadi = chain.networks.find((n) => n.key === 'nadi')
  if (!nadi) throw new Error('the NADI chain is missing from the networks')
  return nadi.id
}

export function readDepositSettings(env: Env, chain: ChainConfig): DepositSettings {
  return {
    pollMs: envInt(env, 'NADI_DEPOSIT_POLL_MS', chain.devChains ? 1000 : 5000, 100),
    reorgWindow: envInt(env, 'NADI_DEPOSIT_REORG_WINDOW', 12, 1),
    startBlocks: Object.fromEntries(
      chain.networks.flatMap((n) => {
        const name = `NADI_CHAIN_${n.key.toUpperCase()}_DEPOSIT_START_BLOCK`
        return env[name]?.trim() ? [[n.key, envInt(env, name, 0, 0)]] : []
      }),
    ),
  }
}

function hotWalletKey(env: Env, root: string, devChains: boolean): Secret | null {
  const file = env.NADI_HOT_WALLET_KEY_FILE?.trim()
  const inline = env.NADI_HOT_WALLET_KEY?.trim()
  if (file && inline) throw new Error('Set NADI_HOT_WALLET_KEY_FILE or NADI_HOT_WALLET_KEY, not both')
  let key: Secret | null = null
  if (file) {
    const p = path.resolve(root, file)
    let text: string
    try {
      text = fs.readFileSync(p, 'utf8').trim()
    } catch (err) {
      throw new Error(`NADI_HOT_WALLET_KEY_FILE: cannot read ${p} (${(err as Error).message})`, { cause: err })
    }
    key = new Secret(text, `NADI_HOT_WALLET_KEY_FILE=${p}`)
  } else if (inline) {
    key = new Secret(inline, 'NADI_HOT_WALLET_KEY')
  }
  if (!key) return devChains ? new Secret(devHotWalletKey(), 'dev chains (anvil account 1)') : null
  const v = key.reveal().startsWith('0x') ? key.reveal() : `0x${key.reveal()}`
  try {
    new SigningKey(v)
  } catch {
    throw new Error(`${key.source}: not a 32-byte hex private key`)
  }
  return new Secret(v, key.source)
}

function depositXkey(env: Env, devChains: boolean): Secret | null {
  const raw = env.NADI_DEPOSIT_XKEY?.trim()
  if (!raw) return devChains ? new Secret(devDepositXpub(), 'dev chains') : null
  let node: ReturnType<typeof HDNodeWallet.fromExtendedKey>
  try {
    node = HDNodeWallet.fromExtendedKey(raw)
  } catch {
    throw new Error('NADI_DEPOSIT_XKEY must be an extended key (xpub… or xprv…)')
  }
  const isPrivate = node instanceof HDNodeWallet
  if (!(node.depth === 4 || (node.depth === 0 && isPrivate))) {
    throw new Error(`NADI_DEPOSIT_XKEY must be the xpub (or xprv) of m/44'/60'/0'/0 (depth 4) or a root xprv, got depth ${node.depth}`)
  }
  return new Secret(raw, 'NADI_DEPOSIT_XKEY')
}

function devBlockTime(env: Env): number | 'manual' {
  const raw = env.NADI_DEV_BLOCK_TIME?.trim()
  if (raw === 'manual') return 'manual'
  return envInt(env, 'NADI_DEV_BLOCK_TIME', 1)
}
