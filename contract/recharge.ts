import { Type, type Static } from 'typebox'
import { EvmAddress, Millis, Money } from './envelope.ts'
import { Asset } from './wallet.ts'

export const ChainKey = Type.Union([Type.Literal('bsc'), Type.Literal('nadi')])
export type ChainKey = Static<typeof ChainKey>

/** GET /api/v1/recharge/address?coin=&chain= — the user's own deposit address (SPEC §5: coin, then chain). */
export const RechargeAddressQuery = Type.Object({ coin: Asset, chain: ChainKey })
export type RechargeAddressQuery = Static<typeof RechargeAddressQuery>
export const RechargeAddress = Type.Object({ coin: Asset, chain: ChainKey, chain_id: Type.Integer(), address: EvmAddress, token: EvmAddress, confirmations: Type.Integer() })
export type RechargeAddress = Static<typeof RechargeAddress>

/** A deposit seen on chain: confirming (n of required), credited, or dropped by a reorg. */
export const DepositStatus = Type.Union([Type.Literal('confirming'), Type.Literal('credited'), Type.Literal('dropped')])
export type DepositStatus = Static<typeof DepositStatus>
export const Deposit = Type.Object({
  id: Type.Integer(),
  coin: Asset,
  chain: ChainKey,
  amount: Money,
  tx_hash: Type.String(),
  confirmations: Type.Integer(),
  required: Type.Integer(),
  status: DepositStatus,
  created_at: Millis,
  credited_at: Type.Union([Millis, Type.Null()]),
})
export type Deposit = Static<typeof Deposit>
