import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { WithdrawBody, Withdrawal } from '../../../contract/withdraw.ts'
import { refreshBalances, useMoneyPost } from '../wallet/mutations.ts'

/** Never queued (DESIGN §6): default network mode; the screen disables the button offline. */
export function useWithdraw() {
  const qc = useQueryClient()
  const send = useMoneyPost<WithdrawBody, Withdrawal>('withdraw/apply')
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['withdraw', 'list'] })
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}
