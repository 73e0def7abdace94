// Loan screen helpers. Pure; tested in tests/unit/node/view.test.ts.
import type { LendingInfo } from '../../../contract/lending.ts'

/** What one may still borrow against a node under a plan, as the server computed it ("0" when unknown). */
export function capacityOf(info: LendingInfo | undefined, nodeId: number | undefined, planId: number | undefined): string {
  const c = info?.collateral.find((x) => x.node_order_id === nodeId)
  return c?.capacity.find((x) => x.plan_id === planId)?.amount ?? '0'
}
