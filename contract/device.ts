import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { CODE_INPUT_MAX } from './deviceRules.ts'

// Devices (SPEC §2 /ming "my machines", §4 device activation, §5 activation code required; issue 11
// part 2): each unit of a paid device order, pending until activated with the code shipped with it.

/** SPEC §4: pending (not activated yet), success (mining), failed (the latest attempt was refused). */
export const DeviceStatus = Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')])
export type DeviceStatus = Static<typeof DeviceStatus>

export const Device = Type.Object({
  id: Type.Integer(),
  goods_id: Type.Integer(),
  name: Type.String(),
  spec_name: Type.String(),
  cover: Type.String(),
  /** Mining power, as the specification gives it. */
  power: Money,
  status: DeviceStatus,
  /** Shipped: its activation code travels with it (before that there is nothing to enter). */
  shipped: Type.Boolean(),
  activated_at: Type.Union([Millis, Type.Null()]),
  /** The first UTC day it earns (the day after activation), ms at 00:00 UTC. */
  mining_from: Type.Union([Millis, Type.Null()]),
  order_id: Type.Integer(),
  order_no: Type.String(),
  created_at: Millis,
})
export type Device = Static<typeof Device>

export const DeviceList = Type.Object({ list: Type.Array(Device) })
export type DeviceList = Static<typeof DeviceList>

export const ActivateBody = Type.Object(
  {
    device_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    code: Type.String({ minLength: 1, maxLength: CODE_INPUT_MAX }),
  },
  { additionalProperties: false },
)
export type ActivateBody = Static<typeof ActivateBody>
