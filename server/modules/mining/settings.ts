import { envInt, envMoney, type Env } from '../../settings.ts'

/** Destroy, joint and trial mining (issue 11): power bought and released daily as NADI. */
export interface MiningSettings {
  /** NADI_DESTROY_MIN (100 NADI): the least one may burn at once. */
  destroyMin: bigint
  /** NADI_JOINT_MIN (10 USDT): the least one may contribute at once. */
  jointMin: bigint
  /** NADI_DESTROY_MULTIPLIER_PPM (3,000,000 = 3×): power per NADI burned. */
  destroyMultiplierPpm: bigint
  /** NADI_JOINT_MULTIPLIER_PPM (2,000,000 = 2×): power per NADI's worth of USDT contributed. */
  jointMultiplierPpm: bigint
  /** NADI_POWER_GIFT_PPM (100,000 = 10 %): gift power on top of what is bought. */
  giftPpm: bigint
  /** NADI_POWER_RELEASE_PPM (5,000 = 0.5 %/day): the share of its power a position releases each day. */
  releasePpm: number
  /** NADI_TRIAL_POWER (100 in the demo, else 0): the experience power a newcomer gets (0: none), released for NADI_TRIAL_DAYS (7). */
  trialPower: bigint
  trialDays: number
  /** NADI_JOINT_QUOTE_TTL_MS (30 s, 1 s–10 min): how long a joint-mining price quote can be confirmed at its locked price. */
  jointQuoteTtlMs: number
}

/** `demoDevelopment`: the demo in development, where a newcomer gets trial power by default. */
export function readMiningSettings(env: Env, demoDevelopment: boolean): MiningSettings {
  return {
    destroyMin: envMoney(env, 'NADI_DESTROY_MIN', '100'),
    jointMin: envMoney(env, 'NADI_JOINT_MIN', '10'),
    destroyMultiplierPpm: BigInt(envInt(env, 'NADI_DESTROY_MULTIPLIER_PPM', 3_000_000, 1, 100_000_000)),
    jointMultiplierPpm: BigInt(envInt(env, 'NADI_JOINT_MULTIPLIER_PPM', 2_000_000, 1, 100_000_000)),
    giftPpm: BigInt(envInt(env, 'NADI_POWER_GIFT_PPM', 100_000, 0, 10_000_000)),
    releasePpm: envInt(env, 'NADI_POWER_RELEASE_PPM', 5_000, 1, 1_000_000),
    // On in the demo a newcomer tries; elsewhere an operator's choice (tests count every unit paid).
    trialPower: envMoney(env, 'NADI_TRIAL_POWER', demoDevelopment ? '100' : '0'),
    trialDays: envInt(env, 'NADI_TRIAL_DAYS', 7, 1, 365),
    jointQuoteTtlMs: envInt(env, 'NADI_JOINT_QUOTE_TTL_MS', 30_000, 1_000, 600_000),
  }
}
