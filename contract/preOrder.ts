import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'
import { Area } from './goods.ts'
import { PayOrder } from './orders.ts'
import { ReleasePlan } from './release.ts'

// Product orders (SPEC §3 "Machine (shop) order", §4 shop order tabs; DESIGN §10). `preOrder/preOrder`
// creates one as an order to pay (the /orders flow and payment dialog); once paid it is fulfilled:
// what ships goes pending shipment → (an operator ships it) → pending receipt → (the user, or the
// clock after a few days, confirms receipt) → completed; what does not ship is completed at once.

/** A remark is optional and short. */
export const REMARK_MAX = 200
/** How many units one order may buy. */
export const QUANTITY_MAX = 99

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })

export const PreOrderBody = Type.Object({
  area: Area,
  goods_id: Id,
  spec_id: Id,
  quantity: Type.Integer({ minimum: 1, maximum: QUANTITY_MAX }),
  /** Required when the product ships; one of the caller's own addresses. */
  address_id: Type.Optional(Id),
  remark: Type.Optional(Type.String({ maxLength: 4 * REMARK_MAX })),
  /**
   * The total the confirm screen showed. The order is charged exactly that, or refused (409, the new
   * total named) when the price has moved past what was shown within the quote's validity.
   */
  expected_total: Type.Optional(Money),
}, { additionalProperties: false })
export type PreOrderBody = Static<typeof PreOrderBody>

export const Fulfilment = Type.Union([Type.Literal('pending_shipment'), Type.Literal('pending_receipt'), Type.Literal('completed')])
export type Fulfilment = Static<typeof Fulfilment>

/** SPEC §4: the shop order tabs. */
export const ShopOrderTab = Type.Union([Type.Literal('all'), Fulfilment])
export type ShopOrderTab = Static<typeof ShopOrderTab>
export const SHOP_ORDER_TABS = ['all', 'pending_shipment', 'pending_receipt', 'completed'] as const satisfies readonly ShopOrderTab[]

export const OrderLine = Type.Object({
  goods_id: Type.Integer(),
  spec_id: Type.Integer(),
  name: Type.String(),
  spec_name: Type.String(),
  cover: Type.String(),
  quantity: Type.Integer(),
  unit_price: Money,
  /** Mining power per unit (devices). */
  power: Money,
})
export type OrderLine = Static<typeof OrderLine>

/** The delivery address as it was when the order was placed (phone masked, SPEC §3). */
export const ShipTo = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  area: Type.String(),
  address: Type.String(),
})
export type ShipTo = Static<typeof ShipTo>

export const ShopOrder = Type.Object({
  id: Type.Integer(),
  order_no: Type.String(),
  area: Area,
  /** Fulfilment; null while unpaid (see `pay_status`). */
  status: Type.Union([Fulfilment, Type.Null()]),
  /** The payment side, as /orders shows it. */
  pay_status: PayOrder.properties.status,
  lines: Type.Array(OrderLine),
  total_price: Money,
  asset: Type.Union([Type.Literal('USDT'), Type.Literal('NADI')]),
  ship_to: Type.Union([ShipTo, Type.Null()]),
  remark: Type.String(),
  express_company: Type.Union([Type.String(), Type.Null()]),
  express_no: Type.Union([Type.String(), Type.Null()]),
  create_time: Millis,
  pay_time: Type.Union([Millis, Type.Null()]),
  ship_time: Type.Union([Millis, Type.Null()]),
  confirm_time: Type.Union([Millis, Type.Null()]),
  /** Pending receipt: when receipt is confirmed automatically. */
  auto_confirm_at: Type.Union([Millis, Type.Null()]),
  release: Type.Union([ReleasePlan, Type.Null()]),
  /**
   * Demo only: the activation codes its devices were shipped with (a real order carries them in the
   * box; the server keeps only their hashes). Absent outside the demo and for what is not a device.
   */
  activation_codes: Type.Optional(Type.Array(Type.Object({ device_id: Type.Integer(), code: Type.String() }))),
})
export type ShopOrder = Static<typeof ShopOrder>

export const ShopOrderListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  status: Type.Optional(ShopOrderTab),
})
export type ShopOrderListQuery = Static<typeof ShopOrderListQuery>

/** POST preOrder/preOrder answers the order to pay and the product order it becomes. */
export const PreOrderResult = Type.Object({
  order: PayOrder,
  shop_order: ShopOrder,
  /** The same intent's order still waiting for payment, answered again rather than a second order. */
  resumed: Type.Boolean(),
})
export type PreOrderResult = Static<typeof PreOrderResult>

/** GET preOrder/tips: the unpaid-order reminder on home. */
export const PreOrderTips = Type.Object({
  /** Orders waiting for payment (or a chain payment confirming). */
  count: Type.Integer({ minimum: 0 }),
  /** The one that expires first. */
  next: Type.Union([PayOrder, Type.Null()]),
})
export type PreOrderTips = Static<typeof PreOrderTips>

export const ReceiptBody = Type.Object({ id: Id }, { additionalProperties: false })
export type ReceiptBody = Static<typeof ReceiptBody>
