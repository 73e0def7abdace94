import { isIP } from 'node:net'
import path from 'node:path'
import { envFlag, envInt, envString as str, type Env } from './settings.ts'
import { nadiChainId, readChainSettings, readDepositSettings, type ChainConfig, type DepositSettings } from './chain/settings.ts'
import { readTradeSettings, type TradeSettings } from './exchange/settings.ts'
import { readDatabaseSettings, type DatabaseSettings } from './db/settings.ts'
import { readRoleSettings, type RoleSettings } from './roles/settings.ts'
import { readAuthSettings, type AuthSettings } from './modules/auth/settings.ts'
import { readEnvelopeSettings, readIdempotencyFailpoint, type EnvelopeSettings } from './http/settings.ts'
import { readOperatorSettings, type OperatorSettings } from './modules/operator/settings.ts'
import { readCarApplySettings, type CarApplySettings } from './modules/car/settings.ts'
import { readDeviceSettings, type DeviceSettings } from './modules/device/settings.ts'
import { readCommerceSettings, type CommerceSettings } from './modules/goods/settings.ts'
import { readMiningSettings, type MiningSettings } from './modules/mining/settings.ts'
import { readNodeSettings, type NodeSettings } from './modules/node/settings.ts'
import { readOrderSettings, type OrderSettings } from './modules/orders/settings.ts'
import { readPaymentSettings, type PaymentSettings } from './modules/payment/settings.ts'
import { readRankingSettings, type RankingSettings } from './modules/ranking/settings.ts'
import { readUploadSettings, type UploadSettings } from './modules/upload/settings.ts'
import { readWalletExchangeSettings, type WalletExchangeSettings } from './modules/wallet/settings.ts'
import { readWithdrawSettings, type WithdrawSettings } from './modules/withdraw/settings.ts'

// Each module owns its settings (its settings.ts: the section's type and its parser); these re-exports
// keep the names the rest of the server and the tests import from here.
export { Secret, envInt, envMoney, type Env } from './settings.ts'
export { CHAIN_TOKENS, DEV_MNEMONIC, TOKENS, devDepositXpub, devHotWalletKey, type ChainConfig, type ChainSettings, type ChainTokenSymbol, type TokenSymbol } from './chain/settings.ts'
export type { Failpoint, WithdrawSettings } from './modules/withdraw/settings.ts'
export type { HoldSettings } from './modules/orders/settings.ts'
export type { S3Settings, UploadSettings } from './modules/upload/settings.ts'
export type { PaymentSettings, RankingSettings, WalletExchangeSettings }

/** Every setting of the server, read once from the environment. Business constants live here too. */
export interface Config {
  env: 'development' | 'production' | 'test'
  /** Demo mode seeds banners, notices and the public config, and offers the demo wallet. */
  demo: boolean
  host: string
  port: number
  dataDir: string
  /** The database: NADI_DB_FILE, NADI_DATABASE_URL (server/db/settings.ts). */
  dbFile: DatabaseSettings['dbFile']
  databaseUrl: DatabaseSettings['databaseUrl']
  database: DatabaseSettings['database']
  pgPool: DatabaseSettings['pgPool']
  lockFile: DatabaseSettings['lockFile']
  /** What this process does, beside others on one database (server/roles/settings.ts): NADI_ROLE / --role. */
  role: RoleSettings['role']
  leaderEveryMs: RoleSettings['leaderEveryMs']
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
  session: AuthSettings['session']
  login: AuthSettings['login']
  rateLimit: AuthSettings['rateLimit']
  /** The operator console's sign-in and sessions (server/modules/operator/settings.ts): NADI_OPERATOR_*. */
  operator: OperatorSettings
  /** Every API request and answer sealed (issue 20, server/http/seal.ts): NADI_ENVELOPE, NADI_ENVELOPE_KEY_FILE, NADI_HANDSHAKE_*. */
  envelope: EnvelopeSettings
  idempotencyTtlMs: number
  /** Tests only: die before the Nth keyed effect's answer (server/http/settings.ts). */
  idempotencyFailpoint: number | null
  /** The public view of `chain.networks` (ids and names), as the app's config shows it. */
  chains: { id: number; key: string; name: string; nativeSymbol: string }[]
  chain: ChainConfig
  limits: { withdrawMin: string; withdrawConfirmations: number; displayDecimals: number; pageSize: number }
  nadiReferencePrice: string
  chainNotice: { id: string; countdownSeconds: number; startsAt: number; endsAt: number } | null
  ws: { maxSubscriptions: number; maxMessagesPerSecond: number; heartbeatMs: number; maxPayload: number }
  deposits: DepositSettings
  withdraw: WithdrawSettings
  walletExchange: WalletExchangeSettings
  payment: PaymentSettings
  orders: OrderSettings
  mining: MiningSettings
  devices: DeviceSettings
  node: NodeSettings
  ranking: RankingSettings
  commerce: CommerceSettings
  upload: UploadSettings
  carApply: CarApplySettings
  trade: TradeSettings
}

export function loadConfig(env: Env = process.env, root = process.cwd()): Config {
  const nodeEnv = str(env, 'NADI_ENV', env.NODE_ENV === 'test' ? 'test' : 'development')
  if (nodeEnv !== 'development' && nodeEnv !== 'production' && nodeEnv !== 'test') {
    throw new Error(`NADI_ENV must be development, production or test, got "${nodeEnv}"`)
  }
  const production = nodeEnv === 'production'
  // Where the data lives: the data folder, and the database (server/db/settings.ts) — the SQLite file
  // in it by default, or PostgreSQL at NADI_DATABASE_URL.
  const dataDir = path.resolve(root, str(env, 'NADI_DATA_DIR', 'data'))
  const rootInviteCode = env.NADI_ROOT_INVITE_CODE?.trim().toUpperCase() || null
  if (rootInviteCode && !/^[A-Z0-9]{4,16}$/.test(rootInviteCode)) {
    throw new Error('NADI_ROOT_INVITE_CODE must be 4–16 letters or digits')
  }
  const countdown = envInt(env, 'NADI_CHAIN_NOTICE_SECONDS', 5)
  const demo = envFlag(env, 'NADI_DEMO', production ? '0' : '1')
  const demoDevelopment = demo && nodeEnv === 'development'
  const chain = readChainSettings(env, root, { production, demoDevelopment })
  const publicUrl = publicOrigin(env.NADI_PUBLIC_URL, 'NADI_PUBLIC_URL')
  // Sign-in messages name the origin the user signs for; taken from a request's Host header, a
  // phishing proxy would get messages naming itself. Production names it, and serves no other host.
  if (production && !publicUrl) throw new Error('NADI_PUBLIC_URL is required in production (e.g. https://app.nadi.example): sign-in messages name it and requests to any other host are refused')
  const node = readNodeSettings(env, demo)
  const database = readDatabaseSettings(env, dataDir)
  return {
    env: nodeEnv,
    demo,
    host: listenHost(env),
    port: envInt(env, 'PORT', 8080),
    dataDir,
    ...database,
    ...readRoleSettings(env, { databaseUrl: database.databaseUrl, devChains: chain.devChains, devChainsUrl: chain.devChainsUrl }),
    distDir: path.resolve(root, str(env, 'NADI_DIST_DIR', 'dist')),
    swKill: env.NADI_SW_KILL === '1',
    publicUrl,
    rootInviteCode,
    logLevel: str(env, 'LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: env.NADI_TRUST_PROXY === '1',
    bodyLimit: envInt(env, 'NADI_BODY_LIMIT', 16 * 1024, 1024),
    ...readAuthSettings(env, nadiChainId(chain)),
    operator: readOperatorSettings(env, publicOrigin, publicUrl),
    envelope: readEnvelopeSettings(env, dataDir, production),
    idempotencyTtlMs: 24 * 3600_000,
    idempotencyFailpoint: readIdempotencyFailpoint(env, production),
    chains: chain.networks.map(({ id, key, name, nativeSymbol }) => ({ id, key, name, nativeSymbol })),
    chain,
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
    deposits: readDepositSettings(env, chain),
    withdraw: readWithdrawSettings(env),
    walletExchange: readWalletExchangeSettings(env),
    payment: readPaymentSettings(env, chain.devChains),
    orders: readOrderSettings(env),
    mining: readMiningSettings(env, demoDevelopment),
    devices: readDeviceSettings(env),
    node,
    ranking: readRankingSettings(env, node.feePoolPpm, node.dividendPoolPpm),
    commerce: readCommerceSettings(env, demo, nodeEnv),
    upload: readUploadSettings(env, dataDir),
    carApply: readCarApplySettings(env),
    trade: readTradeSettings(env, demoDevelopment),
  }
}

/**
 * Where the server listens: this machine only unless HOST says otherwise, since the demo wallet and the
 * faucet answer whoever reaches the port. An address (127.0.0.1, 0.0.0.0, ::) or a host name, nothing else.
 */
function listenHost(env: Env): string {
  const host = str(env, 'HOST', '127.0.0.1').trim()
  const name = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
  if (isIP(host) === 0 && !(name.test(host) && !/^[\d.]+$/.test(host))) {
    throw new Error(`HOST must be an IP address or a host name to listen on (127.0.0.1, 0.0.0.0 for every interface, ::), got "${host}"`)
  }
  return host
}

/** An origin setting (NADI_PUBLIC_URL, NADI_OPERATOR_ORIGIN) as an origin ("https://app.nadi.example"), or null when unset. */
function publicOrigin(raw: string | undefined, name: string): string | null {
  if (!raw) return null
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new Error(`${name} is not a URL: "${raw}"`)
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) {
    throw new Error(`${name} must be an origin (scheme, host and port only), got "${raw}"`)
  }
  return u.origin
}
