import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { NodeBuyBody } from '../../../contract/node.ts'
import type { PayOrder } from '../../../contract/orders.ts'
import { useMoneyPost } from '../wallet/mutations.ts'
import { NODE_ROOT } from './queries.ts'

/**
 * Buying a node creates an order to pay and holds a seat: a money action, never queued (DESIGN §6),
 * one Idempotency-Key per intent. The tiers (seats left) and the unpaid orders are read again.
 */
export function useBuyNode() {
  const qc = useQueryClient()
  const send = useMoneyPost<NodeBuyBody, PayOrder>('node/buy')
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: NODE_ROOT })
      void qc.invalidateQueries({ queryKey: ['orders'] })
    },
  })
}

/** After the payment dialog: the node, the level (user info) and the balances changed. */
export function refreshAfterNodePaid(qc: ReturnType<typeof useQueryClient>) {
  void qc.invalidateQueries({ queryKey: NODE_ROOT })
  void qc.invalidateQueries({ queryKey: ['user'] })
  void qc.invalidateQueries({ queryKey: ['orders'] })
  return qc.invalidateQueries({ queryKey: ['wallet'] })
}
