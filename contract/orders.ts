import { Type, type Static } from 'typebox'
import { EvmAddress, Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'
import { ChainKey } from './recharge.ts'

// Orders to be paid (SPEC §3 "Order", §4 "Order" and the payment flow; route /orders). The shops
// (devices, nodes, destroy and joint mining) create them; the user pays each from balance or on chain
// through the payment dialog; an order not paid in time is cancelled.

export const PayOrderType = Type.Union([
  Type.Literal('device'),
  Type.Literal('gold'),
  Type.Literal('car'),
  Type.Literal('node'),
  Type.Literal('destroy'),
  Type.Literal('joint'),
])
export type PayOrderType = Static<typeof PayOrderType>

/** SPEC §4: pending payment, processing (a chain payment confirming), paid, completed, cancelled (irreversible). */
export const PayOrderStatus = Type.Union([
  Type.Literal('pending_payment'),
  Type.Literal('processing'),
  Type.Literal('paid'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
])
export type PayOrderStatus = Static<typeof PayOrderStatus>

export const PaymentState = Type.Object({
  method: Type.Union([Type.Literal('balance'), Type.Literal('chain')]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('confirming'), Type.Literal('paid'), Type.Literal('failed')]),
  chain: Type.Union([ChainKey, Type.Null()]),
  tx_hash: Type.Union([Type.String(), Type.Null()]),
  confirmations: Type.Integer(),
  required: Type.Integer(),
  /** Why a chain payment failed, in the request's language; null unless failed. */
  fail_msg: Type.Union([Type.String(), Type.Null()]),
})
export type PaymentState = Static<typeof PaymentState>

export const PayOrder = Type.Object({
  id: Type.Integer(),
  order_no: Type.String(),
  type: PayOrderType,
  /** What the order is for, in the request's language. */
  title: Type.String(),
  asset: Type.Union([Type.Literal('USDT'), Type.Literal('NADI')]),
  total: Money,
  status: PayOrderStatus,
  created_at: Millis,
  /** An unpaid order is cancelled at this time. */
  expires_at: Millis,
  /** The latest payment attempt, if any. */
  payment: Type.Union([PaymentState, Type.Null()]),
  /** A cancelled order: by the user, or by the expiry job because it was not paid in time; null otherwise. */
  cancelled_by: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('expiry'), Type.Null()])),
})
export type PayOrder = Static<typeof PayOrder>

export const OrdersQuery = Type.Object({
  status: Type.Optional(PayOrderStatus),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
})
export type OrdersQuery = Static<typeof OrdersQuery>

export const OrderIdBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) })
export type OrderIdBody = Static<typeof OrderIdBody>

/** Where and how an order can be paid on chain: the token to send, on which chain, to which address. */
export const PayTarget = Type.Object({
  chain: ChainKey,
  chain_id: Type.Integer(),
  token: EvmAddress,
  to: EvmAddress,
  confirmations: Type.Integer(),
})
export type PayTarget = Static<typeof PayTarget>
export const PayTargets = Type.Object({ targets: Type.Array(PayTarget) })
export type PayTargets = Static<typeof PayTargets>

/** POST /api/v1/orders/payOnChain — the tx hash of the ERC-20 transfer the wallet sent. */
export const PayOnChainBody = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
  chain: ChainKey,
  tx_hash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
})
export type PayOnChainBody = Static<typeof PayOnChainBody>
