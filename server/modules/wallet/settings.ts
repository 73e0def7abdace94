import { envInt, envMoney, type Env } from '../../settings.ts'

/** The wallet's NADI ↔ USDT exchange at a quoted price (the reference price is `nadiReferencePrice`). */
export interface WalletExchangeSettings {
  /** Fee in basis points of the received amount (20 = 0.2%): NADI_EXCHANGE_FEE_BPS. */
  feeBps: number
  /** How long a quote can be confirmed: NADI_EXCHANGE_QUOTE_TTL_MS (30 s). */
  quoteTtlMs: number
  /** Demo mode: what the treasury is funded with at start, per asset, units of 1e-8: NADI_DEMO_TREASURY. */
  demoTreasury: bigint
}

export function readWalletExchangeSettings(env: Env): WalletExchangeSettings {
  return {
    feeBps: envInt(env, 'NADI_EXCHANGE_FEE_BPS', 20, 0, 9_999),
    quoteTtlMs: envInt(env, 'NADI_EXCHANGE_QUOTE_TTL_MS', 30_000, 1_000, 3_600_000),
    demoTreasury: envMoney(env, 'NADI_DEMO_TREASURY', '1000000'),
  }
}
