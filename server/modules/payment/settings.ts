import { envAddress, envInt, type Env } from '../../settings.ts'

/** On-chain payments of orders (server/modules/payment). */
export interface PaymentSettings {
  /** NADI_PAYMENT_POLL_MS: a verification pass this often (1 s on dev chains, else 5 s). */
  pollMs: number
  /** NADI_PAYMENT_PENDING_TIMEOUT_MS (10 min): how long a submitted hash may stay without a receipt before it fails 'not_found'. */
  pendingTimeoutMs: number
  /** NADI_PAYMENT_RECEIVING_ADDRESS: overrides the hot wallet as the receiving address. */
  receivingAddress: string | null
}

/** Dev chains mine a block a second, so a pass looks as often. */
export function readPaymentSettings(env: Env, devChains: boolean): PaymentSettings {
  return {
    pollMs: envInt(env, 'NADI_PAYMENT_POLL_MS', devChains ? 1000 : 5000, 100),
    pendingTimeoutMs: envInt(env, 'NADI_PAYMENT_PENDING_TIMEOUT_MS', 10 * 60_000, 1000),
    receivingAddress: envAddress(env, 'NADI_PAYMENT_RECEIVING_ADDRESS'),
  }
}
