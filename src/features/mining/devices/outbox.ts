import type { QueryClient } from '@tanstack/react-query'
import type { Device, DeviceList } from '../../../../contract/device.ts'
import { get, post } from '../../../api/client.ts'
import { registerOutboxAction } from '../../../data/index.ts'
import { ACTIVATE_ACTION, sendActivation, type ActivateApi, type ActivatePayload } from './activate.ts'
import { DEVICES_ROOT } from './queries.ts'

const api: ActivateApi = {
  post: (path, body, key) => post<Device>(path, body, key),
  list: async () => (await get<DeviceList>('machine/deviceList', {})).list,
}

/**
 * Activation is harmless (DESIGN §6): entered offline it waits in the outbox and is sent with its
 * idempotency key once the network is back. Registered at start, so a queue left by an earlier visit
 * is sent without opening /ming. Whatever the answer, the device list (and the mining figures it
 * feeds) is refreshed from the server.
 */
export function registerDeviceActions(qc: QueryClient): void {
  registerOutboxAction<ActivatePayload>(ACTIVATE_ACTION, (payload, key) =>
    sendActivation(api, payload, key).finally(() => {
      void qc.invalidateQueries({ queryKey: DEVICES_ROOT })
      void qc.invalidateQueries({ queryKey: ['mining'] })
    }),
  )
}
