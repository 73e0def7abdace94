import { envInt, type Env } from '../../settings.ts'

/** Sessions, sign-in messages and the sign-in rate limits (server/modules/auth). */
export interface AuthSettings {
  session: { idleMs: number; maxAgeMs: number }
  login: { nonceTtlMs: number; statement: string; chainId: number }
  rateLimit: { windowMs: number; loginPerAddress: number; loginPerIp: number }
}

/** `chainId` is the NADI chain's (NADI_CHAIN_ID): sign-in messages name it. */
export function readAuthSettings(env: Env, chainId: number): AuthSettings {
  return {
    session: {
      // SPEC §9: the token lives 6 minutes, renewed by use.
      idleMs: envInt(env, 'NADI_SESSION_IDLE_MS', 360_000, 1000),
      maxAgeMs: envInt(env, 'NADI_SESSION_MAX_AGE_MS', 7 * 24 * 3600_000, 1000),
    },
    login: {
      nonceTtlMs: envInt(env, 'NADI_LOGIN_NONCE_TTL_MS', 5 * 60_000, 1000),
      statement: 'Welcome to NADI! Sign this message to log in. It costs no gas and sends no transaction.',
      chainId,
    },
    rateLimit: {
      windowMs: envInt(env, 'NADI_LOGIN_WINDOW_MS', 60_000, 1000),
      loginPerAddress: envInt(env, 'NADI_LOGIN_PER_ADDRESS', 10, 1),
      loginPerIp: envInt(env, 'NADI_LOGIN_PER_IP', 60, 1),
    },
  }
}
