// The platform accounts that pay users (DESIGN §11), funded by the operator from the treasury
// (`cli fund <account> <asset> <amount>`; the demo funds them at start). Each pays one asset: funding
// one with another would park money nothing ever pays out, so that is refused.
//
//   mining    device, destroy, joint, trial and node mining (FUNDED_BY in service.ts)
//   savings   savings (pledge) interest
//   releases  the release instalments of product orders (DESIGN §10)
//   loans     USDT lent against node stakes (repayments come back to it)
//
// Not funding accounts: fees (receives withdrawal and trade fees, and pays the node holders' share of
// them), fee_pool (declared in the ledger, unused: the fee pool is paid from fees), burned, dust, treasury.
import type { Tx } from '../../db/query/types.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import * as ledger from '../../ledger/index.ts'

export const FUNDING_ACCOUNTS = {
  mining: { account: ledger.MINING, asset: 'NADI', reason: 'mining_fund' },
  savings: { account: ledger.SAVINGS, asset: 'NADI', reason: 'savings_fund' },
  releases: { account: ledger.RELEASES, asset: 'NADI', reason: 'release_fund' },
  loans: { account: ledger.LOANS, asset: 'USDT', reason: 'loan_fund' },
} as const satisfies Record<string, { account: ledger.AccountRef; asset: ledger.KnownAsset; reason: string }>
export type FundingAccount = keyof typeof FUNDING_ACCOUNTS

export const FUND_USAGE = `usage: fund <account> <asset> <amount>  (account: ${Object.entries(FUNDING_ACCOUNTS)
  .map(([name, f]) => `${name} ${f.asset}`)
  .join(', ')})`

export interface FundRequest {
  name: FundingAccount
  asset: ledger.KnownAsset
  amount: bigint
}

/** Checks the command's words (pure): the request, or what is wrong with it. */
export function parseFund(args: readonly string[]): FundRequest | { problem: string } {
  if (args.length !== 3) return { problem: FUND_USAGE }
  const [name, asset, text] = args as [string, string, string]
  if (!Object.hasOwn(FUNDING_ACCOUNTS, name)) return { problem: `fund: ${name} is not a funding account (${Object.keys(FUNDING_ACCOUNTS).join(', ')})` }
  const f = FUNDING_ACCOUNTS[name as FundingAccount]
  if (!ledger.isAsset(asset)) return { problem: `fund: ${asset} is not an asset of the ledger (${ledger.ASSETS.join(', ')})` }
  if (asset !== f.asset) return { problem: `fund: the ${name} account pays ${f.asset}, not ${asset}` }
  const amount = parseMoney(text)
  if (amount === null || amount <= 0n || amount > ledger.INT64_MAX) return { problem: `fund: ${text} is not a positive amount with at most 8 decimals` }
  return { name: name as FundingAccount, asset: f.asset, amount }
}

export interface Funded {
  account: bigint
  treasury: bigint
}

/**
 * Moves the amount from the treasury to the account, in the caller's transaction. Throws
 * ledger.InsufficientFunds (nothing written) when the treasury has less. Every call is a new
 * funding: the ref carries a fresh id, not the amount, so two equal fundings are two.
 */
export async function fundAccount(tx: Tx, req: FundRequest, at: number, id: string): Promise<Funded> {
  const f = FUNDING_ACCOUNTS[req.name]
  await ledger.transfer(tx, { ref: `fund:${req.name}:${id}`, reason: f.reason, userId: null, from: ledger.TREASURY, to: f.account, asset: req.asset, amount: req.amount, at })
  return { account: (await ledger.balance(tx, f.account, req.asset)).available, treasury: (await ledger.balance(tx, ledger.TREASURY, req.asset)).available }
}

export const describeFunded = (req: FundRequest, f: Funded) =>
  `${req.name} account: ${formatMoney(f.account)} ${req.asset} (+${formatMoney(req.amount)}); treasury: ${formatMoney(f.treasury)} ${req.asset}`
