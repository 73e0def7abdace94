import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CarApplication } from '../../../contract/car.ts'
import { performOrQueue } from '../../app/outbox.ts'
import { cancel } from '../../data/index.ts'
import { CAR_APPLY_ACTION } from './applyOutbox.ts'
import { CAR_APPLY_ROOT } from './applyQueries.ts'
import { uploadDocument } from './applyUpload.ts'
import { applyBody, type ApplyForm } from './applyValidation.ts'

/**
 * Sends the application, or queues it offline (DESIGN §6): the documents are already uploaded, so the
 * request itself is harmless to replay under its idempotency key. The screen shows the server's
 * refusal next to the button, so the global error toast stays quiet.
 */
export function useSubmitApplication() {
  const qc = useQueryClient()
  return useMutation({
    networkMode: 'always',
    meta: { silent: true },
    mutationFn: (form: ApplyForm) => performOrQueue<CarApplication>(CAR_APPLY_ACTION, applyBody(form)),
    onSuccess: (r) => {
      if (!r.queued) return qc.invalidateQueries({ queryKey: [CAR_APPLY_ROOT] })
    },
  })
}

/** Uploads one document (needs the network: never queued), reporting progress; answers its key. */
export function useUploadDocument() {
  return useMutation({
    meta: { silent: true },
    mutationFn: (v: { file: File; onProgress: (fraction: number) => void; signal?: AbortSignal }) => uploadDocument(v.file, v.onProgress, v.signal),
  })
}

/** Drops an application still waiting in the outbox (or one the server refused). */
export function useCancelQueued() {
  return useMutation({ networkMode: 'always', mutationFn: (outboxId: number) => cancel(outboxId) })
}
