// What every process that writes must have wired, whatever its role: the reactions to a payment (an
// order paid over HTTP in an API process, or confirmed on chain by the jobs' payment checker) and the
// steps of a settled day (run by whoever runs the settlement). Registered in one place so that `all`,
// `api` and `jobs` cannot drift apart: a process missing one would, say, take a payment and not
// fulfil its order.

import { parseMoney } from '../../contract/money.ts'
import type { Config } from '../config.ts'
import type { Ctx } from '../context.ts'
// The ledger audit checks frozen NADI against open withdrawals.
import '../ledger/holders.ts'
import { registerLendingSteps } from '../modules/lending/service.ts'
import { fulfilMining } from '../modules/mining/service.ts'
import { fulfilNode, registerNodeSteps } from '../modules/node/service.ts'
import { chainPaymentArrives, ORDER_REF_PREFIX } from '../modules/orders/service.ts'
import { onChainArrival, onPaid } from '../modules/payment/index.ts'
import { registerPledgeRelease } from '../modules/pledge/service.ts'
import { fulfil } from '../modules/preOrder/service.ts'
import { registerRanking } from '../modules/ranking/service.ts'

/** The NADI price orders are valued at: the market's last price, else the configured reference price. */
export function nadiPriceOf(config: Pick<Config, 'nadiReferencePrice'>, lastPrice: () => bigint | null): () => bigint {
  const reference = parseMoney(config.nadiReferencePrice) as bigint
  return () => {
    const last = lastPrice()
    return last !== null && last > 0n ? last : reference
  }
}

export interface Reactions {
  /** The NADI price a paid order is valued at (the market's last price, else the reference price). */
  nadiPrice: () => bigint
}

export function wireReactions(ctx: Ctx, { nadiPrice }: Reactions): void {
  const orderOf = (ref: string) => Number(ref.slice(ORDER_REF_PREFIX.length))
  // A chain payment confirming after its order ended: paid, reinstated, or credited to its payer.
  onChainArrival(ctx, ORDER_REF_PREFIX, (tx, e) => chainPaymentArrives(ctx, tx, e))
  // The shops (DESIGN §10): fulfilment in the payment's transaction.
  onPaid(ctx, ORDER_REF_PREFIX, (tx, e) => fulfil(ctx, tx, { nadiPrice }, orderOf(e.orderRef), e.paidAt))
  // Destroy and joint mining (issue 11): paid orders become power released by the settlement.
  onPaid(ctx, ORDER_REF_PREFIX, (tx, e) => fulfilMining(ctx, tx, { nadiPrice }, orderOf(e.orderRef), e.paidAt))
  // Super Miner nodes (issue 11 part 4): a paid node order freezes the stake and grants the tier.
  onPaid(ctx, ORDER_REF_PREFIX, (tx, e) => fulfilNode(ctx, tx, orderOf(e.orderRef), e.paidAt))

  // The settlement's steps, in this order. Savings (issue 11 part 5): a term's last day releases the
  // pledged principal. Loans' daily interest, then the nodes' fee share and stake return (a stake
  // stays while a loan is open). The ranking (issue 12 part 3): after the node steps, the pools take
  // their share of the day's income, then the day's top N are paid.
  registerPledgeRelease(ctx)
  registerLendingSteps(ctx)
  registerNodeSteps(ctx)
  registerRanking(ctx)
}
