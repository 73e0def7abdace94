import path from 'node:path'
import { envInt, envString, type Env } from '../settings.ts'
import { envelopeKeyFile } from '../envelopeKey.ts'

/** The production envelope (issue 20, server/http/seal.ts). */
export interface EnvelopeSettings {
  /** NADI_ENVELOPE=on|off: on by default in production only. */
  on: boolean
  /** NADI_ENVELOPE_KEY_FILE: the signing key, read when the server starts with the envelope on (server/envelopeKey.ts). */
  keyFile: string
  /** NADI_HANDSHAKE_TTL_MS (10 min): how long a handshake's keys seal ordinary requests. */
  handshakeTtlMs: number
  /** NADI_HANDSHAKE_PER_IP (120): handshakes one IP may make per minute. */
  handshakePerIp: number
}

export function readEnvelopeSettings(env: Env, dataDir: string, production: boolean): EnvelopeSettings {
  const raw = envString(env, 'NADI_ENVELOPE', production ? 'on' : 'off')
  if (raw !== 'on' && raw !== 'off') throw new Error(`NADI_ENVELOPE must be on or off, got "${raw}"`)
  return {
    on: raw === 'on',
    keyFile: envelopeKeyFile(env, path.resolve(dataDir)),
    handshakeTtlMs: envInt(env, 'NADI_HANDSHAKE_TTL_MS', 600_000, 10_000),
    handshakePerIp: envInt(env, 'NADI_HANDSHAKE_PER_IP', 120, 1),
  }
}

/**
 * NADI_IDEMPOTENCY_FAILPOINT=crash-before-answer:N (tests only; ignored in production): the process
 * kills itself with SIGKILL when the Nth keyed request answered 200 is about to store and send its
 * answer — the moment between an effect's commit and its answer that a crash test must hit every time.
 */
export function readIdempotencyFailpoint(env: Env, production: boolean): number | null {
  const raw = env.NADI_IDEMPOTENCY_FAILPOINT?.trim()
  if (!raw) return null
  const m = /^crash-before-answer:([1-9][0-9]{0,8})$/.exec(raw)
  if (!m) throw new Error(`NADI_IDEMPOTENCY_FAILPOINT must be crash-before-answer:<n>, n a positive integer, got "${raw}"`)
  return production ? null : Number(m[1])
}
