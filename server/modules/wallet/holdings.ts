// What a user's frozen balances are for, and what they owe (issue 33 item 7). The breakdown is the
// ledger audit's own: each registered frozen holder (server/ledger/holders.ts) asked for this user's
// accounts only, so the parts of an account add up to its frozen balance whenever the audit holds.
import '../../ledger/holders.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { AccountKind, FrozenPart, FrozenReason, HeldAsset, Holdings } from '../../../contract/wallet.ts'
import { statement, statements, type Sql, type Tx } from '../../db/query/types.ts'
import { inSnapshot } from '../../db/steps.ts'
import { frozenHolders } from '../../ledger/index.ts'
import { openLoanDebt } from '../lending/service.ts'

const REASONS: readonly FrozenReason[] = ['nodes', 'pledges', 'orders', 'withdrawals']
const isReason = (name: string): name is FrozenReason => (REASONS as readonly string[]).includes(name)

const S = statements({
  accounts: statement<{ id: bigint; asset: HeldAsset; kind: AccountKind }, [userId: number]>(
    "SELECT id, asset, kind FROM ledger_accounts WHERE user_id = ? AND kind IN ('fund', 'trade')",
  ),
})

/** Reads in one snapshot (q's own transaction when it is one), so the parts and the debt are of one moment. */
export function holdingsOf(q: Sql | Tx, userId: number): Promise<Holdings> {
  return inSnapshot(q, async (tx) => {
    const accounts = new Map<bigint, { asset: HeldAsset; kind: AccountKind }>()
    for (const a of await tx.all(S.accounts, userId)) accounts.set(a.id, { asset: a.asset, kind: a.kind })
    const frozen: FrozenPart[] = []
    for (const [name, holder] of frozenHolders()) {
      // A holder added without a reason the contract (and the app's words) know would go unexplained.
      if (!isReason(name)) throw new Error(`frozen holder "${name}" has no FrozenReason in contract/wallet.ts`)
      for (const [accountId, held] of await holder(tx, userId)) {
        const a = accounts.get(accountId)
        if (!a || held === 0n) continue
        frozen.push({ asset: a.asset, account: a.kind, reason: name, amount: formatMoney(held) })
      }
    }
    frozen.sort((x, y) => REASONS.indexOf(x.reason) - REASONS.indexOf(y.reason))
    const debt = await openLoanDebt(tx, userId)
    return { frozen, debts: debt > 0n ? [{ asset: 'USDT', amount: formatMoney(debt) }] : [] }
  })
}
