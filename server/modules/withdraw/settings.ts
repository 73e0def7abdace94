import { envInt, envMoney, type Env } from '../../settings.ts'

export type Failpoint = 'crash-after-store'

/** NADI withdrawals (SPEC §9's minimum and confirmations are in `limits`). */
export interface WithdrawSettings {
  /** NADI_WITHDRAW_FEE (default 0.1): units of 1e-8 taken on top of the amount; the address receives the amount in full. */
  fee: bigint
  /** NADI_WITHDRAW_AUTO_MAX (default 1000): amounts strictly below it are approved at once, the rest wait for an operator. */
  autoApproveBelow: bigint
  /** NADI_WITHDRAW_EVERY_MS (default 1000): how often the sender looks for work. */
  everyMs: number
  /**
   * NADI_WITHDRAW_SEND_ATTEMPTS (default 10): sends that fail before anything is signed and stored
   * (node unreachable…) before the withdrawal fails and its funds are returned. Failures that cannot
   * heal (the hot wallet holds too little, the transfer would revert) fail at once.
   */
  sendAttempts: number
  /**
   * NADI_WITHDRAW_FAILPOINT, tests only (ignored in production): 'crash-after-store' kills the process
   * (SIGKILL) right after a signed transaction is stored and before it is broadcast.
   */
  failpoint: Failpoint | null
}

export function readWithdrawSettings(env: Env): WithdrawSettings {
  const failpoint = env.NADI_WITHDRAW_FAILPOINT?.trim() || null
  if (failpoint !== null && failpoint !== 'crash-after-store') throw new Error(`NADI_WITHDRAW_FAILPOINT must be crash-after-store, got "${failpoint}"`)
  return {
    fee: envMoney(env, 'NADI_WITHDRAW_FEE', '0.1'),
    autoApproveBelow: envMoney(env, 'NADI_WITHDRAW_AUTO_MAX', '1000'),
    everyMs: envInt(env, 'NADI_WITHDRAW_EVERY_MS', 1000, 50),
    sendAttempts: envInt(env, 'NADI_WITHDRAW_SEND_ATTEMPTS', 10, 1),
    failpoint: env.NADI_ENV === 'production' ? null : failpoint,
  }
}
