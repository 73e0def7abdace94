// The catalogs (DESIGN §10): devices (`machine`), gold and cars, read by the shop screens and priced
// for orders. Reads are typed statements, awaited (a list is a few rows); the gold price is the
// newest row of gold_prices, else the configured reference.
import type { Selectable } from 'kysely'
import { LOCALE_FILE, type LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { Area, GoldBanner, GoldCategory, GoldGroup, GoldPrice, GoodsDetail, GoodsItem, GoodsSpec } from '../../../contract/goods.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { Ctx } from '../../context.ts'
import type { ProductSpecsTable, ProductsTable } from '../../db/schema.ts'
import { statement, statements, type Queryable, type Tx } from '../../db/query/types.ts'
import { notFound } from '../../http/errors.ts'
import { translate } from '../../i18n.ts'
import { formatGrams, percentChange, pickText, ppmToPercent, specUnitPrice } from './rules.ts'
import type { Retake } from '../orders/holdRules.ts'

export type ProductRow = Selectable<ProductsTable>
export type SpecRow = Selectable<ProductSpecsTable>

const SQL = {
  product: 'SELECT * FROM products WHERE id = ?',
  spec: 'SELECT * FROM product_specs WHERE id = ?',
  specsOf: 'SELECT * FROM product_specs WHERE product_id = ? AND active = 1 ORDER BY sort, id',
  goldNow: 'SELECT at, price FROM gold_prices ORDER BY at DESC LIMIT 1',
  goldAt: 'SELECT at, price FROM gold_prices WHERE at <= ? ORDER BY at DESC LIMIT 1',
  goldSince: 'SELECT at, price FROM gold_prices WHERE at >= ? ORDER BY at',
  goldInsert: 'INSERT INTO gold_prices (at, price) VALUES (?, ?) ON CONFLICT (at) DO UPDATE SET price = excluded.price',
  goldPrune: 'DELETE FROM gold_prices WHERE at < ?',
  categories: "SELECT * FROM product_categories WHERE area = 'gold' AND active = 1 ORDER BY sort, id",
  mallBanners: "SELECT * FROM banners WHERE place = 'mall' AND state = 'published' ORDER BY sort, id",
  bannerTexts: 'SELECT lang, title FROM banner_texts WHERE banner_id = ?',
  takeStock: 'UPDATE product_specs SET stock = stock - @n, sold = sold + @n WHERE id = @id AND stock >= @n',
  giveStock: `UPDATE product_specs SET stock = stock + l.quantity, sold = sold - l.quantity
              FROM (SELECT spec_id, sum(quantity) AS quantity FROM order_lines WHERE order_id = ? GROUP BY spec_id) AS l
              WHERE product_specs.id = l.spec_id`,
  retakeOf: `SELECT min(CASE WHEN s.stock >= l.quantity THEN 1 ELSE 0 END) AS enough, min(s.active * p.active) AS on_sale, count(*) AS specs
               FROM (SELECT spec_id, sum(quantity) AS quantity FROM order_lines WHERE order_id = ? GROUP BY spec_id) AS l
               JOIN product_specs s ON s.id = l.spec_id JOIN products p ON p.id = s.product_id`,
  retakeStock: `UPDATE product_specs SET stock = stock - l.quantity, sold = sold + l.quantity
                FROM (SELECT spec_id, sum(quantity) AS quantity FROM order_lines WHERE order_id = ? GROUP BY spec_id) AS l
                WHERE product_specs.id = l.spec_id AND product_specs.stock >= l.quantity`,
} as const

const DAY_MS = 86_400_000
/** The gold price history kept (and shown): two days. */
const GOLD_HISTORY_MS = 2 * DAY_MS
/** The gold chart on the mall has this many points at most. */
const GOLD_POINTS = 96

type PricePoint = { at: bigint; price: bigint }

/** The catalog's reads outside any transaction, awaited: the same texts the synchronous helpers prepare. */
const READ = statements({
  product: statement<ProductRow, [id: number]>(SQL.product),
  specsOf: statement<SpecRow, [productId: bigint | number]>(SQL.specsOf),
  goldNow: statement<PricePoint, []>(SQL.goldNow),
  goldAt: statement<PricePoint, [at: number]>(SQL.goldAt),
  goldSince: statement<PricePoint, [since: number]>(SQL.goldSince),
  categories: statement<{ id: bigint; name: string }, []>(SQL.categories),
  mallBanners: statement<{ id: bigint; image: string; link: string | null }, []>(SQL.mallBanners),
  bannerTexts: statement<{ lang: string; title: string }, [bannerId: bigint]>(SQL.bannerTexts),
  goldShelves: statement<ProductRow, []>(
    "SELECT p.* FROM products p WHERE p.area = 'gold' AND p.active = 1 AND EXISTS (SELECT 1 FROM product_specs x WHERE x.product_id = p.id AND x.active = 1) ORDER BY p.sort, p.id",
  ),
})

// What the catalog answers changes only when stock, a product or the gold price does: every such
// write in this process bumps the database's catalog version, and answers are kept (serialized)
// under it. They also expire after CACHE_TTL_MS, for writes made by another process (a CLI run on
// a stopped folder, or DESIGN §9's several API processes).
const versions = new WeakMap<object, number>()
const CACHE_TTL_MS = 2_000
const CACHE_MAX = 1_000

/** Marks every kept catalog answer of this database as stale. */
export function catalogChanged(db: object): void {
  versions.set(db, (versions.get(db) ?? 0) + 1)
}

/** A small cache of serialized answers, keyed by what was asked and the catalog version. */
export function catalogCache(db: object) {
  const kept = new Map<string, { at: number; version: number; body: string }>()
  return async (key: string, now: number, make: () => Promise<string>): Promise<string> => {
    // The version before the read: a write landing while it is awaited leaves this answer stale, not current.
    const version = versions.get(db) ?? 0
    const hit = kept.get(key)
    if (hit && hit.version === version && now - hit.at < CACHE_TTL_MS) return hit.body
    const body = await make()
    if (kept.size >= CACHE_MAX) kept.delete(kept.keys().next().value as string)
    kept.set(key, { at: now, version, body })
    return body
  }
}

/** The gold price per gram now (units of 1e-8 USDT): the newest recorded, else the configured reference; in a transaction (`tx`) or outside one (`ctx.sql`). */
export async function readGoldPrice(q: Queryable, reference: bigint): Promise<bigint> {
  return (await q.get(READ.goldNow))?.price ?? reference
}

/** How long a gold price shown on a screen is honoured when the order comes: the quote's validity. */
export const GOLD_QUOTE_MS = 60_000

const GOLD = statements({
  insert: statement<never, [at: number, price: bigint]>(SQL.goldInsert),
  prune: statement<never, [before: number]>(SQL.goldPrune),
})

/**
 * Records a gold price (operator command, or the demo's walk) and forgets what is older than the
 * history kept, in the caller's transaction (`tx`) or as two statements of their own (`ctx.sql`).
 * `ctx.sql` only names the database whose kept catalog answers go stale.
 */
export async function recordGoldPrice(ctx: Pick<Ctx, 'sql'>, q: Queryable, at: number, price: bigint): Promise<void> {
  if (price <= 0n) throw new RangeError('a gold price is positive')
  await q.run(GOLD.insert, at, price)
  await q.run(GOLD.prune, at - GOLD_HISTORY_MS)
  catalogChanged(ctx.sql)
}

/** What the orders' cancellation and reinstatement run on stock, in their transactions of the asynchronous way. */
const HOLD = statements({
  giveStock: statement<never, [orderId: bigint | number]>(SQL.giveStock),
  retakeOf: statement<{ enough: bigint | null; on_sale: bigint | null; specs: bigint }, [orderId: bigint | number]>(SQL.retakeOf),
  retakeStock: statement<never, [orderId: bigint | number]>(SQL.retakeStock),
})

/** Gives back what an order took (an unpaid order cancelled by its user or by the clock), in the caller's transaction. */
export async function giveBackStock(ctx: Pick<Ctx, 'sql'>, tx: Tx, orderId: bigint | number): Promise<void> {
  if ((await tx.run(HOLD.giveStock, orderId)).changes > 0) catalogChanged(ctx.sql)
}

/** What taking an ended order's stock again would find now; 'none' for an order of no product. */
export async function stockToRetake(tx: Tx, orderId: bigint | number): Promise<Retake> {
  const r = (await tx.get(HOLD.retakeOf, orderId))!
  if (r.specs === 0n) return 'none'
  if (r.enough !== 1n) return 'gone'
  return r.on_sale === 1n ? 'free' : 'off_sale'
}

/**
 * Takes an ended order's stock again (its late payment reinstates it), in the caller's transaction;
 * throws, undoing it all, when a specification has too little left, which stockToRetake said it had.
 */
export async function retakeStock(ctx: Pick<Ctx, 'sql'>, tx: Tx, orderId: bigint | number): Promise<void> {
  const { specs } = (await tx.get(HOLD.retakeOf, orderId))!
  if (BigInt((await tx.run(HOLD.retakeStock, orderId)).changes) !== specs) throw new Error(`order ${orderId}: its stock was taken meanwhile`)
  if (specs > 0n) catalogChanged(ctx.sql)
}

/** What placing an order reads and takes, in its transaction of the asynchronous way. */
const ORDERING = statements({
  spec: statement<SpecRow, [id: number]>(SQL.spec),
  takeStock: statement<never, [{ n: bigint; id: bigint | number }]>(SQL.takeStock),
})

/**
 * Takes `quantity` units of a specification's stock, in the ordering transaction; false when fewer
 * are left. One guarded statement: concurrent orders can never take the stock below zero.
 */
export async function takeStockIn(ctx: Pick<Ctx, 'sql'>, tx: Tx, specId: bigint | number, quantity: bigint): Promise<boolean> {
  const taken = (await tx.run(ORDERING.takeStock, { n: quantity, id: specId })).changes === 1
  if (taken) catalogChanged(ctx.sql)
  return taken
}

export function productIn(q: Queryable, id: number): Promise<ProductRow | undefined> {
  return q.get(READ.product, id)
}

export function specIn(q: Queryable, id: number): Promise<SpecRow | undefined> {
  return q.get(ORDERING.spec, id)
}

/** The gold price now through `q` (a transaction's tx, or the database), else the configured reference. */
export async function goldPriceIn(ctx: Pick<Ctx, 'config'>, q: Queryable): Promise<bigint> {
  return (await q.get(READ.goldNow))?.price ?? ctx.config.commerce.goldPrice
}

/** goldPricesQuoted through `q` (a transaction's tx, or the database). */
export async function goldPricesQuotedIn(ctx: Pick<Ctx, 'config' | 'now'>, q: Queryable): Promise<bigint[]> {
  const since = ctx.now() - GOLD_QUOTE_MS
  const first = await q.get(READ.goldAt, since)
  const later = (await q.all(READ.goldSince, since)).map((r) => r.price)
  const all = [...(first ? [first.price] : []), ...later]
  return all.length ? all : [ctx.config.commerce.goldPrice]
}

const tagsOf = (json: string): string[] => {
  try {
    const v = JSON.parse(json) as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

export type GoodsService = ReturnType<typeof createGoodsService>

export function createGoodsService(ctx: Ctx) {
  const { sql } = ctx

  function specWire(r: SpecRow, lang: LangCode, gold: bigint | null): GoodsSpec {
    return {
      id: Number(r.id),
      name: pickText(r.name, lang),
      price: formatMoney(specUnitPrice(r, gold)),
      stock: Number(r.stock),
      power: formatMoney(r.power),
      weight: r.weight_mg === null ? null : formatGrams(r.weight_mg),
      craft_fee: r.craft_fee === null ? null : formatMoney(r.craft_fee),
    }
  }

  function itemWire(p: ProductRow, specs: SpecRow[], lang: LangCode, gold: bigint | null): GoodsItem {
    const prices = specs.map((x) => specUnitPrice(x, gold))
    return {
      id: Number(p.id),
      area: p.area,
      kind: p.kind,
      category_id: p.category_id === null ? null : Number(p.category_id),
      name: pickText(p.name, lang),
      summary: pickText(p.summary, lang),
      cover: p.cover,
      price_from: formatMoney(prices.length ? prices.reduce((a, b) => (b < a ? b : a)) : 0n),
      stock: specs.reduce((n, x) => n + Number(x.stock), 0),
      power: formatMoney(specs.reduce((m, x) => (x.power > m ? x.power : m), 0n)),
      ships: p.ships === 1n,
      release: p.release_days > 0n ? { days: Number(p.release_days), percent: ppmToPercent(p.release_ppm) } : null,
      tags: tagsOf(p.tags),
    }
  }

  /** The gold price per gram now, as goldPriceNow answers it. */
  const goldNow = () => readGoldPrice(sql, ctx.config.commerce.goldPrice)
  const goldFor = async (area: Area) => (area === 'gold' ? await goldNow() : null)
  const items = (rows: ProductRow[], lang: LangCode, gold: bigint | null) => Promise.all(rows.map(async (p) => itemWire(p, await sql.all(READ.specsOf, p.id), lang, gold)))

  /** An active product of the area with at least one active specification; anything else is unknown. */
  async function activeProduct(area: Area, id: number): Promise<{ p: ProductRow; specs: SpecRow[] }> {
    const p = await sql.get(READ.product, id)
    if (!p || p.area !== area || p.active !== 1n) throw notFound('errors.goodsNotFound')
    const specs = await sql.all(READ.specsOf, id)
    if (specs.length === 0) throw notFound('errors.goodsNotFound')
    return { p, specs }
  }

  return {
    async list(area: Area, lang: LangCode, q: { page: number; pageSize: number; kind?: string; categoryId?: number }): Promise<PagedList<GoodsItem>> {
      let where = 'p.area = ? AND p.active = 1 AND EXISTS (SELECT 1 FROM product_specs x WHERE x.product_id = p.id AND x.active = 1)'
      const args: (string | number)[] = [area]
      if (q.kind !== undefined) {
        where += ' AND p.kind = ?'
        args.push(q.kind)
      }
      if (q.categoryId !== undefined) {
        where += ' AND p.category_id = ?'
        args.push(q.categoryId)
      }
      // The filters asked for pick one of four texts; each is a statement of its own, typed once here.
      const { n } = (await sql.get(statement<{ n: bigint }>(`SELECT count(*) AS n FROM products p WHERE ${where}`), ...args))!
      const rows = await sql.all(statement<ProductRow>(`SELECT p.* FROM products p WHERE ${where} ORDER BY p.sort, p.id LIMIT ? OFFSET ?`), ...args, q.pageSize, (q.page - 1) * q.pageSize)
      const gold = await goldFor(area)
      return { total: Number(n), list: await items(rows, lang, gold) }
    },

    async detail(area: Area, lang: LangCode, id: number): Promise<GoodsDetail> {
      const { p, specs } = await activeProduct(area, id)
      const gold = await goldFor(area)
      let images: string[] = []
      try {
        const v = JSON.parse(p.images) as unknown
        if (Array.isArray(v)) images = v.filter((x): x is string => typeof x === 'string')
      } catch {
        images = []
      }
      return {
        ...itemWire(p, specs, lang, gold),
        body: pickText(p.body, lang),
        images: images.length ? images : [p.cover],
        specs: specs.map((x) => specWire(x, lang, gold)),
        gold_price: gold === null ? null : formatMoney(gold),
      }
    },

    async goldCategories(lang: LangCode): Promise<GoldCategory[]> {
      return (await sql.all(READ.categories)).map((c) => ({ id: Number(c.id), name: pickText(c.name, lang) }))
    },

    async goldPrice(): Promise<GoldPrice> {
      const now = ctx.now()
      const latest = await sql.get(READ.goldNow)
      const price = latest?.price ?? ctx.config.commerce.goldPrice
      const at = latest ? Number(latest.at) : now
      const dayAgo = (await sql.get(READ.goldAt, now - DAY_MS)) ?? (await sql.get(READ.goldSince, now - DAY_MS))
      const points = await sql.all(READ.goldSince, now - DAY_MS)
      const step = Math.max(1, Math.ceil(points.length / GOLD_POINTS))
      const history = points.filter((_, i) => i % step === 0 || i === points.length - 1).map((r) => ({ at: Number(r.at), price: formatMoney(r.price) }))
      return { price: formatMoney(price), at, change_24h: percentChange(dayAgo?.price ?? price, price), history }
    },

    /** The mall's shelves: hot, new, then each category, a few products each (empty shelves left out). */
    async goldGroups(lang: LangCode, perGroup = 4): Promise<GoldGroup[]> {
      const gold = await goldNow()
      const shelved = await items(await sql.all(READ.goldShelves), lang, gold)
      const categories = await this.goldCategories(lang)
      const groups: GoldGroup[] = [
        { key: 'hot', title: translate(lang, 'goods.groupHot'), list: shelved.filter((i) => i.tags.includes('hot')).slice(0, perGroup) },
        { key: 'new', title: translate(lang, 'goods.groupNew'), list: shelved.filter((i) => i.tags.includes('new')).slice(0, perGroup) },
        ...categories.map((c) => ({ key: `category:${c.id}`, title: c.name, list: shelved.filter((i) => i.category_id === c.id).slice(0, perGroup) })),
      ]
      return groups.filter((g) => g.list.length > 0)
    },

    async goldBanners(lang: LangCode): Promise<GoldBanner[]> {
      return Promise.all(
        (await sql.all(READ.mallBanners)).map(async (b) => {
          const texts = await sql.all(READ.bannerTexts, b.id)
          const t = texts.find((x) => x.lang === LOCALE_FILE[lang]) ?? texts.find((x) => x.lang === 'tw') ?? texts[0]
          return { id: Number(b.id), image: b.image, title: t?.title ?? '', link: b.link }
        }),
      )
    },
  }
}
