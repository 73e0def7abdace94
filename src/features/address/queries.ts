import { queryOptions } from '@tanstack/react-query'
import type { Address } from '../../../contract/address.ts'
import { get } from '../../api/client.ts'

export const addressQueries = {
  list: () => queryOptions({ queryKey: ['address', 'list'], queryFn: ({ signal }) => get<Address[]>('address/addressList', {}, signal), staleTime: 30_000, meta: { failure: 'addressList' } }),
  /** One address (the edit screen, also when opened by a link before the list is loaded). */
  detail: (id: number) =>
    queryOptions({ queryKey: ['address', 'detail', id], queryFn: ({ signal }) => get<Address>('address/addressDetail', { id }, signal), staleTime: 30_000, meta: { failure: 'addressDetail' } }),
  /** The caller's default address, or null without addresses (the order confirm screen's first choice). */
  defaultAddress: () => queryOptions({ queryKey: ['address', 'default'], queryFn: ({ signal }) => get<Address | null>('address/getDefaultAddress', {}, signal), staleTime: 30_000 }),
}
