import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { MiningAmountBody, MiningJointBody } from '../../../contract/mining.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { useMoneyPost } from '../wallet/mutations.ts'
import { MINING_ROOT, miningQueries } from './queries.ts'
import type { MiningKind } from './view.ts'

/**
 * Destroy or joint mining creates an order to pay: a money action, never queued (DESIGN §6), one
 * Idempotency-Key per intent. The order is paid in the payment dialog; the unpaid list changes now.
 */
export function useMiningOrder(kind: MiningKind) {
  const qc = useQueryClient()
  const send = useMoneyPost<MiningAmountBody | MiningJointBody, PayOrder>(`mining/${kind}`)
  return useMutation({
    mutationFn: send,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['orders'] }),
    // A joint order refused because its quote is gone (the server's message names the new price): the
    // terms and a new quote are fetched, so the form previews at the new locked price.
    onError: () => {
      void qc.invalidateQueries({ queryKey: miningQueries.jointQuote().queryKey })
      return qc.invalidateQueries({ queryKey: miningQueries.info().queryKey })
    },
  })
}

/** After the payment dialog: the power, the records, the balances and the money log changed. */
export function refreshAfterMiningPaid(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: MINING_ROOT })
  void qc.invalidateQueries({ queryKey: ['orders'] })
  void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
  return qc.invalidateQueries({ queryKey: ['wallet', 'balances'] })
}
