import type { QueryClient } from '@tanstack/react-query'
import type { CarApplication } from '../../../contract/car.ts'
import { post } from '../../api/client.ts'
import { registerOutboxAction } from '../../data/index.ts'

/** The outbox action of a car application (DESIGN §6: made offline, it waits and is sent once back online). */
export const CAR_APPLY_ACTION = 'car.apply'

/**
 * Registered at start (src/main.tsx) so a queued application is sent even if /apply is never opened
 * again: with the item's idempotency key, so however often it is retried it makes one application.
 * Kept tiny: it is in the first load.
 */
export function registerCarApplyActions(qc: QueryClient): void {
  registerOutboxAction(CAR_APPLY_ACTION, (payload, key) =>
    post<CarApplication>('car/apply', payload, key).then((r) => {
      void qc.invalidateQueries({ queryKey: ['carApply'] })
      return r
    }),
  )
}
