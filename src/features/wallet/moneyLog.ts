// Money records by type (/wallet/moneyLog). The server names each record by the ledger posting's
// reason and lists changes to the available balance only: a withdrawal shows as its hold
// (withdraw_freeze), and a failed one as its refund (withdraw_refund). The screen shows each code in
// the user's language, and a code it does not know yet as "Other". A record may link to what produced
// it (a settlement to its day's earnings, a pledge, a node…: earnings.ts). Pure.
import { showFigure } from '../../lib/precision.ts'

/** The chips of the filter row, after "All": the codes the server's records carry. */
export const MONEY_LOG_FILTERS = ['deposit', 'withdraw_freeze', 'transfer', 'exchange', 'trade', 'payment', 'settlement', 'release', 'withdraw_refund'] as const

/**
 * Every type code with its own words in the locales (moneyLog.type.<code>, a dot written _): each
 * reason the server posts (grep "reason: '" server/), the platform's own included.
 */
export const KNOWN_TYPES = [
  'deposit',
  'withdraw',
  'withdraw_freeze',
  'withdraw_fee',
  'withdraw_refund',
  'transfer',
  'exchange',
  'fee',
  'trade',
  'payment',
  'refund',
  'reward',
  'trade_repair',
  'release',
  'settlement',
  'ranking_prize',
  'settlement_dust',
  'destroy',
  'node_stake',
  'node_stake_return',
  'node_fee_share',
  'node_dividend',
  'loan_borrow',
  'loan_repay',
  'pledge',
  'pledge.release',
  'airdrop',
  'release_fund',
  'loan_fund',
  'mining_fund',
  'savings_fund',
  'treasury_fund',
  'demo_fund',
  'ranking_pool',
  'activity_fund',
  'activity_prize',
] as const

/** The locale key naming a record's type. */
export function typeLabelKey(code: string): string {
  return (KNOWN_TYPES as readonly string[]).includes(code) ? `moneyLog.type.${code.replace(/\./g, '_')}` : 'moneyLog.unknownType'
}

export type Tone = 'in' | 'out' | 'zero'

/** Money in (+), out (−), or neither, from a signed wire amount. */
export function amountTone(signed: string): Tone {
  if (/^-/.test(signed) && /[1-9]/.test(signed)) return 'out'
  return /[1-9]/.test(signed) ? 'in' : 'zero'
}

/** "+12.5" / "-3" / "0", with its asset's decimals and thousands grouped. */
export function signedAmount(signed: string, asset: string): string {
  const tone = amountTone(signed)
  const abs = showFigure(signed.replace(/^-/, ''), asset)
  return tone === 'in' ? `+${abs}` : tone === 'out' ? `-${abs}` : abs
}
