import { useMutation } from '@tanstack/react-query'
import { performOrQueue } from '../../app/outbox.ts'
import { cancel, updatePending } from '../../data/index.ts'
import { ACTION } from './merge.ts'
import { trimmed, type AddressForm } from './validation.ts'

// These run offline too: performOrQueue puts them in the outbox. (TanStack would otherwise pause them.)
const networkMode = 'always'

/** Saves a new address, or edits one (a server id, or a still-queued new one by its outbox id). */
export function useSaveAddress(editing: boolean) {
  return useMutation({
    networkMode,
    meta: { failure: editing ? 'addressEdit' : 'addressAdd' },
    mutationFn: async (v: { form: AddressForm; id?: number; queuedId?: number }) => {
      const form = trimmed(v.form)
      // Editing an address that never left this phone changes what will be sent, nothing more.
      if (v.queuedId !== undefined) {
        await updatePending(v.queuedId, form)
        return { queued: true }
      }
      return v.id === undefined ? performOrQueue(ACTION.add, form) : performOrQueue(ACTION.edit, { ...form, id: v.id })
    },
  })
}

export function useDeleteAddress() {
  return useMutation({
    networkMode,
    meta: { failure: 'addressDelete' },
    mutationFn: (v: { id?: number; queuedId?: number }) => (v.id === undefined && v.queuedId !== undefined ? cancel(v.queuedId).then(() => ({ queued: false })) : performOrQueue(ACTION.remove, { id: v.id })),
  })
}

export function useSetDefaultAddress() {
  return useMutation({ networkMode, meta: { failure: 'addressSetDefault' }, mutationFn: (id: number) => performOrQueue(ACTION.setDefault, { id }) })
}

/** Withdraws a queued change (the user changed their mind, or the server refused it). */
export function useCancelQueued() {
  return useMutation({ networkMode, mutationFn: (outboxId: number) => cancel(outboxId) })
}
