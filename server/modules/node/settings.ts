import { envInt, envMoney, type Env } from '../../settings.ts'

/** Super Miner nodes and loans (issue 11 parts 4 and 6). */
export interface NodeSettings {
  /** NADI_NODE_FEE_POOL_PPM (500,000 = 50 %): the share of each day's withdraw fees split among node holders by withdraw_rate. */
  feePoolPpm: bigint
  /**
   * NADI_NODE_DIVIDEND_POOL_PPM (200,000 = 20 %): node dividends, a grant apart from the fee share (SPEC §1) —
   * the share of each day's spot trading fees split among node holders by their USDT stake.
   */
  dividendPoolPpm: bigint
  /** NADI_DEMO_LOAN_FUND (100000): USDT the demo puts in the loans account (0: none). */
  demoLoanFund: bigint
}

export function readNodeSettings(env: Env, demo: boolean): NodeSettings {
  return {
    feePoolPpm: BigInt(envInt(env, 'NADI_NODE_FEE_POOL_PPM', 500_000, 0, 1_000_000)),
    dividendPoolPpm: BigInt(envInt(env, 'NADI_NODE_DIVIDEND_POOL_PPM', 200_000, 0, 1_000_000)),
    demoLoanFund: demo ? envMoney(env, 'NADI_DEMO_LOAN_FUND', '100000') : 0n,
  }
}
