import { inspect } from 'node:util'
import { getAddress } from 'ethers'
import { parseMoney } from '../contract/money.ts'

/**
 * The parsers every settings section shares (server/config.ts and each module's settings.ts). They live
 * apart from config.ts so a module's settings can use them without importing the composed Config (no cycle).
 * Each error names the variable and says what is wrong: a bad value stops the start with that message.
 */

export type Env = Record<string, string | undefined>

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

/** A money setting (decimal, at most 8 decimals) in units of 1e-8; anything else fails start-up. */
export function envMoney(env: Env, name: string, dflt: string): bigint {
  const raw = env[name]?.trim() || dflt
  const v = parseMoney(raw)
  if (v === null) throw new Error(`${name} must be a decimal amount with at most 8 decimals, got "${raw}"`)
  return v
}

/** A text setting; unset or empty means the default. */
export function envString(env: Env, name: string, dflt: string): string {
  const raw = env[name]
  return raw === undefined || raw === '' ? dflt : raw
}

/** A switch: "1" is on; unset or empty takes the default ('1' or '0'), anything else is off. */
export function envFlag(env: Env, name: string, dflt: '0' | '1'): boolean {
  return envString(env, name, dflt) === '1'
}

/** An EVM address, checksummed; null when unset. */
export function envAddress(env: Env, name: string): string | null {
  const raw = env[name]?.trim()
  if (!raw) return null
  try {
    return getAddress(raw)
  } catch {
    throw new Error(`${name} must be a 0x address with a valid checksum (or all lower case), got "${raw}"`)
  }
}

/** An http(s) URL, as given; null when unset. */
export function envHttpUrl(env: Env, name: string): string | null {
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
