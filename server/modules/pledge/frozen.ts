// What pledges hold frozen, for the ledger audit: the principal of every pledge waiting for release,
// on its user's fund NADI account. Importing this module (server/ledger/holders.ts does) registers it.
import { fundAccountHolder, registerFrozenHolder } from '../../ledger/index.ts'

export const pledgesHolder = fundAccountHolder('NADI', 'pledges waiting for release', "SELECT user_id, amount AS held FROM pledges WHERE status = 'waiting'")

registerFrozenHolder('pledges', pledgesHolder)
