// The operator console's wire (issue 35): sign-in, operators and the operator log, under their own
// prefix. Operators are not users of the app: their tokens, messages and sessions are their own.
import { Type, type Static } from 'typebox'
import { EvmAddress, Millis, PageQuery } from './envelope.ts'

/** Every operator route lives under this prefix; a user's token is never accepted there. */
export const OPERATOR_PREFIX = '/api/v1/operator'

/** Least privilege: what each role may do is in server/modules/operator/roles.ts. */
export const OPERATOR_ROLES = ['viewer', 'support', 'finance', 'admin'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]
export const OperatorRoleSchema = Type.Union([Type.Literal('viewer'), Type.Literal('support'), Type.Literal('finance'), Type.Literal('admin')])

/** The reason an operator types for a write: kept in the operator log as written. */
export const OPLOG_REASON_MAX = 500
export const Reason = Type.String({ minLength: 1, maxLength: OPLOG_REASON_MAX })

/** GET <prefix>/auth/nonce?address= */
export const OperatorNonceQuery = Type.Object({ address: EvmAddress })
export type OperatorNonceQuery = Static<typeof OperatorNonceQuery>

export const OperatorNonce = Type.Object({
  /** The text to sign, exactly as issued: it names the console's origin, a single-use nonce and its expiry. */
  message: Type.String(),
  nonce: Type.String(),
  expires_at: Millis,
})
export type OperatorNonce = Static<typeof OperatorNonce>

/** POST <prefix>/auth/verify */
export const OperatorVerifyBody = Type.Object({
  address: EvmAddress,
  message: Type.String({ minLength: 1, maxLength: 2000 }),
  sign_message: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$' }),
})
export type OperatorVerifyBody = Static<typeof OperatorVerifyBody>

export const OperatorSession = Type.Object({
  token: Type.String(),
  /** Checksummed. */
  address: Type.String(),
  role: OperatorRoleSchema,
  /** The session ends after this long unused… */
  idle_ms: Type.Integer(),
  /** …and at this moment whatever happens. */
  expires_at: Millis,
})
export type OperatorSession = Static<typeof OperatorSession>

export const Operator = Type.Object({
  /** Checksummed. */
  address: Type.String(),
  role: OperatorRoleSchema,
  added_at: Millis,
  added_by: Type.String(),
})
export type Operator = Static<typeof Operator>

/** POST <prefix>/operators (admin) */
export const AddOperatorBody = Type.Object({ address: EvmAddress, role: OperatorRoleSchema, reason: Reason })
export type AddOperatorBody = Static<typeof AddOperatorBody>

/** DELETE <prefix>/operators/:address (admin) */
export const OperatorParams = Type.Object({ address: EvmAddress })
export type OperatorParams = Static<typeof OperatorParams>
export const RemoveOperatorBody = Type.Object({ reason: Reason })
export type RemoveOperatorBody = Static<typeof RemoveOperatorBody>

export const OplogEntry = Type.Object({
  id: Type.Integer(),
  at: Millis,
  /** An operator's checksummed address, or cli:<os user> for a shell without one. */
  actor: Type.String(),
  role: Type.Union([OperatorRoleSchema, Type.Null()]),
  action: Type.String(),
  object_type: Type.String(),
  object_id: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  reason: Type.Union([Type.String(), Type.Null()]),
})
export type OplogEntry = Static<typeof OplogEntry>

/** GET <prefix>/oplog: newest first; object_type with object_id for one object's history. */
export const OplogQuery = Type.Object({
  ...PageQuery.properties,
  object_type: Type.Optional(Type.String({ pattern: '^[a-z_]{1,32}$' })),
  object_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  /** An operator's address (any case) or cli:<os user>. */
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  since: Type.Optional(Millis),
})
export type OplogQuery = Static<typeof OplogQuery>
