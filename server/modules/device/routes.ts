import type { FastifyRequest } from 'fastify'
import { ActivateBody, Device, DeviceList } from '../../../contract/device.ts'
import { Envelope } from '../../../contract/envelope.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { DeviceService } from './service.ts'

const uid = (req: FastifyRequest) => req.user!.id

/** The caller's devices (SPEC §2 /ming "my machines") and their activation (SPEC §4, §5). */
export function deviceRoutes(app: App, devices: DeviceService): void {
  const tags = ['device']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/machine/deviceList',
    { ...auth, schema: { tags, summary: 'The caller’s devices: product, specification, power, status (pending, success, failed), activation time, order number', response: { 200: Envelope(DeviceList) } } },
    async (req) => ok(req, { list: await devices.list(uid(req), req.lang) }),
  )
  app.post(
    '/api/v1/machine/activate',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Activate one of the caller’s devices with the code shipped with it; it mines from the next UTC day. 429 after 5 wrong codes in a row within 15 minutes',
        body: ActivateBody,
        response: { 200: Envelope(Device) },
      },
    },
    async (req) => ok(req, await devices.activate(uid(req), req.lang, req.body.device_id, req.body.code)),
  )
}
