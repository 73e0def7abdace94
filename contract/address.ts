import { Type, type Static } from 'typebox'
import { Millis } from './envelope.ts'
import { ADDRESS_LIMITS } from './addressRules.ts'

export { ADDRESS_LIMITS } from './addressRules.ts'

export const AddressId = Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })

/** One saved address. The phone is the full number, normalized; the app masks it in lists (SPEC §3). */
export const Address = Type.Object({
  id: Type.Integer(),
  /** Recipient name. */
  name: Type.String(),
  phone: Type.String(),
  area: Type.String(),
  /** The detailed address: street, number, floor. */
  address: Type.String(),
  /** Exactly one of a user's addresses is the default. */
  is_default: Type.Boolean(),
  created_at: Millis,
  updated_at: Millis,
})
export type Address = Static<typeof Address>

// Bodies carry types only; the rules (required after trimming, lengths, phone format) are the server's,
// so each failure gets a message that says what is wrong.
const fields = {
  name: Type.String({ description: `Recipient name, 1–${ADDRESS_LIMITS.name} characters after trimming` }),
  phone: Type.String({
    description: `An optional + and ${ADDRESS_LIMITS.phoneDigitsMin}–${ADDRESS_LIMITS.phoneDigitsMax} digits; spaces, dashes, dots and brackets are ignored`,
  }),
  area: Type.String({ description: `1–${ADDRESS_LIMITS.area} characters after trimming` }),
  address: Type.String({ description: `The detailed address, 1–${ADDRESS_LIMITS.address} characters after trimming` }),
  is_default: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true makes this the default address. false never takes the flag away: the default moves only to another address',
    }),
  ),
}

export const AddAddressBody = Type.Object(fields)
export type AddAddressBody = Static<typeof AddAddressBody>

export const EditAddressBody = Type.Object({ id: AddressId, ...fields })
export type EditAddressBody = Static<typeof EditAddressBody>

export const AddressIdBody = Type.Object({ id: AddressId })
export type AddressIdBody = Static<typeof AddressIdBody>
