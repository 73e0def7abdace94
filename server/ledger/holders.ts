// Every feature that keeps funds frozen registers a holder (registerFrozenHolder in ./audit.ts) in a
// module imported here; whatever audits the ledger (the operator's `audit` command, the server)
// imports this file, so frozen is checked against one complete list.
import '../modules/withdraw/frozen.ts'
import '../exchange/frozen.ts'
import '../modules/node/frozen.ts'
import '../modules/pledge/frozen.ts'
