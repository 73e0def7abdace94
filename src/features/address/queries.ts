import { queryOptions } from '@tanstack/react-query'
import type { Address } from '../../../contract/address.ts'
import { get } from '../../api/client.ts'

export const addressQueries = {
  list: () => queryOptions({ queryKey: ['address', 'list'], queryFn: ({ signal }) => get<Address[]>('address/addressList', {}, signal), staleTime: 30_000 }),
}
