import { useMutation } from '@tanstack/react-query'
import { performOrQueue } from '../../app/outbox.ts'
import { cancel } from '../../data/index.ts'
import type { OrderArea } from './queries.ts'
import { RECEIPT_ACTION, type ReceiptOutcome, type ReceiptPayload } from './receipt.ts'

// Confirm receipt runs offline too: performOrQueue sends it now, or keeps it in the outbox (DESIGN §6).
// (TanStack would otherwise pause a mutation while offline.) The sender (outbox.ts) refreshes the lists.
const networkMode = 'always'

/** SPEC §4: confirming receipt moves an order from pending receipt to completed. The screen asks first. */
export function useConfirmReceipt(area: OrderArea) {
  return useMutation({
    networkMode,
    // The screen words the failure itself (SPEC §8 "confirm receipt failure").
    meta: { silent: true },
    mutationFn: (id: number) => performOrQueue<ReceiptOutcome>(RECEIPT_ACTION, { area, id } satisfies ReceiptPayload),
  })
}

/** Takes back a confirmation still waiting in the outbox (or drops one the server refused). */
export function useCancelQueuedReceipt() {
  return useMutation({ networkMode, mutationFn: (outboxId: number) => cancel(outboxId) })
}
