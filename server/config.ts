import crypto from 'node:crypto'
import fs from 'node:fs'
import { inspect } from 'node:util'
import path from 'node:path'
import { HDNodeWallet, Mnemonic, SigningKey, getAddress, id as keccakText } from 'ethers'
import { parseMoney } from '../contract/money.ts'
import { parseShares } from './modules/ranking/rules.ts'
import { isPostgresUrl } from './db/connection.ts'

/** The coins users deposit, pay with and withdraw (NADI only): the chain watcher and the payments read these. */
export type TokenSymbol = 'USDT' | 'NADI'
export const TOKENS: readonly TokenSymbol[] = ['USDT', 'NADI']
/**
 * Every token the platform has on a chain: the coins, and MEME, the airdrop token (SPEC §1 "MEME airdrop
 * doubling") — held by the hot wallet and credited by airdrops, never deposited nor withdrawn.
 */
export type ChainTokenSymbol = TokenSymbol | 'MEME'
export const CHAIN_TOKENS: readonly ChainTokenSymbol[] = [...TOKENS, 'MEME']

/** A value that must not end up in a log: it prints as [redacted]; `reveal()` gives it. */
export class Secret {
  readonly #value: string
  /** Where it came from, for messages (e.g. "NADI_HOT_WALLET_KEY_FILE=/run/secrets/hot"). */
  readonly source: string
  constructor(value: string, source: string) {
    this.#value = value
    this.source = source
  }
  reveal(): string {
    return this.#value
  }
  toJSON(): string {
    return '[redacted]'
  }
  toString(): string {
    return '[redacted]'
  }
  [inspect.custom](): string {
    return `Secret(${this.source})`
  }
}

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

/** Every setting of the server, read once from the environment. Business constants live here too. */
export interface Config {
  env: 'development' | 'production' | 'test'
  /** Demo mode seeds banners, notices and the public config, and offers the demo wallet. */
  demo: boolean
  host: string
  port: number
  dataDir: string
  /** ':memory:' or a file path. */
  dbFile: string
  /** NADI_DATABASE_URL: a postgres:// URL to run on PostgreSQL instead of the SQLite file. */
  databaseUrl: string | null
  /** What openDatabase opens: databaseUrl, else dbFile. */
  database: string
  /** The local name the writer's holder file and operator socket go by: dbFile, or one per PostgreSQL database in the data folder. */
  lockFile: string
  distDir: string
  /** NADI_SW_KILL=1: /sw.js answers a worker that unregisters itself and empties every cache. */
  swKill: boolean
  /** Origin put in sign-in messages; derived from the request when unset. */
  publicUrl: string | null
  rootInviteCode: string | null
  logLevel: string
  /** Behind a reverse proxy, take the client IP from X-Forwarded-For. */
  trustProxy: boolean
  bodyLimit: number
  session: { idleMs: number; maxAgeMs: number }
  login: { nonceTtlMs: number; statement: string; chainId: number }
  rateLimit: { windowMs: number; loginPerAddress: number; loginPerIp: number }
  idempotencyTtlMs: number
  /** The public view of `chain.networks` (ids and names), as the app's config shows it. */
  chains: { id: number; key: string; name: string; nativeSymbol: string }[]
  chain: ChainConfig
  limits: { withdrawMin: string; withdrawConfirmations: number; displayDecimals: number; pageSize: number }
  nadiReferencePrice: string
  chainNotice: { id: string; countdownSeconds: number; startsAt: number; endsAt: number } | null
  ws: { maxSubscriptions: number; maxMessagesPerSecond: number; heartbeatMs: number; maxPayload: number }
  /** The deposit watcher (server/chain/depositWatcher.ts). */
  deposits: {
    /** NADI_DEPOSIT_POLL_MS: milliseconds between passes (1 s with dev chains, else 5 s). */
    pollMs: number
    /** NADI_DEPOSIT_REORG_WINDOW (12): blocks re-read on every pass, to see replaced blocks. */
    reorgWindow: number
    /** NADI_CHAIN_<KEY>_DEPOSIT_START_BLOCK: where a chain is read from the first time, per chain key. */
    startBlocks: Record<string, number>
  }
  withdraw: WithdrawSettings
  walletExchange: WalletExchangeSettings
  payment: PaymentSettings
  /** Orders to pay: NADI_ORDER_PAY_MS (30 min), how long one may stay unpaid before it is cancelled. */
  orders: { payWithinMs: number; holds: HoldSettings }
  /** Destroy, joint and trial mining (issue 11): power bought and released daily as NADI. */
  mining: {
    /** NADI_DESTROY_MIN (100 NADI): the least one may burn at once. */
    destroyMin: bigint
    /** NADI_JOINT_MIN (10 USDT): the least one may contribute at once. */
    jointMin: bigint
    /** NADI_DESTROY_MULTIPLIER_PPM (3,000,000 = 3×): power per NADI burned. */
    destroyMultiplierPpm: bigint
    /** NADI_JOINT_MULTIPLIER_PPM (2,000,000 = 2×): power per NADI's worth of USDT contributed. */
    jointMultiplierPpm: bigint
    /** NADI_POWER_GIFT_PPM (100,000 = 10 %): gift power on top of what is bought. */
    giftPpm: bigint
    /** NADI_POWER_RELEASE_PPM (5,000 = 0.5 %/day): the share of its power a position releases each day. */
    releasePpm: number
    /** NADI_TRIAL_POWER (100 in the demo, else 0): the experience power a newcomer gets (0: none), released for NADI_TRIAL_DAYS (7). */
    trialPower: bigint
    trialDays: number
  }
  /** Devices (issue 11 part 2): an activated device mines from the next UTC day. */
  devices: {
    /** NADI_DEVICE_RATE_PPM (10,000): NADI per unit of power per day, in millionths (300 power → 3 NADI a day). */
    ratePpm: number
  }
  /** Super Miner nodes and loans (issue 11 parts 4 and 6). */
  node: {
    /** NADI_NODE_FEE_POOL_PPM (500,000 = 50 %): the share of each day's withdraw fees split among node holders by withdraw_rate. */
    feePoolPpm: bigint
    /**
     * NADI_NODE_DIVIDEND_POOL_PPM (200,000 = 20 %): node dividends, a grant apart from the fee share (SPEC §1) —
     * the share of each day's spot trading fees split among node holders by their USDT stake.
     */
    dividendPoolPpm: bigint
    /** NADI_DEMO_LOAN_FUND (100000): USDT the demo puts in the loans account (0: none). */
    demoLoanFund: bigint
  }
  /** The ranking (issue 12 part 3; server/modules/ranking). */
  ranking: RankingSettings
  /** The shops (DESIGN §10): devices, gold, cars, their orders and releases. */
  commerce: {
    /** NADI_GOLD_PRICE (98.5): the gold price per gram in USDT until one is recorded (units of 1e-8). */
    goldPrice: bigint
    /** NADI_GOLD_WALK_MS: the demo's gold price moves this often (0: it does not move). */
    goldWalkMs: number
    /** NADI_RECEIPT_AUTO_DAYS (7): receipt of a shipped order is confirmed by itself after this long (ms). */
    autoReceiptMs: number
    /** NADI_RELEASE_POLL_MS (60 s): how often the release job looks for a day to post. */
    releasePollMs: number
    /** NADI_DEMO_RELEASE_FUND (1,000,000 NADI): what the demo puts in the release account. */
    demoReleaseFund: bigint
    /** Demo catalog and gold walk (demo mode only). */
    demoCatalog: boolean
  }
  /** Uploads (server/modules/upload): common/generateR2PresignedUrl and the store behind it. */
  upload: UploadSettings
  /** Car applications (server/modules/car/apply.ts). */
  carApply: {
    /** NADI_CAR_APPLY_MAX_OPEN (3): applications one user may have waiting (submitted or reviewing) at once. */
    maxOpen: number
  }
  /** The spot market NADI/USDT (server/exchange). */
  trade: {
    /** Fees in parts per million of what the payer receives (1000 = 0.1 %). */
    makerFeePpm: number
    takerFeePpm: number
    /** Group commit: a batch commits after at most this long, or at this many commands. */
    maxDelayMs: number
    maxBatch: number
    /** The book is snapshotted every this many commands; a start replays only the journal after the newest snapshot. */
    snapshotEvery: number
    /** Demo mode: a market-making account quotes around a random walk and trades now and then. */
    demoMarket: boolean
    /** How often the demo market moves, ms. */
    demoMarketEveryMs: number
  }
}

export type Env = Record<string, string | undefined>

/** A money setting (decimal, at most 8 decimals) in units of 1e-8; anything else fails start-up. */
export function envMoney(env: Env, name: string, dflt: string): bigint {
  const raw = env[name]?.trim() || dflt
  const v = parseMoney(raw)
  if (v === null) throw new Error(`${name} must be a decimal amount with at most 8 decimals, got "${raw}"`)
  return v
}

export type Failpoint = 'crash-after-store'

/** NADI withdrawals (SPEC §9's minimum and confirmations are in `limits`). */
export interface WithdrawSettings {
  /** NADI_WITHDRAW_FEE (default 0.1): units of 1e-8 taken on top of the amount; the address receives the amount in full. */
  fee: bigint
  /** NADI_WITHDRAW_AUTO_MAX (default 1000): amounts strictly below it are approved at once, the rest wait for an operator. */
  autoApproveBelow: bigint
  /** NADI_WITHDRAW_EVERY_MS (default 1000): how often the sender looks for work. */
  everyMs: number
  /**
   * NADI_WITHDRAW_SEND_ATTEMPTS (default 10): sends that fail before anything is signed and stored
   * (node unreachable…) before the withdrawal fails and its funds are returned. Failures that cannot
   * heal (the hot wallet holds too little, the transfer would revert) fail at once.
   */
  sendAttempts: number
  /**
   * NADI_WITHDRAW_FAILPOINT, tests only (ignored in production): 'crash-after-store' kills the process
   * (SIGKILL) right after a signed transaction is stored and before it is broadcast.
   */
  failpoint: Failpoint | null
}

/** The wallet's NADI ↔ USDT exchange at a quoted price (the reference price is `nadiReferencePrice`). */
export interface WalletExchangeSettings {
  /** Fee in basis points of the received amount (20 = 0.2%): NADI_EXCHANGE_FEE_BPS. */
  feeBps: number
  /** How long a quote can be confirmed: NADI_EXCHANGE_QUOTE_TTL_MS (30 s). */
  quoteTtlMs: number
  /** Demo mode: what the treasury is funded with at start, per asset, units of 1e-8: NADI_DEMO_TREASURY. */
  demoTreasury: bigint
}

/**
 * What an unpaid order of stock or a node seat (a hold) may take (README "Holds";
 * server/modules/orders/holds.ts).
 */
export interface HoldSettings {
  /** NADI_ORDER_HOLD_MS (15 min): how long such an order stays unpaid before it is cancelled and gives its stock or seat back. */
  holdMs: number
  /** NADI_HOLD_MAX_OPEN (3): unpaid holds one user may have open at once, of all products and tiers. */
  maxOpen: number
  /** NADI_HOLD_MAX_PER_ITEM (1): unpaid holds one user may have open of one product or one node tier. */
  maxPerItem: number
  /**
   * NADI_HOLD_SHARE_PPM (200,000 = 20 %): the share of an item (stock or seats left plus those held)
   * that unpaid holds may take before only a buyer whose fund balance pays all their holds may hold more.
   */
  sharePpm: number
  /** NADI_HOLD_COOLDOWN_AFTER (3; 0: never): holds expired unpaid within the window after which a user waits to hold again. */
  cooldownAfter: number
  /** NADI_HOLD_COOLDOWN_WINDOW_MS (6 h): that window; the wait ends when the oldest of those expiries leaves it. */
  cooldownWindowMs: number
}

/** On-chain payments of orders (server/modules/payment). */
export interface PaymentSettings {
  /** NADI_PAYMENT_POLL_MS: a verification pass this often (1 s on dev chains, else 5 s). */
  pollMs: number
  /** NADI_PAYMENT_PENDING_TIMEOUT_MS (10 min): how long a submitted hash may stay without a receipt before it fails 'not_found'. */
  pendingTimeoutMs: number
  /** NADI_PAYMENT_RECEIVING_ADDRESS: overrides the hot wallet as the receiving address. */
  receivingAddress: string | null
}

/** An integer setting from the environment, with its default and lower bound; anything else fails start-up. */
export function envInt(env: Env, name: string, dflt: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return dflt
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new Error(max === Number.MAX_SAFE_INTEGER ? `${name} must be an integer ≥ ${min}, got "${raw}"` : `${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return n
}

function str(env: Env, name: string, dflt: string): string {
  const raw = env[name]
  return raw === undefined || raw === '' ? dflt : raw
}

function address(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  try {
    return getAddress(raw)
  } catch {
    throw new Error(`${name} must be a 0x address with a valid checksum (or all lower case), got "${raw}"`)
  }
}

function rpcUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${raw}"`)
  return raw
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

export function loadConfig(env: Env = process.env, root = process.cwd()): Config {
  const nodeEnv = str(env, 'NADI_ENV', env.NODE_ENV === 'test' ? 'test' : 'development')
  if (nodeEnv !== 'development' && nodeEnv !== 'production' && nodeEnv !== 'test') {
    throw new Error(`NADI_ENV must be development, production or test, got "${nodeEnv}"`)
  }
  const production = nodeEnv === 'production'
  const dataDir = path.resolve(root, str(env, 'NADI_DATA_DIR', 'data'))
  const rootInviteCode = env.NADI_ROOT_INVITE_CODE?.trim().toUpperCase() || null
  if (rootInviteCode && !/^[A-Z0-9]{4,16}$/.test(rootInviteCode)) {
    throw new Error('NADI_ROOT_INVITE_CODE must be 4–16 letters or digits')
  }
  const nadiChainId = envInt(env, 'NADI_CHAIN_ID', 9_2025, 1)
  const countdown = envInt(env, 'NADI_CHAIN_NOTICE_SECONDS', 5)
  const demo = str(env, 'NADI_DEMO', production ? '0' : '1') === '1'
  // Dev chains come with demo development: tests opt in (NADI_DEV_CHAINS=1), so a server in a test starts no nodes.
  const devChains = str(env, 'NADI_DEV_CHAINS', demo && nodeEnv === 'development' ? '1' : '0') === '1'
  if (devChains && production) throw new Error('NADI_DEV_CHAINS=1 is not allowed in production: its keys are public')
  const network = (id: number, key: string, name: string, nativeSymbol: string): ChainSettings => {
    const p = `NADI_CHAIN_${key.toUpperCase()}_`
    return {
      id,
      key,
      name,
      nativeSymbol,
      rpcUrl: rpcUrl(env, `${p}RPC_URL`),
      confirmations: envInt(env, `${p}CONFIRMATIONS`, 3, 1),
      tokens: { USDT: address(env, `${p}USDT_ADDRESS`), NADI: address(env, `${p}NADI_ADDRESS`), MEME: address(env, `${p}MEME_ADDRESS`) },
    }
  }
  const networks = [network(56, 'bsc', 'BNB Smart Chain', 'BNB'), network(nadiChainId, 'nadi', 'NADI Chain', 'NADI')]
  if (nadiChainId === 56) throw new Error('NADI_CHAIN_ID must differ from BSC (56)')
  const publicUrl = publicOrigin(env.NADI_PUBLIC_URL)
  // Sign-in messages name the origin the user signs for; taken from a request's Host header, a
  // phishing proxy would get messages naming itself. Production names it, and serves no other host.
  if (production && !publicUrl) throw new Error('NADI_PUBLIC_URL is required in production (e.g. https://app.nadi.example): sign-in messages name it and requests to any other host are refused')
  return {
    env: nodeEnv,
    demo,
    host: str(env, 'HOST', '0.0.0.0'),
    port: envInt(env, 'PORT', 8080),
    dataDir,
    ...databaseSettings(env, dataDir),
    distDir: path.resolve(root, str(env, 'NADI_DIST_DIR', 'dist')),
    swKill: env.NADI_SW_KILL === '1',
    publicUrl,
    rootInviteCode,
    logLevel: str(env, 'LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: env.NADI_TRUST_PROXY === '1',
    bodyLimit: envInt(env, 'NADI_BODY_LIMIT', 16 * 1024, 1024),
    session: {
      // SPEC §9: the token lives 6 minutes, renewed by use.
      idleMs: envInt(env, 'NADI_SESSION_IDLE_MS', 360_000, 1000),
      maxAgeMs: envInt(env, 'NADI_SESSION_MAX_AGE_MS', 7 * 24 * 3600_000, 1000),
    },
    login: {
      nonceTtlMs: envInt(env, 'NADI_LOGIN_NONCE_TTL_MS', 5 * 60_000, 1000),
      statement: 'Welcome to NADI! Sign this message to log in. It costs no gas and sends no transaction.',
      chainId: nadiChainId,
    },
    rateLimit: {
      windowMs: envInt(env, 'NADI_LOGIN_WINDOW_MS', 60_000, 1000),
      loginPerAddress: envInt(env, 'NADI_LOGIN_PER_ADDRESS', 10, 1),
      loginPerIp: envInt(env, 'NADI_LOGIN_PER_IP', 60, 1),
    },
    idempotencyTtlMs: 24 * 3600_000,
    chains: networks.map(({ id, key, name, nativeSymbol }) => ({ id, key, name, nativeSymbol })),
    chain: {
      devChains,
      devBlockTime: devBlockTime(env),
      networks,
      hotWalletKey: hotWalletKey(env, root, devChains),
      depositXkey: depositXkey(env, devChains),
      logRange: envInt(env, 'NADI_CHAIN_LOG_RANGE', 2000, 1),
      required: env.NADI_CHAIN_REQUIRED === '1',
    },
    limits: { withdrawMin: '1', withdrawConfirmations: 3, displayDecimals: 6, pageSize: 10 },
    nadiReferencePrice: str(env, 'NADI_REFERENCE_PRICE', '0.25'),
    chainNotice:
      env.NADI_CHAIN_NOTICE === '0' || (production && env.NADI_CHAIN_NOTICE !== '1')
        ? null
        : {
            id: str(env, 'NADI_CHAIN_NOTICE_ID', 'nadi-chain-upgrade-1'),
            countdownSeconds: countdown,
            startsAt: envInt(env, 'NADI_CHAIN_NOTICE_STARTS_AT', Date.UTC(2026, 11, 1, 2)),
            endsAt: envInt(env, 'NADI_CHAIN_NOTICE_ENDS_AT', Date.UTC(2026, 11, 1, 4)),
          },
    ws: { maxSubscriptions: 50, maxMessagesPerSecond: 20, heartbeatMs: 30_000, maxPayload: 4096 },
    deposits: {
      pollMs: envInt(env, 'NADI_DEPOSIT_POLL_MS', devChains ? 1000 : 5000, 100),
      reorgWindow: envInt(env, 'NADI_DEPOSIT_REORG_WINDOW', 12, 1),
      startBlocks: Object.fromEntries(
        networks.flatMap((n) => {
          const name = `NADI_CHAIN_${n.key.toUpperCase()}_DEPOSIT_START_BLOCK`
          return env[name]?.trim() ? [[n.key, envInt(env, name, 0, 0)]] : []
        }),
      ),
    },
    withdraw: withdrawSettings(env),
    walletExchange: {
      feeBps: envInt(env, 'NADI_EXCHANGE_FEE_BPS', 20, 0, 9_999),
      quoteTtlMs: envInt(env, 'NADI_EXCHANGE_QUOTE_TTL_MS', 30_000, 1_000, 3_600_000),
      demoTreasury: envMoney(env, 'NADI_DEMO_TREASURY', '1000000'),
    },
    payment: {
      pollMs: envInt(env, 'NADI_PAYMENT_POLL_MS', devChains ? 1000 : 5000, 100),
      pendingTimeoutMs: envInt(env, 'NADI_PAYMENT_PENDING_TIMEOUT_MS', 10 * 60_000, 1000),
      receivingAddress: address(env, 'NADI_PAYMENT_RECEIVING_ADDRESS'),
    },
    orders: {
      payWithinMs: envInt(env, 'NADI_ORDER_PAY_MS', 30 * 60_000, 1000),
      holds: {
        holdMs: envInt(env, 'NADI_ORDER_HOLD_MS', 15 * 60_000, 1000),
        maxOpen: envInt(env, 'NADI_HOLD_MAX_OPEN', 3, 1, 1000),
        maxPerItem: envInt(env, 'NADI_HOLD_MAX_PER_ITEM', 1, 1, 1000),
        sharePpm: envInt(env, 'NADI_HOLD_SHARE_PPM', 200_000, 0, 1_000_000),
        cooldownAfter: envInt(env, 'NADI_HOLD_COOLDOWN_AFTER', 3, 0, 1000),
        cooldownWindowMs: envInt(env, 'NADI_HOLD_COOLDOWN_WINDOW_MS', 6 * 3_600_000, 1000),
      },
    },
    mining: {
      destroyMin: envMoney(env, 'NADI_DESTROY_MIN', '100'),
      jointMin: envMoney(env, 'NADI_JOINT_MIN', '10'),
      destroyMultiplierPpm: BigInt(envInt(env, 'NADI_DESTROY_MULTIPLIER_PPM', 3_000_000, 1, 100_000_000)),
      jointMultiplierPpm: BigInt(envInt(env, 'NADI_JOINT_MULTIPLIER_PPM', 2_000_000, 1, 100_000_000)),
      giftPpm: BigInt(envInt(env, 'NADI_POWER_GIFT_PPM', 100_000, 0, 10_000_000)),
      releasePpm: envInt(env, 'NADI_POWER_RELEASE_PPM', 5_000, 1, 1_000_000),
      // On in the demo a newcomer tries; elsewhere an operator's choice (tests count every unit paid).
      trialPower: envMoney(env, 'NADI_TRIAL_POWER', demo && nodeEnv === 'development' ? '100' : '0'),
      trialDays: envInt(env, 'NADI_TRIAL_DAYS', 7, 1, 365),
    },
    devices: { ratePpm: envInt(env, 'NADI_DEVICE_RATE_PPM', 10_000, 0, 1_000_000) },
    node: {
      feePoolPpm: BigInt(envInt(env, 'NADI_NODE_FEE_POOL_PPM', 500_000, 0, 1_000_000)),
      dividendPoolPpm: BigInt(envInt(env, 'NADI_NODE_DIVIDEND_POOL_PPM', 200_000, 0, 1_000_000)),
      demoLoanFund: demo ? envMoney(env, 'NADI_DEMO_LOAN_FUND', '100000') : 0n,
    },
    ranking: rankingSettings(env, BigInt(envInt(env, 'NADI_NODE_FEE_POOL_PPM', 500_000, 0, 1_000_000)), BigInt(envInt(env, 'NADI_NODE_DIVIDEND_POOL_PPM', 200_000, 0, 1_000_000))),
    commerce: {
      goldPrice: envMoney(env, 'NADI_GOLD_PRICE', '98.5'),
      goldWalkMs: envInt(env, 'NADI_GOLD_WALK_MS', demo ? 10_000 : 0, 0),
      autoReceiptMs: envInt(env, 'NADI_RECEIPT_AUTO_DAYS', 7, 1, 365) * 86_400_000,
      releasePollMs: envInt(env, 'NADI_RELEASE_POLL_MS', 60_000, 100),
      demoReleaseFund: envMoney(env, 'NADI_DEMO_RELEASE_FUND', '1000000'),
      demoCatalog: demo,
    },
    upload: uploadSettings(env, dataDir),
    carApply: { maxOpen: envInt(env, 'NADI_CAR_APPLY_MAX_OPEN', 3, 1, 100) },
    trade: {
      makerFeePpm: envInt(env, 'NADI_TRADE_MAKER_FEE_PPM', 1000, 0, 100_000),
      takerFeePpm: envInt(env, 'NADI_TRADE_TAKER_FEE_PPM', 1000, 0, 100_000),
      maxDelayMs: envInt(env, 'NADI_TRADE_MAX_DELAY_MS', 0, 0, 50),
      maxBatch: envInt(env, 'NADI_TRADE_MAX_BATCH', 500, 1, 5000),
      snapshotEvery: envInt(env, 'NADI_TRADE_SNAPSHOT_EVERY', 10_000, 1, 10_000_000),
      demoMarket: str(env, 'NADI_DEMO_MARKET', demo && nodeEnv === 'development' ? '1' : '0') === '1',
      demoMarketEveryMs: envInt(env, 'NADI_DEMO_MARKET_EVERY_MS', 1500, 100, 600_000),
    },
  }
}

/** Uploads (DESIGN §10): presigned PUT URLs to the data folder (default) or an S3-compatible bucket. */
export interface UploadSettings {
  /** NADI_UPLOAD_MAX_BYTES (5 MiB): the largest file a URL is signed for. */
  maxBytes: number
  /** NADI_UPLOAD_URL_TTL_MS (10 min): how long an upload URL works. */
  urlTtlMs: number
  /** Where the local store keeps files: NADI_UPLOAD_DIR, default <NADI_DATA_DIR>/uploads. */
  dir: string
  /** NADI_UPLOAD_SECRET: the key local upload URLs are signed with; unset, one is made once and kept in the database. */
  secret: Secret | null
  /** NADI_UPLOAD_OPEN_MAX (20): upload URLs one user may hold not yet used and not expired. */
  openPerUser: number
  /** NADI_UPLOAD_KEEP_UNUSED_HOURS (72): an uploaded file no application took is deleted after this long. */
  keepUnusedMs: number
  /** An S3-compatible bucket (R2, S3, MinIO) instead of the data folder: set when NADI_UPLOAD_S3_BUCKET is. */
  s3: S3Settings | null
}

export interface S3Settings {
  /** NADI_UPLOAD_S3_ENDPOINT: e.g. https://<account>.r2.cloudflarestorage.com; unset = AWS S3 of the region. */
  endpoint: string | null
  bucket: string
  /** NADI_UPLOAD_S3_REGION ('auto' with an endpoint, as R2 wants; else us-east-1). */
  region: string
  /** NADI_UPLOAD_S3_ACCESS_KEY_ID / NADI_UPLOAD_S3_SECRET_ACCESS_KEY; unset = the SDK's default credential chain. */
  accessKeyId: string | null
  secretAccessKey: Secret | null
  /** NADI_UPLOAD_S3_FORCE_PATH_STYLE (1 with an endpoint): <endpoint>/<bucket>/<key> rather than <bucket>.<host>. */
  forcePathStyle: boolean
}

function uploadSettings(env: Env, dataDir: string): UploadSettings {
  const bucket = env.NADI_UPLOAD_S3_BUCKET?.trim() || null
  const endpoint = rpcUrl(env, 'NADI_UPLOAD_S3_ENDPOINT')
  if (endpoint && !bucket) throw new Error('NADI_UPLOAD_S3_ENDPOINT is set but NADI_UPLOAD_S3_BUCKET is not')
  const keyId = env.NADI_UPLOAD_S3_ACCESS_KEY_ID?.trim() || null
  const secretKey = env.NADI_UPLOAD_S3_SECRET_ACCESS_KEY?.trim() || null
  if ((keyId === null) !== (secretKey === null)) throw new Error('Set both NADI_UPLOAD_S3_ACCESS_KEY_ID and NADI_UPLOAD_S3_SECRET_ACCESS_KEY, or neither')
  const secret = env.NADI_UPLOAD_SECRET?.trim() || null
  if (secret !== null && secret.length < 32) throw new Error('NADI_UPLOAD_SECRET must be at least 32 characters')
  return {
    maxBytes: envInt(env, 'NADI_UPLOAD_MAX_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    urlTtlMs: envInt(env, 'NADI_UPLOAD_URL_TTL_MS', 10 * 60_000, 10_000, 7 * 24 * 3600_000),
    dir: path.resolve(dataDir, str(env, 'NADI_UPLOAD_DIR', 'uploads')),
    secret: secret === null ? null : new Secret(secret, 'NADI_UPLOAD_SECRET'),
    openPerUser: envInt(env, 'NADI_UPLOAD_OPEN_MAX', 20, 1, 1000),
    keepUnusedMs: envInt(env, 'NADI_UPLOAD_KEEP_UNUSED_HOURS', 72, 1) * 3600_000,
    s3: bucket
      ? {
          endpoint,
          bucket,
          region: str(env, 'NADI_UPLOAD_S3_REGION', endpoint ? 'auto' : 'us-east-1'),
          accessKeyId: keyId,
          secretAccessKey: secretKey === null ? null : new Secret(secretKey, 'NADI_UPLOAD_S3_SECRET_ACCESS_KEY'),
          forcePathStyle: str(env, 'NADI_UPLOAD_S3_FORCE_PATH_STYLE', endpoint ? '1' : '0') === '1',
        }
      : null,
  }
}

/** The ranking's pools and prizes (server/modules/ranking; README "Ranking"). */
export interface RankingSettings {
  /** NADI_RANKING_MEASURE (team): what the daily ranking counts — team performance added that day, or own purchases (own). */
  measure: 'team' | 'own'
  /** NADI_RANKING_DAILY_POOL_PPM (100,000 = 10 %) and NADI_RANKING_TOTAL_POOL_PPM (50,000 = 5 %): each pool's share of each day's income. */
  dailyPoolPpm: bigint
  totalPoolPpm: bigint
  /** NADI_RANKING_DAILY_SHARES (10 ranks) and NADI_RANKING_TOTAL_SHARES (3 ranks): ppm of the pool per rank; the length is the top N. */
  dailyShares: bigint[]
  totalShares: bigint[]
  /** NADI_RANKING_PUSH_MS (2000): how often the live ranking stream looks for a change while someone listens. */
  pushMs: number
}

function rankingSettings(env: Env, nodeFeePoolPpm: bigint, nodeDividendPoolPpm: bigint): RankingSettings {
  const measure = str(env, 'NADI_RANKING_MEASURE', 'team')
  if (measure !== 'team' && measure !== 'own') throw new Error(`NADI_RANKING_MEASURE must be team or own, got "${measure}"`)
  const dailyPoolPpm = BigInt(envInt(env, 'NADI_RANKING_DAILY_POOL_PPM', 100_000, 0, 1_000_000))
  const totalPoolPpm = BigInt(envInt(env, 'NADI_RANKING_TOTAL_POOL_PPM', 50_000, 0, 1_000_000))
  // The pools take a share of all the day's fees; the node holders' fee share takes one of the
  // withdraw fees and their dividends one of the trading fees. Per source, the shares may not promise
  // more than that income.
  for (const [name, nodePpm] of [
    ['NADI_NODE_FEE_POOL_PPM', nodeFeePoolPpm],
    ['NADI_NODE_DIVIDEND_POOL_PPM', nodeDividendPoolPpm],
  ] as const) {
    if (nodePpm + dailyPoolPpm + totalPoolPpm > 1_000_000n) {
      throw new Error(`${name} (${nodePpm}) + NADI_RANKING_DAILY_POOL_PPM (${dailyPoolPpm}) + NADI_RANKING_TOTAL_POOL_PPM (${totalPoolPpm}) exceed 1000000: the day's fees would be given out more than once`)
    }
  }
  return {
    measure,
    dailyPoolPpm,
    totalPoolPpm,
    dailyShares: parseShares('NADI_RANKING_DAILY_SHARES', str(env, 'NADI_RANKING_DAILY_SHARES', '300000,200000,150000,100000,80000,60000,40000,30000,20000,20000')),
    totalShares: parseShares('NADI_RANKING_TOTAL_SHARES', str(env, 'NADI_RANKING_TOTAL_SHARES', '500000,300000,200000')),
    pushMs: envInt(env, 'NADI_RANKING_PUSH_MS', 2000, 100, 60_000),
  }
}

function withdrawSettings(env: Env): WithdrawSettings {
  const failpoint = env.NADI_WITHDRAW_FAILPOINT?.trim() || null
  if (failpoint !== null && failpoint !== 'crash-after-store') throw new Error(`NADI_WITHDRAW_FAILPOINT must be crash-after-store, got "${failpoint}"`)
  return {
    fee: envMoney(env, 'NADI_WITHDRAW_FEE', '0.1'),
    autoApproveBelow: envMoney(env, 'NADI_WITHDRAW_AUTO_MAX', '1000'),
    everyMs: envInt(env, 'NADI_WITHDRAW_EVERY_MS', 1000, 50),
    sendAttempts: envInt(env, 'NADI_WITHDRAW_SEND_ATTEMPTS', 10, 1),
    failpoint: env.NADI_ENV === 'production' ? null : failpoint,
  }
}

/** NADI_PUBLIC_URL as an origin ("https://app.nadi.example"), or null when unset. */
function publicOrigin(raw: string | undefined): string | null {
  if (!raw) return null
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`NADI_PUBLIC_URL is not a URL: "${raw}"`)
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) {
    throw new Error(`NADI_PUBLIC_URL must be an origin (scheme, host and port only), got "${raw}"`)
  }
  return u.origin
}

/** Where the books are: SQLite under the data folder, or PostgreSQL at NADI_DATABASE_URL. */
function databaseSettings(env: Env, dataDir: string): Pick<Config, 'dbFile' | 'databaseUrl' | 'database' | 'lockFile'> {
  const dbFile = str(env, 'NADI_DB_FILE', path.join(dataDir, 'nadi.sqlite'))
  const url = env.NADI_DATABASE_URL?.trim() || null
  if (url === null) return { dbFile, databaseUrl: null, database: dbFile, lockFile: dbFile }
  if (!isPostgresUrl(url)) throw new Error(`NADI_DATABASE_URL must be a postgres:// (or postgresql://) URL, got ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))}`)
  try {
    new URL(url)
  } catch {
    throw new Error('NADI_DATABASE_URL is not a valid URL')
  }
  const id = crypto.createHash('sha256').update(url).digest('hex').slice(0, 12)
  return { dbFile, databaseUrl: url, database: url, lockFile: path.join(dataDir, `postgres-${id}`) }
}
