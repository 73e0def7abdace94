// Loads a catalog file (server/modules/goods/catalogFile.ts) into the database in one transaction:
// the operator's `catalog load` and the demo seed. Slugs are the keys, so a file loaded twice changes
// nothing the second time; what a file does not name is left as it is.
import type { Ctx } from '../../context.ts'
import { parseMoney } from '../../../contract/money.ts'
import { LOCALE_FILE, LANG_CODES } from '../../../contract/constants.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { catalogFileCheck, type CatalogFile } from './catalogFile.ts'
import { parseGrams, percentToPpm } from './rules.ts'
import { catalogChanged } from './service.ts'

export class CatalogInvalid extends Error {
  override name = 'CatalogInvalid'
}

export interface LoadSummary {
  categories: number
  products: { added: number; updated: number }
  specs: { added: number; updated: number }
  mallBanners: number
}

/** Checks a parsed file against the schema and the rules a schema cannot say; throws CatalogInvalid naming the place. */
export function checkCatalog(json: unknown): CatalogFile {
  if (!catalogFileCheck.Check(json)) {
    const errs = [...catalogFileCheck.Errors(json)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`)
    throw new CatalogInvalid(`catalog file does not match the schema:\n  ${errs.join('\n  ')}`)
  }
  const file = json as CatalogFile
  const slugs = new Set<string>()
  for (const [i, p] of file.products.entries()) {
    const at = `products[${i}] (${p.slug})`
    if (slugs.has(p.slug)) throw new CatalogInvalid(`${at}: slug used twice`)
    slugs.add(p.slug)
    if (p.area === 'machine' && !p.kind) throw new CatalogInvalid(`${at}: a device needs a kind (tablet, straight, foldable)`)
    if (p.area !== 'machine' && p.kind) throw new CatalogInvalid(`${at}: only devices have a kind`)
    if (p.area === 'gold' && !p.category) throw new CatalogInvalid(`${at}: gold needs a category`)
    if (p.release && percentToPpm(p.release.percent) === 0n) throw new CatalogInvalid(`${at}: a release of 0 % is no release; leave it out`)
    if (p.release && percentToPpm(p.release.percent) > 10_000_000n) throw new CatalogInvalid(`${at}: a release is at most 1000 %`)
    const specSlugs = new Set<string>()
    for (const [j, s] of p.specs.entries()) {
      const sat = `${at}.specs[${j}] (${s.slug})`
      if (specSlugs.has(s.slug)) throw new CatalogInvalid(`${sat}: slug used twice`)
      specSlugs.add(s.slug)
      if (p.area === 'gold') {
        if (s.price !== undefined || s.weight === undefined || s.craft_fee === undefined) throw new CatalogInvalid(`${sat}: gold has weight and craft_fee, no price`)
        if ((parseGrams(s.weight) ?? 0n) <= 0n) throw new CatalogInvalid(`${sat}: weight must be above 0`)
      } else {
        if (s.price === undefined || s.weight !== undefined || s.craft_fee !== undefined) throw new CatalogInvalid(`${sat}: a ${p.area} has a price, no weight or craft_fee`)
        if ((parseMoney(s.price) ?? 0n) <= 0n) throw new CatalogInvalid(`${sat}: price must be above 0`)
      }
      if (s.power !== undefined && p.area !== 'machine') throw new CatalogInvalid(`${sat}: only devices grant power`)
    }
  }
  return file
}

const texts = (t: Record<string, string>) => JSON.stringify(Object.fromEntries(LANG_CODES.map((l) => [l, t[l]])))

type Id = { id: bigint }
type ProductValues = [categoryId: bigint | null, kind: string | null, name: string, summary: string, body: string, cover: string, images: string, ships: number, releaseDays: number, releasePpm: bigint, tags: string, sort: number, active: number]
type SpecValues = [name: string, price: bigint | null, weightMg: bigint | null, craftFee: bigint | null, power: bigint | null, stock: number, sort: number, active: number]

const S = statements({
  category: statement<never, [area: string, slug: string, name: string, sort: number, active: number]>(
    `INSERT INTO product_categories (area, slug, name, sort, active) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, sort = excluded.sort, active = excluded.active`,
  ),
  goldCategory: statement<Id, [slug: string]>("SELECT id FROM product_categories WHERE slug = ? AND area = 'gold'"),
  product: statement<{ id: bigint; area: string }, [slug: string]>('SELECT id, area FROM products WHERE slug = ?'),
  updateProduct: statement<never, [...ProductValues, id: bigint]>(
    `UPDATE products SET category_id = ?, kind = ?, name = ?, summary = ?, body = ?, cover = ?, images = ?, ships = ?,
       release_days = ?, release_ppm = ?, tags = ?, sort = ?, active = ? WHERE id = ?`,
  ),
  insertProduct: statement<Id, [...ProductValues, area: string, slug: string, createdAt: number]>(
    `INSERT INTO products (category_id, kind, name, summary, body, cover, images, ships, release_days, release_ppm, tags, sort, active, area, slug, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  ),
  spec: statement<Id, [productId: bigint, slug: string]>('SELECT id FROM product_specs WHERE product_id = ? AND slug = ?'),
  updateSpec: statement<never, [...SpecValues, id: bigint]>('UPDATE product_specs SET name = ?, price = ?, weight_mg = ?, craft_fee = ?, power = ?, stock = ?, sort = ?, active = ? WHERE id = ?'),
  insertSpec: statement<never, [...SpecValues, productId: bigint, slug: string]>(
    'INSERT INTO product_specs (name, price, weight_mg, craft_fee, power, stock, sort, active, product_id, slug) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  dropMallBannerTexts: statement<never, []>("DELETE FROM banner_texts WHERE banner_id IN (SELECT id FROM banners WHERE place = 'mall')"),
  dropMallBanners: statement<never, []>("DELETE FROM banners WHERE place = 'mall'"),
  goldProduct: statement<Id, [slug: string]>("SELECT id FROM products WHERE slug = ? AND area = 'gold'"),
  insertMallBanner: statement<Id, [image: string, link: string | null, sort: number]>(
    "INSERT INTO banners (image, link, sort, state, place) VALUES (?, ?, ?, 'published', 'mall') RETURNING id",
  ),
  bannerText: statement<never, [bannerId: bigint, lang: string, title: string]>('INSERT INTO banner_texts (banner_id, lang, title) VALUES (?, ?, ?)'),
})

/**
 * Loads a checked catalog in the caller's transaction: a refusal (CatalogInvalid) anywhere undoes the
 * whole file. `ctx.sql` only names the database whose kept catalog answers go stale.
 */
export async function loadCatalog(ctx: Pick<Ctx, 'sql'>, tx: Tx, file: CatalogFile, now: number): Promise<LoadSummary> {
  const sum: LoadSummary = { categories: 0, products: { added: 0, updated: 0 }, specs: { added: 0, updated: 0 }, mallBanners: 0 }
  for (const c of file.categories ?? []) {
    await tx.run(S.category, c.area, c.slug, texts(c.name), c.sort ?? 0, c.active === false ? 0 : 1)
    sum.categories++
  }
  const categoryId = async (slug: string) => {
    const r = await tx.get(S.goldCategory, slug)
    if (!r) throw new CatalogInvalid(`category ${slug} is neither in the file nor in the database`)
    return r.id
  }
  for (const p of file.products) {
    const existing = await tx.get(S.product, p.slug)
    if (existing && existing.area !== p.area) throw new CatalogInvalid(`product ${p.slug} is a ${existing.area}, not a ${p.area}`)
    const values: ProductValues = [
      p.category ? await categoryId(p.category) : null,
      p.kind ?? null,
      texts(p.name),
      texts(p.summary),
      texts(p.body),
      p.cover,
      JSON.stringify(p.images ?? []),
      p.ships ? 1 : 0,
      p.release?.days ?? 0,
      p.release ? percentToPpm(p.release.percent) : 0n,
      JSON.stringify(p.tags ?? []),
      p.sort ?? 0,
      p.active === false ? 0 : 1,
    ]
    let productId: bigint
    if (existing) {
      await tx.run(S.updateProduct, ...values, existing.id)
      productId = existing.id
      sum.products.updated++
    } else {
      productId = (await tx.get(S.insertProduct, ...values, p.area, p.slug, now))!.id
      sum.products.added++
    }
    for (const s of p.specs) {
      const v: SpecValues = [
        texts(s.name),
        s.price === undefined ? null : parseMoney(s.price),
        s.weight === undefined ? null : parseGrams(s.weight),
        s.craft_fee === undefined ? null : parseMoney(s.craft_fee),
        s.power === undefined ? 0n : parseMoney(s.power),
        s.stock,
        s.sort ?? 0,
        s.active === false ? 0 : 1,
      ]
      const had = await tx.get(S.spec, productId, s.slug)
      if (had) {
        await tx.run(S.updateSpec, ...v, had.id)
        sum.specs.updated++
      } else {
        await tx.run(S.insertSpec, ...v, productId, s.slug)
        sum.specs.added++
      }
    }
  }
  if (file.mall_banners) {
    // The mall's banners are replaced as a set: the file is the whole list.
    await tx.run(S.dropMallBannerTexts)
    await tx.run(S.dropMallBanners)
    for (const [i, b] of file.mall_banners.entries()) {
      let link: string | null = null
      if (b.product) {
        const r = await tx.get(S.goldProduct, b.product)
        if (!r) throw new CatalogInvalid(`mall_banners[${i}]: no gold product ${b.product}`)
        link = `/mall/detail/${r.id}`
      }
      const { id } = (await tx.get(S.insertMallBanner, b.image, link, b.sort ?? i))!
      for (const l of LANG_CODES) await tx.run(S.bannerText, id, LOCALE_FILE[l], b.title[l]!)
      sum.mallBanners++
    }
  }
  catalogChanged(ctx.sql)
  return sum
}
