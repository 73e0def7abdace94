import type { QueryClient } from '@tanstack/react-query'
import type { Address } from '../../../contract/address.ts'
import { post } from '../../api/client.ts'
import { registerOutboxAction } from '../../data/index.ts'
import { ACTION } from './merge.ts'

/**
 * The four address changes are harmless (DESIGN §6): made offline they wait in the outbox. Each send
 * carries the item's idempotency key, and a success refreshes the list from the server.
 */
export function registerAddressActions(qc: QueryClient): void {
  const sent = <T>(p: Promise<T>) =>
    p.then((r) => {
      void qc.invalidateQueries({ queryKey: ['address'] })
      return r
    })
  registerOutboxAction(ACTION.add, (payload, key) => sent(post<Address>('address/addAddress', payload, key)))
  registerOutboxAction(ACTION.edit, (payload, key) => sent(post<Address>('address/editAddress', payload, key)))
  registerOutboxAction(ACTION.remove, (payload, key) => sent(post<null>('address/deleteAddress', payload, key)))
  registerOutboxAction(ACTION.setDefault, (payload, key) => sent(post<null>('address/setDefaultAddress', payload, key)))
}
