import { Type, type Static } from 'typebox'
import { EvmAddress, Millis, Money } from './envelope.ts'
import { ChainKey } from './recharge.ts'

/** GET /api/v1/withdraw/config — SPEC §5 and §9: NADI only, minimum 1, 3 confirmations. */
export const WithdrawConfig = Type.Object({ coin: Type.Literal('NADI'), min: Money, fee: Money, confirmations: Type.Integer(), chains: Type.Array(ChainKey) })
export type WithdrawConfig = Static<typeof WithdrawConfig>

/** POST /api/v1/withdraw/apply */
export const WithdrawBody = Type.Object({ coin: Type.String({ maxLength: 10 }), chain: ChainKey, amount: Money, address: EvmAddress })
export type WithdrawBody = Static<typeof WithdrawBody>

/** requested → approved → broadcast → confirmed, or failed with the frozen amount returned (DESIGN §7). */
export const WithdrawStatus = Type.Union([
  Type.Literal('requested'),
  Type.Literal('approved'),
  Type.Literal('broadcast'),
  Type.Literal('confirmed'),
  Type.Literal('failed'),
])
export type WithdrawStatus = Static<typeof WithdrawStatus>
export const Withdrawal = Type.Object({
  id: Type.Integer(),
  coin: Type.Literal('NADI'),
  chain: ChainKey,
  amount: Money,
  fee: Money,
  address: EvmAddress,
  status: WithdrawStatus,
  tx_hash: Type.Union([Type.String(), Type.Null()]),
  confirmations: Type.Integer(),
  required: Type.Integer(),
  created_at: Millis,
  updated_at: Millis,
})
export type Withdrawal = Static<typeof Withdrawal>
