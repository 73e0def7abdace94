import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { MyPledge, PledgeBody } from '../../../contract/pledge.ts'
import { refreshBalances, useMoneyPost } from '../wallet/mutations.ts'
import { PLEDGE_ROOT } from './queries.ts'

/**
 * Pledging freezes NADI: a money action, never queued (DESIGN §6), one Idempotency-Key per intent.
 * A success refreshes the products (capacity left), my pledges and the balances.
 */
export function usePledge() {
  const qc = useQueryClient()
  const send = useMoneyPost<PledgeBody, MyPledge>('pledge/pledge')
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: PLEDGE_ROOT })
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}
