import { queryOptions } from '@tanstack/react-query'
import type { DeviceList } from '../../../../contract/device.ts'
import { get } from '../../../api/client.ts'

/** Every device query starts with this root (persisted, see src/data/persister.ts): /ming opens offline. */
export const DEVICES_ROOT = ['devices'] as const

export const deviceQueries = {
  /**
   * The caller's devices. They change outside the app (a paid order makes them, the operator ships
   * their codes), so a saved list shows at once and is checked on open.
   */
  list: () =>
    queryOptions({
      queryKey: [...DEVICES_ROOT, 'list'],
      queryFn: ({ signal }) => get<DeviceList>('machine/deviceList', {}, signal),
      staleTime: 15_000,
      refetchOnMount: 'always',
    }),
}
