import { envInt, envMoney, type Env } from '../../settings.ts'

/** The shops (DESIGN §10): devices, gold, cars, their orders and releases. */
export interface CommerceSettings {
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
  /**
   * NADI_DEMO_SHIP_AFTER_MS (30 s): the demo ships its own paid orders this long after payment, so a
   * visitor reaches receipt and activation without an operator. Null (never) outside the demo and
   * always in production, where the operator ships with the CLI; in tests only when set, since they
   * ship by hand and move their clocks by days.
   */
  demoShipAfterMs: number | null
}

export function readCommerceSettings(env: Env, demo: boolean, runEnv: 'development' | 'production' | 'test'): CommerceSettings {
  // Read (and so validated) even when unused: a typo fails start-up instead of waiting for a demo.
  const demoShipAfterMs = envInt(env, 'NADI_DEMO_SHIP_AFTER_MS', 30_000, 0, 7 * 86_400_000)
  return {
    goldPrice: envMoney(env, 'NADI_GOLD_PRICE', '98.5'),
    goldWalkMs: envInt(env, 'NADI_GOLD_WALK_MS', demo ? 10_000 : 0, 0),
    autoReceiptMs: envInt(env, 'NADI_RECEIPT_AUTO_DAYS', 7, 1, 365) * 86_400_000,
    releasePollMs: envInt(env, 'NADI_RELEASE_POLL_MS', 60_000, 100),
    demoReleaseFund: envMoney(env, 'NADI_DEMO_RELEASE_FUND', '1000000'),
    demoCatalog: demo,
    demoShipAfterMs: demo && runEnv !== 'production' && (runEnv !== 'test' || env.NADI_DEMO_SHIP_AFTER_MS !== undefined) ? demoShipAfterMs : null,
  }
}
