// What nodes hold frozen, for the ledger audit: the stake of every active node (paid, not yet
// returned) on its user's fund USDT account. Importing this module (server/ledger/holders.ts does)
// registers it.
import { fundAccountHolder, registerFrozenHolder } from '../../ledger/index.ts'

export const nodeStakesHolder = fundAccountHolder('USDT', 'active nodes', "SELECT user_id, amount AS held FROM node_orders WHERE status = 'active'")

registerFrozenHolder('nodes', nodeStakesHolder)
