import { envInt, envString, type Env } from '../../settings.ts'
import { parseShares } from './rules.ts'

/** The ranking's pools and prizes (server/modules/ranking; README "Ranking"). */
export interface RankingSettings {
  /** NADI_RANKING_MEASURE (team): what the daily ranking counts — team performance added that day, or own purchases (own). */
  measure: 'team' | 'own'
  /** NADI_RANKING_DAILY_POOL_PPM (100,000 = 10 %) and NADI_RANKING_TOTAL_POOL_PPM (50,000 = 5 %): each pool's share of each day's income. */
  dailyPoolPpm: bigint
  totalPoolPpm: bigint
  /** NADI_RANKING_DAILY_SHARES (10 ranks) and NADI_RANKING_TOTAL_SHARES (3 ranks): ppm of the pool per rank; the length is the top N. */
  dailyShares: bigint[]
  totalShares: bigint[]
  /** NADI_RANKING_PUSH_MS (2000): how often the live ranking stream looks for a change while someone listens. */
  pushMs: number
}

/** The node holders' shares (config.node) are given: the pools may not promise the same fees again. */
export function readRankingSettings(env: Env, nodeFeePoolPpm: bigint, nodeDividendPoolPpm: bigint): RankingSettings {
  const measure = envString(env, 'NADI_RANKING_MEASURE', 'team')
  if (measure !== 'team' && measure !== 'own') throw new Error(`NADI_RANKING_MEASURE must be team or own, got "${measure}"`)
  const dailyPoolPpm = BigInt(envInt(env, 'NADI_RANKING_DAILY_POOL_PPM', 100_000, 0, 1_000_000))
  const totalPoolPpm = BigInt(envInt(env, 'NADI_RANKING_TOTAL_POOL_PPM', 50_000, 0, 1_000_000))
  // The pools take a share of all the day's fees; the node holders' fee share takes one of the
  // withdraw fees and their dividends one of the trading fees. Per source, the shares may not promise
  // more than that income.
  for (const [name, nodePpm] of [
    ['NADI_NODE_FEE_POOL_PPM', nodeFeePoolPpm],
    ['NADI_NODE_DIVIDEND_POOL_PPM', nodeDividendPoolPpm],
  ] as const) {
    if (nodePpm + dailyPoolPpm + totalPoolPpm > 1_000_000n) {
      throw new Error(`${name} (${nodePpm}) + NADI_RANKING_DAILY_POOL_PPM (${dailyPoolPpm}) + NADI_RANKING_TOTAL_POOL_PPM (${totalPoolPpm}) exceed 1000000: the day's fees would be given out more than once`)
    }
  }
  return {
    measure,
    dailyPoolPpm,
    totalPoolPpm,
    dailyShares: parseShares('NADI_RANKING_DAILY_SHARES', envString(env, 'NADI_RANKING_DAILY_SHARES', '300000,200000,150000,100000,80000,60000,40000,30000,20000,20000')),
    totalShares: parseShares('NADI_RANKING_TOTAL_SHARES', envString(env, 'NADI_RANKING_TOTAL_SHARES', '500000,300000,200000')),
    pushMs: envInt(env, 'NADI_RANKING_PUSH_MS', 2000, 100, 60_000),
  }
}
