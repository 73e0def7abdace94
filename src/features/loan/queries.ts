import { queryOptions } from '@tanstack/react-query'
import type { LendingInfo, LoanPlan } from '../../../contract/lending.ts'
import { get } from '../../api/client.ts'

// Loans against node stakes (SPEC §2 /loan, §7 lending/list and lending/info; issue 11 part 6). Saved
// per account under the root 'loan' and shown offline with their age; borrowing and repaying are
// money actions and need the network.

export const LOAN_ROOT = ['loan'] as const

export const loanQueries = {
  plans: () =>
    queryOptions({
      queryKey: [...LOAN_ROOT, 'plans'],
      queryFn: ({ signal }) => get<LoanPlan[]>('lending/list', undefined, signal),
      staleTime: 60_000,
      refetchOnMount: 'always',
    }),
  info: () =>
    queryOptions({
      queryKey: [...LOAN_ROOT, 'info'],
      queryFn: ({ signal }) => get<LendingInfo>('lending/info', undefined, signal),
      staleTime: 10_000,
      refetchOnMount: 'always',
    }),
}
