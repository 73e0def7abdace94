import { envInt, type Env } from '../../settings.ts'

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
  /** NADI_HOLD_COOLDOWN_AFTER (3; 0: never): holds ended unpaid (expired, or cancelled by the user) within the window after which a user waits to hold again. */
  cooldownAfter: number
  /** NADI_HOLD_COOLDOWN_WINDOW_MS (6 h): that window; the wait ends when the oldest of those ends leaves it. */
  cooldownWindowMs: number
}

/** Orders to pay: NADI_ORDER_PAY_MS (30 min), how long one may stay unpaid before it is cancelled. */
export interface OrderSettings {
  payWithinMs: number
  holds: HoldSettings
}

export function readOrderSettings(env: Env): OrderSettings {
  return {
    payWithinMs: envInt(env, 'NADI_ORDER_PAY_MS', 30 * 60_000, 1000),
    holds: {
      holdMs: envInt(env, 'NADI_ORDER_HOLD_MS', 15 * 60_000, 1000),
      maxOpen: envInt(env, 'NADI_HOLD_MAX_OPEN', 3, 1, 1000),
      maxPerItem: envInt(env, 'NADI_HOLD_MAX_PER_ITEM', 1, 1, 1000),
      sharePpm: envInt(env, 'NADI_HOLD_SHARE_PPM', 200_000, 0, 1_000_000),
      cooldownAfter: envInt(env, 'NADI_HOLD_COOLDOWN_AFTER', 3, 0, 1000),
      cooldownWindowMs: envInt(env, 'NADI_HOLD_COOLDOWN_WINDOW_MS', 6 * 3_600_000, 1000),
    },
  }
}
