import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BorrowBody, Loan, RepayBody } from '../../../contract/lending.ts'
import { refreshBalances, useMoneyPost } from '../wallet/mutations.ts'
import { LOAN_ROOT } from './queries.ts'

/** Money actions: never queued (DESIGN §6), one Idempotency-Key per intent; the loans, nodes (their debt) and balances are read again. */
function useLoanAction<B>(path: string) {
  const qc = useQueryClient()
  const send = useMoneyPost<B, Loan>(path)
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: LOAN_ROOT })
      void qc.invalidateQueries({ queryKey: ['node'] })
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}

export const useBorrow = () => useLoanAction<BorrowBody>('lending/borrow')
export const useRepay = () => useLoanAction<RepayBody>('lending/repay')
