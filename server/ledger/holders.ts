// Every feature that keeps funds frozen registers a holder (registerFrozenHolder in ./audit.ts) from
// a module imported here, so that anything auditing the ledger — the operator's `audit` command, the
// app — checks frozen against the same, complete list. None yet: pending withdrawals (issue 4 part 4)
// and open orders (the exchange) add one import line each, e.g.
//
//   import '../modules/withdraw/frozen.ts'
//
// Until then the audit requires every frozen bucket to be zero.
export {}
