// The catalog file operators load with `tsx server/cli.ts catalog load <file.json>` (DESIGN §10), and
// the demo catalog is one too (server/db/seed/catalog.json). Slugs are the keys: loading a file again
// updates what it names and adds what is new; nothing is deleted (an operator sets `active: false`).
import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { ImageUrl, Slug, Texts } from '../../commands/fileSchemas.ts'
import { Money } from '../../../contract/envelope.ts'

export const CatalogSpec = Type.Object(
  {
    slug: Slug,
    name: Texts(60),
    /** Devices and cars: USDT per unit. */
    price: Type.Optional(Money),
    /** Gold: grams (up to 3 decimals) and the craft fee in USDT. */
    weight: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,6})(\\.[0-9]{1,3})?$' })),
    craft_fee: Type.Optional(Money),
    /** Devices: the mining power one unit grants. */
    power: Type.Optional(Money),
    stock: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
    sort: Type.Optional(Type.Integer()),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CatalogSpec = Static<typeof CatalogSpec>

export const CatalogProduct = Type.Object(
  {
    slug: Slug,
    area: Type.Union([Type.Literal('machine'), Type.Literal('gold'), Type.Literal('car')]),
    /** Gold: the slug of one of the file's (or the database's) categories. */
    category: Type.Optional(Slug),
    /** Devices: tablet, straight or foldable. */
    kind: Type.Optional(Type.Union([Type.Literal('tablet'), Type.Literal('straight'), Type.Literal('foldable')])),
    name: Texts(80),
    summary: Texts(200),
    body: Texts(4000),
    cover: ImageUrl,
    images: Type.Optional(Type.Array(ImageUrl, { maxItems: 8 })),
    ships: Type.Boolean(),
    /** The paid value returned as NADI: share in percent (up to 2 decimals) over so many days. */
    release: Type.Optional(
      Type.Object({ days: Type.Integer({ minimum: 1, maximum: 3650 }), percent: Type.String({ pattern: '^(0|[1-9][0-9]{0,2})(\\.[0-9]{1,2})?$' }) }, { additionalProperties: false }),
    ),
    tags: Type.Optional(Type.Array(Type.Union([Type.Literal('hot'), Type.Literal('new')]), { maxItems: 2 })),
    sort: Type.Optional(Type.Integer()),
    active: Type.Optional(Type.Boolean()),
    specs: Type.Array(CatalogSpec, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
)
export type CatalogProduct = Static<typeof CatalogProduct>

export const CatalogCategory = Type.Object(
  {
    slug: Slug,
    area: Type.Literal('gold'),
    name: Texts(40),
    sort: Type.Optional(Type.Integer()),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CatalogCategory = Static<typeof CatalogCategory>

export const CatalogFile = Type.Object(
  {
    categories: Type.Optional(Type.Array(CatalogCategory, { maxItems: 100 })),
    products: Type.Array(CatalogProduct, { maxItems: 5000 }),
    /** The mall's banners (gold/banner): `link` is an app route such as /mall/detail/<product slug>. */
    mall_banners: Type.Optional(
      Type.Array(
        Type.Object({ image: ImageUrl, title: Texts(80), product: Type.Optional(Slug), sort: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
        { maxItems: 20 },
      ),
    ),
  },
  { additionalProperties: false },
)
export type CatalogFile = Static<typeof CatalogFile>

export const catalogFileCheck = Compile(CatalogFile)
