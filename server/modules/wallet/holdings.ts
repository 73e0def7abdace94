// What a user's frozen balances are for, and what they owe (issue 33 item 7). The breakdown is the
// ledger audit's own: each registered frozen holder (server/ledger/holders.ts) asked for this user's
// accounts only, so the parts of an account add up to its frozen balance whenever the audit holds.
import '../../ledger/holders.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { AccountKind, FrozenPart, FrozenReason, HeldAsset, Holdings } from '../../../contract/wallet.ts'
import type { SqlConnection } from '../../db/connection.ts'
import { frozenHolders } from '../../ledger/index.ts'
import { openLoanDebt } from '../lending/service.ts'

const REASONS: readonly FrozenReason[] = ['nodes', 'pledges', 'orders', 'withdrawals']
const isReason = (name: string): name is FrozenReason => (REASONS as readonly string[]).includes(name)

/** Reads in one transaction, so the parts and the debt are of one moment. */
export function holdingsOf(sqlite: SqlConnection, userId: number): Holdings {
  const run = (): Holdings => {
    const accounts = new Map<bigint, { asset: HeldAsset; kind: AccountKind }>()
    for (const a of sqlite.prepare("SELECT id, asset, kind FROM ledger_accounts WHERE user_id = ? AND kind IN ('fund', 'trade')").all(userId) as { id: bigint | number; asset: HeldAsset; kind: AccountKind }[]) {
      accounts.set(BigInt(a.id), { asset: a.asset, kind: a.kind })
    }
    const frozen: FrozenPart[] = []
    for (const [name, holder] of frozenHolders()) {
      // A holder added without a reason the contract (and the app's words) know would go unexplained.
      if (!isReason(name)) throw new Error(`frozen holder "${name}" has no FrozenReason in contract/wallet.ts`)
      for (const [accountId, held] of holder(sqlite, userId)) {
        const a = accounts.get(BigInt(accountId))
        if (!a || held === 0n) continue
        frozen.push({ asset: a.asset, account: a.kind, reason: name, amount: formatMoney(held) })
      }
    }
    frozen.sort((x, y) => REASONS.indexOf(x.reason) - REASONS.indexOf(y.reason))
    const debt = openLoanDebt(sqlite, userId)
    return { frozen, debts: debt > 0n ? [{ asset: 'USDT', amount: formatMoney(debt) }] : [] }
  }
  return sqlite.inTransaction ? run() : sqlite.transaction(run)()
}
