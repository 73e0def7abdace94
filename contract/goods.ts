import { Type, type Static } from 'typebox'
import { Millis, Money } from './envelope.ts'
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.ts'

// The catalogs (SPEC §1, §7; DESIGN §10): the device shop (`machine/…`, screens /shop), the gold mall
// (`gold/…`, /mall) and the car shop (`car/…`, /cars). One shape for the three: a product with the
// specifications a buyer chooses from, each with its price and stock. Texts come in the request's
// language. Gold is priced from its weight × the gold price per gram + a craft fee, at the moment asked.

export const Area = Type.Union([Type.Literal('machine'), Type.Literal('gold'), Type.Literal('car')])
export type Area = Static<typeof Area>

/** Devices (SPEC §1): tablet, straight (bar) phone, foldable phone. */
export const MachineKind = Type.Union([Type.Literal('tablet'), Type.Literal('straight'), Type.Literal('foldable')])
export type MachineKind = Static<typeof MachineKind>

export const GoodsSpec = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** USDT per unit, now (gold: weight × price per gram + craft fee). */
  price: Money,
  stock: Type.Integer({ minimum: 0 }),
  /** Mining power one unit grants (devices); "0" otherwise. */
  power: Money,
  /** Gold only: grams, and the craft fee included in the price. */
  weight: Type.Union([Money, Type.Null()]),
  craft_fee: Type.Union([Money, Type.Null()]),
})
export type GoodsSpec = Static<typeof GoodsSpec>

/** The release plan a product carries: share of the paid value returned as NADI over `days` days. */
export const ReleaseTerms = Type.Object({
  days: Type.Integer({ minimum: 1 }),
  /** Percent of the paid value, e.g. "100" or "30". */
  percent: Type.String(),
})
export type ReleaseTerms = Static<typeof ReleaseTerms>

export const GoodsItem = Type.Object({
  id: Type.Integer(),
  area: Area,
  kind: Type.Union([Type.String(), Type.Null()]),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  summary: Type.String(),
  cover: Type.String(),
  /** The lowest specification price. */
  price_from: Money,
  /** Sum over the specifications. */
  stock: Type.Integer({ minimum: 0 }),
  /** The most power one unit grants among the specifications (devices). */
  power: Money,
  ships: Type.Boolean(),
  release: Type.Union([ReleaseTerms, Type.Null()]),
  tags: Type.Array(Type.String()),
})
export type GoodsItem = Static<typeof GoodsItem>

export const GoodsDetail = Type.Intersect([
  GoodsItem,
  Type.Object({
    body: Type.String(),
    images: Type.Array(Type.String()),
    specs: Type.Array(GoodsSpec),
    /** Gold: the price per gram the spec prices were computed from. */
    gold_price: Type.Union([Money, Type.Null()]),
  }),
])
export type GoodsDetail = Static<typeof GoodsDetail>

export const GoodsListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT })),
  /** Devices: one kind. */
  kind: Type.Optional(MachineKind),
  /** Gold: one category. */
  category_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 })),
})
export type GoodsListQuery = Static<typeof GoodsListQuery>

export const GoodsDetailQuery = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) })
export type GoodsDetailQuery = Static<typeof GoodsDetailQuery>

export const GoldCategory = Type.Object({ id: Type.Integer(), name: Type.String() })
export type GoldCategory = Static<typeof GoldCategory>

/** GET gold/price: the reference price per gram now, and its recent path for a small chart. */
export const GoldPrice = Type.Object({
  price: Money,
  at: Millis,
  /** Change over the last 24 h, percent with 2 decimals, e.g. "-0.35". */
  change_24h: Type.String(),
  history: Type.Array(Type.Object({ at: Millis, price: Money })),
})
export type GoldPrice = Static<typeof GoldPrice>

/** GET gold/group: the mall's shelves, each a few products (hot, new, then each category). */
export const GoldGroup = Type.Object({
  key: Type.String(),
  title: Type.String(),
  list: Type.Array(GoodsItem),
})
export type GoldGroup = Static<typeof GoldGroup>

/** GET gold/banner: the mall's banners; `link` is an app route (a product detail). */
export const GoldBanner = Type.Object({
  id: Type.Integer(),
  image: Type.String(),
  title: Type.String(),
  link: Type.Union([Type.String(), Type.Null()]),
})
export type GoldBanner = Static<typeof GoldBanner>
