// The one door to the chains (DESIGN §7). Everything the server reads from or sends to an EVM chain
// goes through a Gateway: deposit watchers, payment verification, the withdrawal sender, dev tools.
//
// - One ethers JsonRpcProvider per chain, with a static network (no eth_chainId before each call),
//   no polling and no response cache. Before its first use a chain is checked once: it must answer the
//   configured chain id, and each configured token must have 18 decimals. A failed check is retried on
//   the next call, so a node that is down at start is picked up when it comes back.
// - Amounts are bigint token wei (18 decimals). Conversions to the ledger's 1e-8 units: ./units.ts.
// - Chains are named by key ('bsc', 'nadi') or chain id.
// - Missing settings turn off what needs them, not the server: a call that needs a missing setting
//   throws ChainUnavailableError naming the variable to set. NADI_CHAIN_REQUIRED=1 makes them fatal
//   at start instead (see startChainGateway).

import {
  HDNodeVoidWallet,
  HDNodeWallet,
  Interface,
  JsonRpcProvider,
  Network,
  Transaction,
  Wallet,
  getAddress,
  id as keccakText,
  toBeHex,
  zeroPadValue,
  type Log,
} from 'ethers'
import type { FastifyBaseLogger } from 'fastify'
import { CHAIN_TOKENS, TOKENS, type ChainConfig, type ChainSettings, type Config, type Secret, type TokenSymbol } from '../config.ts'
import { startDevChains, type DevChains } from './devChains.ts'
import { attachDevChains } from './sharedDevChains.ts'
import { TOKEN_DECIMALS } from './units.ts'

export type ChainRef = string | number
export type Need = 'rpc' | TokenSymbol | 'hotWallet' | 'depositKey'

/** One ERC-20 Transfer event, decoded. */
export interface TransferLog {
  chain: string
  token: TokenSymbol
  txHash: string
  logIndex: number
  blockNumber: number
  blockHash: string
  /** Checksummed. */
  from: string
  to: string
  /** Token wei (18 decimals). */
  amount: bigint
}

export interface BlockHeader {
  number: number
  hash: string
  parentHash: string
  /** Unix seconds. */
  timestamp: number
}

export interface TxReceipt {
  chain: string
  txHash: string
  status: 'success' | 'reverted'
  blockNumber: number
  blockHash: string
  from: string
  to: string | null
  /** Transfer events of the configured tokens in this transaction, in log order. */
  transfers: TransferLog[]
}

export interface SignedTx {
  hash: string
  /** The signed transaction, to store and broadcast again after a crash (`rebroadcast`). */
  raw: string
  nonce: number
}

export interface SendOptions {
  /**
   * Called with the signed transaction before it is broadcast; if it throws, nothing is sent and the
   * nonce is reused. A withdrawal records the hash (and raw) here, so a crash after the broadcast
   * still leaves it knowing which transaction to look for.
   */
  beforeBroadcast?: (tx: SignedTx) => void | Promise<void>
}

export interface FaucetAmounts {
  USDT?: bigint
  NADI?: bigint
  /** Native coin (BNB / NADI) in wei: added to the account's balance. */
  native?: bigint
}

/** Test and demo controls; present only on dev chains. */
export interface DevTools {
  readonly blockTime: number | 'manual'
  /** Mines `blocks` blocks at once. */
  mine(chain: ChainRef, blocks?: number): Promise<void>
  /** anvil snapshot: an id to revert to (a revert consumes it). */
  snapshot(chain: ChainRef): Promise<string>
  /** Rewinds the chain to a snapshot: the blocks after it are gone, as in a reorg. */
  revert(chain: ChainRef, snapshotId: string): Promise<boolean>
  /** Any JSON-RPC call on a dev chain. */
  rpc<T = unknown>(chain: ChainRef, method: string, params?: unknown[]): Promise<T>
  /** The anvil process ids (for tests that check nothing is left behind). */
  readonly pids: number[]
}

export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError'
  constructor(
    readonly chain: string,
    readonly reason: 'not_configured' | 'wrong_chain' | 'bad_token' | 'dev_only',
    message: string,
  ) {
    super(message)
  }
}

export class HotWalletBalanceError extends Error {
  override name = 'HotWalletBalanceError'
  constructor(
    readonly chain: string,
    readonly token: TokenSymbol,
    readonly balance: bigint,
    readonly needed: bigint,
  ) {
    super(`hot wallet has ${balance} ${token} wei on ${chain}, needs ${needed}`)
  }
}

export interface Gateway {
  /** True on dev chains (the faucet and `dev` work). */
  readonly isDev: boolean
  readonly dev: DevTools | null
  /** Every chain with its resolved RPC URL and token addresses. */
  chains(): ChainSettings[]
  chain(chain: ChainRef): ChainSettings
  /** The settings a feature needs that are missing on a chain, as env variable names; [] when usable. */
  missing(chain: ChainRef, needs: Need[]): string[]
  /** Throws ChainUnavailableError when `missing` is not empty. */
  require(chain: ChainRef, needs: Need[]): void
  /** Checks the chain id and the tokens' decimals now (normally done on first use). */
  verify(chain: ChainRef): Promise<void>

  blockNumber(chain: ChainRef): Promise<number>
  /** The hash of block n, or null when the chain has no block n (yet, or any more). */
  blockHash(chain: ChainRef, n: number): Promise<string | null>
  block(chain: ChainRef, n: number): Promise<BlockHeader | null>
  /**
   * Transfer events of `token` in [fromBlock, toBlock] (inclusive), sorted by block and log index;
   * only those to `toAddresses` when given (an empty list gives nothing). Long ranges are split into
   * calls of at most `chain.logRange` blocks.
   */
  transferLogs(chain: ChainRef, token: TokenSymbol, fromBlock: number, toBlock: number, toAddresses?: string[]): Promise<TransferLog[]>
  /** The receipt of a mined transaction with its token transfers, or null while it is not mined. */
  receipt(chain: ChainRef, txHash: string): Promise<TxReceipt | null>
  tokenBalance(chain: ChainRef, token: TokenSymbol, address: string): Promise<bigint>
  nativeBalance(chain: ChainRef, address: string): Promise<bigint>

  /** The hot wallet's address (the same on every chain). */
  hotWalletAddress(): string
  /**
   * Sends `amount18` token wei from the hot wallet to `to`; resolves with the tx hash once the node
   * accepted it (not mined). Sends are serialized per chain with a managed nonce, recovered from the
   * chain after any error.
   */
  sendToken(chain: ChainRef, token: TokenSymbol, to: string, amount18: bigint, opts?: SendOptions): Promise<string>
  /** Broadcasts a transaction signed earlier (see SendOptions); fine if the node already has it. */
  rebroadcast(chain: ChainRef, raw: string): Promise<string>
  /** The user's deposit address: m/44'/60'/0'/0/<userId> of the platform's extended key. */
  depositAddress(chain: ChainRef, userId: number): string

  /** Dev chains only: mints tokens and adds native coin, and waits until they are spendable. */
  faucet(chain: ChainRef, to: string, amounts: FaucetAmounts): Promise<void>
  /** Waits until a transaction is mined (polling); null when it is not mined within the timeout. */
  waitForReceipt(chain: ChainRef, txHash: string, timeoutMs?: number): Promise<TxReceipt | null>

  /** Ends the providers and, on dev chains, the nodes. */
  close(): Promise<void>
}

const ERC20 = new Interface([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function mint(address to, uint256 value)',
])
export const TRANSFER_TOPIC = keccakText('Transfer(address,address,uint256)')
/** Addresses per eth_getLogs topic filter: nodes cap the size of a request. */
const ADDRESSES_PER_CALL = 200
/** BIP-44 external chain of Ethereum's first account; a user's deposit address is child <userId>. */
export const DEPOSIT_PATH = "m/44'/60'/0'/0"

/**
 * Dev chains that another process runs (the chains process, ./devChainsProcess.ts): this process reads
 * and sends on them like on any chain, and asks that process to mint, since only it holds the
 * deployer's nonces — two processes minting with one key would take the same nonce.
 */
export interface SharedDevChains {
  /** Where the chains process answers. */
  readonly url: string
  readonly blockTime: number | 'manual'
  readonly chains: readonly { key: string; id: number; rpcUrl: string; pid: number }[]
  /** Mints and funds through the chains process; resolves once it is spendable. */
  faucet(chain: string, to: string, amounts: FaucetAmounts): Promise<void>
}

const isShared = (d: DevChains | SharedDevChains): d is SharedDevChains => 'url' in d

export interface GatewayOptions {
  networks: ChainSettings[]
  hotWalletKey: Secret | null
  depositXkey: Secret | null
  logRange: number
  /** Dev chains: started here (the deployer key for the faucet, stopped on close), or another process's; and the node controls. */
  dev?: DevChains | SharedDevChains
}

/**
 * Serializes the transactions of one signer on one chain and hands out nonces. The next nonce is
 * read from the chain ('pending') on first use and after any failure, so a broadcast that failed, or
 * one that reached the node although we saw an error, never leaves a gap or a reused nonce behind.
 */
class NonceKeeper {
  private next: number | null = null
  private tail: Promise<unknown> = Promise.resolve()
  constructor(
    private readonly provider: JsonRpcProvider,
    private readonly address: string,
  ) {}

  run<T>(fn: (nonce: number) => Promise<T>): Promise<T> {
    const job = this.tail.then(async () => {
      this.next ??= await this.provider.getTransactionCount(this.address, 'pending')
      try {
        const out = await fn(this.next)
        this.next += 1
        return out
      } catch (err) {
        this.next = null
        throw err
      }
    })
    this.tail = job.catch(() => undefined)
    return job
  }
}

function isAlreadyKnown(err: unknown): boolean {
  const msg = err instanceof Error ? err.message.toLowerCase() : String(err).toLowerCase()
  return msg.includes('already known') || msg.includes('already imported') || msg.includes('nonce too low') || msg.includes('known transaction')
}

function checkBlock(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a block number, got ${n}`)
}

export function createGateway(opts: GatewayOptions): Gateway {
  const networks = opts.networks.map((n) => ({ ...n, tokens: { ...n.tokens } }))
  const dev = opts.dev ?? null
  const providers = new Map<string, JsonRpcProvider>()
  const verified = new Map<string, Promise<void>>()
  const keepers = new Map<string, NonceKeeper>()
  const hotKey = opts.hotWalletKey ? new Wallet(opts.hotWalletKey.reveal()) : null
  let depositNode: HDNodeWallet | HDNodeVoidWallet | null = null
  const depositCache = new Map<number, string>()
  let closed = false

  function chainOf(ref: ChainRef): ChainSettings {
    const c = networks.find((n) => (typeof ref === 'number' ? n.id === ref : n.key === ref))
    if (!c) throw new ChainUnavailableError(String(ref), 'not_configured', `unknown chain ${JSON.stringify(ref)}; known: ${networks.map((n) => `${n.key} (${n.id})`).join(', ')}`)
    return c
  }

  function missingOf(c: ChainSettings, needs: Need[]): string[] {
    const p = `NADI_CHAIN_${c.key.toUpperCase()}_`
    const out: string[] = []
    for (const need of needs) {
      if (need === 'rpc' && !c.rpcUrl) out.push(`${p}RPC_URL`)
      else if ((need === 'USDT' || need === 'NADI') && !c.tokens[need]) out.push(`${p}${need}_ADDRESS`)
      else if (need === 'hotWallet' && !hotKey) out.push('NADI_HOT_WALLET_KEY_FILE')
      else if (need === 'depositKey' && !opts.depositXkey) out.push('NADI_DEPOSIT_XKEY')
    }
    return out
  }

  function requireOf(c: ChainSettings, needs: Need[]): void {
    const missing = missingOf(c, needs)
    if (missing.length > 0) throw new ChainUnavailableError(c.key, 'not_configured', `chain ${c.key} (${c.id}) is not configured: set ${missing.join(', ')}`)
  }

  function providerOf(c: ChainSettings): JsonRpcProvider {
    if (closed) throw new Error('the chain gateway is closed')
    requireOf(c, ['rpc'])
    let p = providers.get(c.key)
    if (!p) {
      const network = Network.from(c.id)
      // cacheTimeout -1: a block number must be the node's answer now, not one from 250 ms ago.
      p = new JsonRpcProvider(c.rpcUrl!, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 20 })
      providers.set(c.key, p)
    }
    return p
  }

  /** The chain id and every configured token, checked once (retried after a failure). */
  function ready(c: ChainSettings): Promise<JsonRpcProvider> {
    const provider = providerOf(c)
    let v = verified.get(c.key)
    if (!v) {
      v = (async () => {
        const got = Number(await provider.send('eth_chainId', []))
        if (got !== c.id) throw new ChainUnavailableError(c.key, 'wrong_chain', `${c.rpcUrl} answers chain id ${got}, but ${c.key} is configured as ${c.id}`)
        for (const sym of CHAIN_TOKENS) {
          const addr = c.tokens[sym]
          if (!addr) continue
          let decimals: number
          try {
            decimals = Number(ERC20.decodeFunctionResult('decimals', await provider.call({ to: addr, data: ERC20.encodeFunctionData('decimals') }))[0])
          } catch (err) {
            throw new ChainUnavailableError(c.key, 'bad_token', `${sym} at ${addr} on ${c.key} does not answer decimals(): ${(err as Error).message}`)
          }
          if (decimals !== TOKEN_DECIMALS) throw new ChainUnavailableError(c.key, 'bad_token', `${sym} at ${addr} on ${c.key} has ${decimals} decimals; NADI needs ${TOKEN_DECIMALS}`)
        }
      })()
      verified.set(c.key, v)
      v.catch(() => verified.delete(c.key))
    }
    return v.then(() => provider)
  }

  function tokenOf(c: ChainSettings, token: TokenSymbol): string {
    requireOf(c, [token])
    return c.tokens[token]!
  }

  function keeper(c: ChainSettings, signer: Wallet): NonceKeeper {
    const k = `${c.key}:${signer.address}`
    let nk = keepers.get(k)
    if (!nk) keepers.set(k, (nk = new NonceKeeper(providerOf(c), signer.address)))
    return nk
  }

  function decodeTransfer(c: ChainSettings, log: Log): TransferLog | null {
    if (log.removed) return null
    if (log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) return null // ERC-721 Transfers have 4 topics
    if (log.data.length !== 66) return null
    const token = TOKENS.find((t) => c.tokens[t] && c.tokens[t]!.toLowerCase() === log.address.toLowerCase())
    if (!token) return null
    return {
      chain: c.key,
      token,
      txHash: log.transactionHash,
      logIndex: log.index,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash,
      from: getAddress(`0x${log.topics[1]!.slice(26)}`),
      to: getAddress(`0x${log.topics[2]!.slice(26)}`),
      amount: BigInt(log.data),
    }
  }

  async function receiptOf(c: ChainSettings, txHash: string): Promise<TxReceipt | null> {
    const provider = await ready(c)
    const r = await provider.getTransactionReceipt(txHash)
    if (!r) return null
    return {
      chain: c.key,
      txHash: r.hash,
      status: r.status === 1 ? 'success' : 'reverted',
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      from: getAddress(r.from),
      to: r.to ? getAddress(r.to) : null,
      transfers: r.logs.map((l) => decodeTransfer(c, l)).filter((t): t is TransferLog => t !== null),
    }
  }

  function devOnly(c: ChainSettings): DevChains | SharedDevChains {
    if (!dev) throw new ChainUnavailableError(c.key, 'dev_only', 'only the dev chains have a faucet and node controls')
    return dev
  }

  async function mine(c: ChainSettings, blocks = 1): Promise<void> {
    devOnly(c)
    if (!Number.isSafeInteger(blocks) || blocks < 1) throw new RangeError(`blocks must be ≥ 1, got ${blocks}`)
    await providerOf(c).send('anvil_mine', [toBeHex(blocks)])
  }

  const gateway: Gateway = {
    isDev: dev !== null,
    dev: dev && {
      blockTime: dev.blockTime,
      pids: dev.chains.map((c) => c.pid),
      mine: (chain, blocks) => mine(chainOf(chain), blocks),
      snapshot: (chain) => providerOf(chainOf(chain)).send('evm_snapshot', []) as Promise<string>,
      revert: (chain, snapshotId) => providerOf(chainOf(chain)).send('evm_revert', [snapshotId]) as Promise<boolean>,
      rpc: <T>(chain: ChainRef, method: string, params: unknown[] = []) => providerOf(chainOf(chain)).send(method, params) as Promise<T>,
    },
    chains: () => networks.map((n) => ({ ...n, tokens: { ...n.tokens } })),
    chain: (chain) => {
      const c = chainOf(chain)
      return { ...c, tokens: { ...c.tokens } }
    },
    missing: (chain, needs) => missingOf(chainOf(chain), needs),
    require: (chain, needs) => requireOf(chainOf(chain), needs),
    verify: async (chain) => void (await ready(chainOf(chain))),

    async blockNumber(chain) {
      return (await ready(chainOf(chain))).getBlockNumber()
    },
    async block(chain, n) {
      checkBlock(n, 'n')
      const b = await (await ready(chainOf(chain))).getBlock(n)
      return b && b.hash ? { number: b.number, hash: b.hash, parentHash: b.parentHash, timestamp: b.timestamp } : null
    },
    async blockHash(chain, n) {
      return (await gateway.block(chain, n))?.hash ?? null
    },
    async transferLogs(chain, token, fromBlock, toBlock, toAddresses) {
      checkBlock(fromBlock, 'fromBlock')
      checkBlock(toBlock, 'toBlock')
      const c = chainOf(chain)
      const address = tokenOf(c, token)
      if (toBlock < fromBlock || (toAddresses && toAddresses.length === 0)) return []
      const provider = await ready(c)
      const topicSets: (string[] | null)[] = []
      if (!toAddresses) topicSets.push(null)
      else {
        const padded = [...new Set(toAddresses.map((a) => zeroPadValue(getAddress(a), 32).toLowerCase()))]
        for (let i = 0; i < padded.length; i += ADDRESSES_PER_CALL) topicSets.push(padded.slice(i, i + ADDRESSES_PER_CALL))
      }
      const out: TransferLog[] = []
      for (let from = fromBlock; from <= toBlock; from += opts.logRange) {
        const to = Math.min(toBlock, from + opts.logRange - 1)
        const calls = topicSets.map((toTopics) => provider.getLogs({ address, fromBlock: from, toBlock: to, topics: [TRANSFER_TOPIC, null, toTopics] }))
        for (const logs of await Promise.all(calls)) {
          for (const l of logs) {
            const t = decodeTransfer(c, l)
            if (t) out.push(t)
          }
        }
      }
      return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex)
    },
    receipt: (chain, txHash) => receiptOf(chainOf(chain), txHash),
    async tokenBalance(chain, token, address) {
      const c = chainOf(chain)
      const tokenAddr = tokenOf(c, token)
      const provider = await ready(c)
      const data = ERC20.encodeFunctionData('balanceOf', [getAddress(address)])
      return BigInt(ERC20.decodeFunctionResult('balanceOf', await provider.call({ to: tokenAddr, data }))[0] as bigint)
    },
    async nativeBalance(chain, address) {
      return (await ready(chainOf(chain))).getBalance(getAddress(address))
    },

    hotWalletAddress() {
      if (!hotKey) throw new ChainUnavailableError('*', 'not_configured', 'no hot wallet: set NADI_HOT_WALLET_KEY_FILE')
      return hotKey.address
    },
    async sendToken(chain, token, to, amount18, sendOpts = {}) {
      const c = chainOf(chain)
      requireOf(c, ['rpc', token, 'hotWallet'])
      const recipient = getAddress(to) // throws on a bad checksum
      if (typeof amount18 !== 'bigint' || amount18 <= 0n) throw new RangeError(`amount must be a positive bigint of token wei, got ${amount18}`)
      const provider = await ready(c)
      const signer = hotKey!.connect(provider)
      const tokenAddr = c.tokens[token]!
      const balance = await gateway.tokenBalance(c.key, token, signer.address)
      if (balance < amount18) throw new HotWalletBalanceError(c.key, token, balance, amount18)
      const data = ERC20.encodeFunctionData('transfer', [recipient, amount18])
      return keeper(c, signer).run(async (nonce) => {
        const tx = await signer.populateTransaction({ to: tokenAddr, data, nonce })
        const raw = await signer.signTransaction(tx)
        const hash = Transaction.from(raw).hash!
        await sendOpts.beforeBroadcast?.({ hash, raw, nonce })
        await broadcast(provider, raw, hash)
        return hash
      })
    },
    async rebroadcast(chain, raw) {
      const provider = await ready(chainOf(chain))
      const hash = Transaction.from(raw).hash!
      await broadcast(provider, raw, hash)
      return hash
    },
    depositAddress(chain, userId) {
      const c = chainOf(chain)
      requireOf(c, ['depositKey'])
      if (!Number.isSafeInteger(userId) || userId < 0 || userId >= 2 ** 31) throw new RangeError(`userId must be an integer in [0, 2^31), got ${userId}`)
      let addr = depositCache.get(userId)
      if (!addr) {
        if (!depositNode) {
          const node = HDNodeWallet.fromExtendedKey(opts.depositXkey!.reveal())
          depositNode = node.depth === 0 && node instanceof HDNodeWallet ? node.derivePath(DEPOSIT_PATH).neuter() : node
        }
        addr = depositNode.deriveChild(userId).address
        if (depositCache.size >= 10_000) depositCache.clear()
        depositCache.set(userId, addr)
      }
      return addr
    },

    async faucet(chain, to, amounts) {
      const c = chainOf(chain)
      const d = devOnly(c)
      const recipient = getAddress(to)
      for (const sym of [...TOKENS, 'native'] as const) if ((amounts[sym] ?? 0n) < 0n) throw new RangeError(`faucet ${sym} amount must not be negative`)
      if (isShared(d)) return d.faucet(c.key, recipient, amounts)
      const provider = await ready(c)
      const owner = new Wallet(d.deployerKey, provider)
      const hashes: string[] = []
      for (const sym of TOKENS) {
        const amount = amounts[sym]
        if (amount === undefined || amount === 0n) continue
        const data = ERC20.encodeFunctionData('mint', [recipient, amount])
        hashes.push(
          await keeper(c, owner).run(async (nonce) => {
            const raw = await owner.signTransaction(await owner.populateTransaction({ to: tokenOf(c, sym), data, nonce, gasLimit: 120_000n }))
            const hash = Transaction.from(raw).hash!
            await broadcast(provider, raw, hash)
            return hash
          }),
        )
      }
      if (amounts.native !== undefined && amounts.native !== 0n) {
        const have = await provider.getBalance(recipient)
        await provider.send('anvil_setBalance', [recipient, toBeHex(have + amounts.native)])
      }
      // Interval or manual mining: mine now, so the funds are there at once.
      if (hashes.length > 0 && d.blockTime !== 0) await provider.send('evm_mine', [])
      for (const h of hashes) {
        const r = await gateway.waitForReceipt(c.key, h, 10_000)
        if (!r || r.status !== 'success') throw new Error(`faucet mint ${h} on ${c.key} ${r ? 'reverted' : 'was not mined'}`)
      }
    },
    async waitForReceipt(chain, txHash, timeoutMs = 30_000) {
      const c = chainOf(chain)
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const r = await receiptOf(c, txHash)
        if (r || Date.now() >= deadline) return r
        await new Promise((res) => setTimeout(res, dev ? 50 : 1000))
      }
    },

    async close() {
      if (closed) return
      closed = true
      for (const p of providers.values()) p.destroy()
      providers.clear()
      if (dev && !isShared(dev)) await dev.stop()
    },
  }
  return gateway
}

/** Broadcasts a signed transaction; a node that already has this very transaction is a success. */
async function broadcast(provider: JsonRpcProvider, raw: string, hash: string): Promise<void> {
  try {
    await provider.send('eth_sendRawTransaction', [raw])
  } catch (err) {
    if (isAlreadyKnown(err) && (await provider.getTransaction(hash))) return
    throw err
  }
}

/** Dev chains: fresh tokens in the hot wallet, so withdrawals work from the first minute. */
const DEV_HOT_WALLET_TOKENS = 1_000_000n * 10n ** 18n
const DEV_HOT_WALLET_NATIVE = 1_000n * 10n ** 18n

type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>

/**
 * The gateway of a server: on dev chains it starts the nodes first (and stops them in close());
 * otherwise it uses the configured RPC URLs and addresses and starts nothing. A missing setting turns
 * off the features that need it (logged once here) unless config.chain.required, which makes it fatal.
 */
/**
 * Starts the dev chains of `cc` in this process, with the hot wallet funded: the networks with their
 * nodes' URLs and token addresses. (A server's own pair, or the chains process's.)
 */
export async function startOwnDevChains(cc: ChainConfig, log: Logger): Promise<{ dev: DevChains; networks: ChainSettings[]; hotWallet: string | null }> {
  const t0 = performance.now()
  const hot = cc.hotWalletKey ? new Wallet(cc.hotWalletKey.reveal()).address : null
  let dev: DevChains
  try {
    dev = await startDevChains({
      chains: cc.networks.map((n) => ({ key: n.key, id: n.id })),
      blockTime: cc.devBlockTime,
      fund: hot ? [{ address: hot, native: DEV_HOT_WALLET_NATIVE, USDT: DEV_HOT_WALLET_TOKENS, NADI: DEV_HOT_WALLET_TOKENS, MEME: DEV_HOT_WALLET_TOKENS }] : [],
    })
  } catch (err) {
    throw new Error(`Dev chains failed to start (NADI_DEV_CHAINS=0 runs the server without chains): ${(err as Error).message}`, { cause: err })
  }
  const networks = cc.networks.map((n) => {
    const d = dev.chains.find((x) => x.key === n.key)!
    return { ...n, rpcUrl: d.rpcUrl, tokens: { ...d.tokens } }
  })
  log.info(
    { ms: Math.round(performance.now() - t0), chains: dev.chains.map((c) => ({ key: c.key, id: c.id, rpcUrl: c.rpcUrl, tokens: c.tokens })), hotWallet: hot },
    'dev chains started',
  )
  return { dev, networks, hotWallet: hot }
}

export async function startChainGateway(config: Config, log: Logger): Promise<Gateway> {
  const cc = config.chain
  const keys = { hotWalletKey: cc.hotWalletKey, depositXkey: cc.depositXkey, logRange: cc.logRange }
  if (cc.devChainsUrl) {
    const { dev, networks } = await attachDevChains(cc, log)
    return createGateway({ networks, ...keys, dev })
  }
  if (cc.devChains) {
    const { dev, networks } = await startOwnDevChains(cc, log)
    return createGateway({ networks, ...keys, dev })
  }

  const gateway = createGateway({ networks: cc.networks, ...keys })
  const all: Need[] = ['rpc', 'USDT', 'NADI', 'hotWallet', 'depositKey']
  const missing = [...new Set(cc.networks.flatMap((n) => gateway.missing(n.key, all)))]
  if (missing.length > 0) {
    if (cc.required) throw new Error(`Chain settings missing (NADI_CHAIN_REQUIRED=1): ${missing.join(', ')}`)
    log.warn({ missing }, 'chain settings missing: recharge, withdrawal and on-chain payment are off where they are needed')
  }
  // Check the configured nodes in the background: a node that is down must not stop the server.
  for (const n of cc.networks) {
    if (!n.rpcUrl) continue
    gateway.verify(n.key).then(
      () => log.info({ chain: n.key, id: n.id }, 'chain ready'),
      (err: unknown) => log.error({ chain: n.key, err }, 'chain check failed; retried on first use'),
    )
  }
  return gateway
}
