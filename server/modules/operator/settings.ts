import { envInt, type Env } from '../../settings.ts'

/** The operator console's sign-in and sessions (server/modules/operator), apart from the app's. */
export interface OperatorSettings {
  /**
   * The console's origin, named in every operator sign-in message and the only one a sign-in is
   * accepted from (NADI_OPERATOR_ORIGIN): the public origin when unset (the console under /admin),
   * else the request's own outside production.
   */
  origin: string | null
  /** Idle and absolute limits of a session (issue 35: 15 minutes, 8 hours). */
  idleMs: number
  maxAgeMs: number
  nonceTtlMs: number
  windowMs: number
  /** Sign-in attempts per address and per IP in a window, as the app's sign-in. */
  loginPerAddress: number
  loginPerIp: number
  /** Calls per operator in a window, for every operator route. */
  callsPerOperator: number
}

export function readOperatorSettings(env: Env, origin: (raw: string | undefined, name: string) => string | null, publicUrl: string | null): OperatorSettings {
  return {
    origin: origin(env.NADI_OPERATOR_ORIGIN, 'NADI_OPERATOR_ORIGIN') ?? publicUrl,
    idleMs: envInt(env, 'NADI_OPERATOR_IDLE_MS', 15 * 60_000, 1000),
    maxAgeMs: envInt(env, 'NADI_OPERATOR_MAX_AGE_MS', 8 * 3600_000, 1000),
    nonceTtlMs: envInt(env, 'NADI_OPERATOR_NONCE_TTL_MS', 5 * 60_000, 1000),
    windowMs: envInt(env, 'NADI_OPERATOR_WINDOW_MS', 60_000, 1000),
    loginPerAddress: envInt(env, 'NADI_OPERATOR_LOGIN_PER_ADDRESS', 10, 1),
    loginPerIp: envInt(env, 'NADI_OPERATOR_LOGIN_PER_IP', 60, 1),
    callsPerOperator: envInt(env, 'NADI_OPERATOR_CALLS_PER_MINUTE', 300, 1),
  }
}
