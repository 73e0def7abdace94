import { Type, type Static } from 'typebox'
import { EvmAddress, Millis } from './envelope.ts'
import { INVITE_CODE_PATTERN } from './constants.ts'

export const InviteCode = Type.String({ pattern: INVITE_CODE_PATTERN, minLength: 4, maxLength: 16 })

export const LoginMessageQuery = Type.Object({
  address: EvmAddress,
  chainId: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
  code: Type.Optional(InviteCode),
})
export type LoginMessageQuery = Static<typeof LoginMessageQuery>

export const LoginMessage = Type.Object({
  /** EIP-4361 text to sign, exactly as issued. */
  message: Type.String(),
  nonce: Type.String(),
  expires_at: Millis,
  /** Whether this address signs in (true) or registers under the invite code (false). */
  registered: Type.Boolean(),
})
export type LoginMessage = Static<typeof LoginMessage>

export const LoginBody = Type.Object({
  address: EvmAddress,
  message: Type.String({ minLength: 1, maxLength: 2000 }),
  sign_message: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$' }),
  code: Type.Optional(Type.Union([InviteCode, Type.Literal('')])),
})
export type LoginBody = Static<typeof LoginBody>

export const LoginResult = Type.Object({
  token: Type.String(),
  /** Idle time after which the token expires unless used (sliding). */
  idle_ms: Type.Integer(),
})
export type LoginResult = Static<typeof LoginResult>

export const IsRegisterBody = Type.Object({ address: EvmAddress })
export type IsRegisterBody = Static<typeof IsRegisterBody>
export const IsRegisterResult = Type.Object({ registered: Type.Boolean() })
export type IsRegisterResult = Static<typeof IsRegisterResult>
