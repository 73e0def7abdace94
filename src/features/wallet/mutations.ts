import { useState } from 'react'
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { ExchangeBody, ExchangeRecord, TransferBody, TransferRecord } from '../../../contract/wallet.ts'
import { ApiFailure, newIdempotencyKey, post } from '../../api/client.ts'
import { intentKeys } from './intent.ts'

// Money movements are never queued (DESIGN §6): these use TanStack's default network mode, and the
// screens disable their buttons offline. Each success refreshes the balances and the lists it changed.

/** No answer came back (or a 5xx the server does not keep): the movement may or may not have happened. */
const outcomeUnknown = (e: unknown) => e instanceof ApiFailure && (e.status === 0 || e.status >= 500)

/** POSTs a money movement with one Idempotency-Key per intent (see intent.ts). */
export function useMoneyPost<B, R>(path: string) {
  const [keys] = useState(() => intentKeys(newIdempotencyKey))
  return async (body: B): Promise<R> => {
    try {
      const r = await post<R>(path, body, keys.keyFor(body))
      keys.settle(false)
      return r
    } catch (e) {
      keys.settle(outcomeUnknown(e))
      throw e
    }
  }
}

/** Awaited by each success, so the screen shows the new balance as it reports the success. */
export function refreshBalances(qc: QueryClient) {
  return qc.invalidateQueries({ queryKey: ['wallet', 'balances'] })
}

/** Between the user's own fund and trade accounts (/draw). */
export function useTransfer() {
  const qc = useQueryClient()
  const send = useMoneyPost<TransferBody, TransferRecord>('wallet/transfer')
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['wallet', 'transferList'] })
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}

/** Confirms a quote the user has seen. */
export function useExchange() {
  const qc = useQueryClient()
  const send = useMoneyPost<ExchangeBody, ExchangeRecord>('wallet/exchange')
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['wallet', 'moneyLog'] })
      return refreshBalances(qc)
    },
  })
}
