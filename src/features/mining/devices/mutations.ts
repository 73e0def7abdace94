import { useMutation } from '@tanstack/react-query'
import { performOrQueue } from '../../../app/outbox.ts'
import { cancel } from '../../../data/index.ts'
import { ACTIVATE_ACTION, type ActivateOutcome, type ActivatePayload } from './activate.ts'

// Activation runs offline too: performOrQueue sends it now, or keeps it in the outbox (DESIGN §6).
// (TanStack would otherwise pause a mutation while offline.) The sender (outbox.ts) refreshes the list.
const networkMode = 'always'

/** SPEC §4/§5: activate a device with the code shipped with it. The sheet words the failure itself. */
export function useActivateDevice() {
  return useMutation({
    networkMode,
    meta: { silent: true },
    mutationFn: (p: ActivatePayload) => performOrQueue<ActivateOutcome>(ACTIVATE_ACTION, p),
  })
}

/** Takes back an activation still waiting in the outbox (or drops one the server refused). */
export function useCancelQueuedActivation() {
  return useMutation({ networkMode, mutationFn: (outboxId: number) => cancel(outboxId) })
}
