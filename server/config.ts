import path from 'node:path'

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
  chains: { id: number; key: string; name: string; nativeSymbol: string }[]
  limits: { withdrawMin: string; withdrawConfirmations: number; displayDecimals: number; pageSize: number }
  nadiReferencePrice: string
  chainNotice: { id: string; countdownSeconds: number; startsAt: number; endsAt: number } | null
  ws: { maxSubscriptions: number; maxMessagesPerSecond: number; heartbeatMs: number; maxPayload: number }
}

type Env = Record<string, string | undefined>

function int(env: Env, name: string, dflt: number, min = 0): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return dflt
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}

function str(env: Env, name: string, dflt: string): string {
  const raw = env[name]
  return raw === undefined || raw === '' ? dflt : raw
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
  const nadiChainId = int(env, 'NADI_CHAIN_ID', 9_2025, 1)
  const countdown = int(env, 'NADI_CHAIN_NOTICE_SECONDS', 5)
  return {
    env: nodeEnv,
    demo: str(env, 'NADI_DEMO', production ? '0' : '1') === '1',
    host: str(env, 'HOST', '0.0.0.0'),
    port: int(env, 'PORT', 8080),
    dataDir,
    dbFile: str(env, 'NADI_DB_FILE', path.join(dataDir, 'nadi.sqlite')),
    distDir: path.resolve(root, str(env, 'NADI_DIST_DIR', 'dist')),
    swKill: env.NADI_SW_KILL === '1',
    publicUrl: env.NADI_PUBLIC_URL || null,
    rootInviteCode,
    logLevel: str(env, 'LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxy: env.NADI_TRUST_PROXY === '1',
    bodyLimit: int(env, 'NADI_BODY_LIMIT', 16 * 1024, 1024),
    session: {
      // SPEC §9: the token lives 6 minutes, renewed by use.
      idleMs: int(env, 'NADI_SESSION_IDLE_MS', 360_000, 1000),
      maxAgeMs: int(env, 'NADI_SESSION_MAX_AGE_MS', 7 * 24 * 3600_000, 1000),
    },
    login: {
      nonceTtlMs: int(env, 'NADI_LOGIN_NONCE_TTL_MS', 5 * 60_000, 1000),
      statement: 'Welcome to NADI! Sign this message to log in. It costs no gas and sends no transaction.',
      chainId: nadiChainId,
    },
    rateLimit: {
      windowMs: int(env, 'NADI_LOGIN_WINDOW_MS', 60_000, 1000),
      loginPerAddress: int(env, 'NADI_LOGIN_PER_ADDRESS', 10, 1),
      loginPerIp: int(env, 'NADI_LOGIN_PER_IP', 60, 1),
    },
    idempotencyTtlMs: 24 * 3600_000,
    chains: [
      { id: 56, key: 'bsc', name: 'BNB Smart Chain', nativeSymbol: 'BNB' },
      { id: nadiChainId, key: 'nadi', name: 'NADI Chain', nativeSymbol: 'NADI' },
    ],
    limits: { withdrawMin: '1', withdrawConfirmations: 3, displayDecimals: 6, pageSize: 10 },
    nadiReferencePrice: str(env, 'NADI_REFERENCE_PRICE', '0.25'),
    chainNotice:
      env.NADI_CHAIN_NOTICE === '0' || (production && env.NADI_CHAIN_NOTICE !== '1')
        ? null
        : {
            id: str(env, 'NADI_CHAIN_NOTICE_ID', 'nadi-chain-upgrade-1'),
            countdownSeconds: countdown,
            startsAt: int(env, 'NADI_CHAIN_NOTICE_STARTS_AT', Date.UTC(2026, 11, 1, 2)),
            endsAt: int(env, 'NADI_CHAIN_NOTICE_ENDS_AT', Date.UTC(2026, 11, 1, 4)),
          },
    ws: { maxSubscriptions: 50, maxMessagesPerSecond: 20, heartbeatMs: 30_000, maxPayload: 4096 },
  }
}
