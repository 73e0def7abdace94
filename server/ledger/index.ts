// The ledger (DESIGN §8): the only way money moves. Every change is a double-entry posting, made
// inside the caller's transaction:
//
//   await ctx.sql.transaction(async (tx) => {
//     …the business change…
//     await ledger.transfer(tx, { ref: `draw:${id}`, reason: 'transfer', from: fund(u), to: trade(u), asset: 'USDT', amount })
//   })
//
// Balances live on the account rows (reads are one row); postings and entries are the append-only
// record they are derived from; audit() proves the two agree and that every asset sums to zero.

export * from './types.ts'
export { InsufficientFunds, InvalidPosting, LedgerError, RefConflict } from './errors.ts'
export { canonicalJson, freeze, INT64_MAX, INT64_MIN, post, postMany, settleFrozen, transfer, unfreeze } from './post.ts'
export { accountId, balance, balances, entriesFor, findPosting, type EntriesQuery, type MoneyEntry, type PostingRecord } from './read.ts'
export {
  audit,
  formatAudit,
  frozenHolderNames,
  frozenHolders,
  fundAccountHolder,
  postingRanges,
  registerFrozenHolder,
  type AssetTotals,
  type AuditOptions,
  type AuditReport,
  type FrozenHolder,
  type PostingRange,
  type Rule,
  type Violation,
} from './audit.ts'
