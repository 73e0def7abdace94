// The savings product file operators load with `tsx server/cli.ts pledge load <file.json>`; the demo
// products are one too (./demoProducts.json). Slugs are the keys: loading a file again updates what it
// names (terms apply to new pledges only; a pledge keeps the rate it was made at) and adds what is
// new; nothing is deleted (an operator sets `active: false`).
import { Type, type Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { LANG_CODES } from '../../../contract/constants.ts'
import { Money } from '../../../contract/envelope.ts'
import { formatMoney, parseMoney } from '../../../contract/money.ts'
import { percentToPpm } from '../../../contract/pledgeRules.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import { INT64_MAX } from '../../ledger/index.ts'

const Names = Type.Object(Object.fromEntries(LANG_CODES.map((l) => [l, Type.String({ minLength: 1, maxLength: 60 })])) as Record<(typeof LANG_CODES)[number], ReturnType<typeof Type.String>>, {
  additionalProperties: false,
})
/** A percent with up to 4 decimals, e.g. "0.15" (per day) or "5" (per 30 days). */
const Percent = Type.String({ pattern: '^(0|[1-9][0-9]{0,2})(\\.[0-9]{1,4})?$' })

export const PledgeProductEntry = Type.Object(
  {
    slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }),
    name: Names,
    day: Type.Integer({ minimum: 1, maximum: 3650 }),
    min_pledge: Money,
    day_rate: Percent,
    month_rate: Percent,
    total_pledge: Money,
    power_pool: Type.Optional(Money),
    sort: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export const PledgeProductFile = Type.Object({ products: Type.Array(PledgeProductEntry, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false })
export type PledgeProductFile = Static<typeof PledgeProductFile>
const fileCheck = Compile(PledgeProductFile)

export class PledgeFileInvalid extends Error {
  override name = 'PledgeFileInvalid'
}

/** Checks a parsed file against the schema and the rules a schema cannot say; throws naming the place. */
export function checkPledgeFile(json: unknown): PledgeProductFile {
  if (!fileCheck.Check(json)) {
    const errs = [...fileCheck.Errors(json)].slice(0, 5).map((e) => `${e.instancePath || '/'}: ${e.message}`)
    throw new PledgeFileInvalid(`pledge file does not match the schema:\n  ${errs.join('\n  ')}`)
  }
  const file = json as PledgeProductFile
  const slugs = new Set<string>()
  for (const [i, p] of file.products.entries()) {
    const at = `products[${i}] (${p.slug})`
    if (slugs.has(p.slug)) throw new PledgeFileInvalid(`${at}: slug used twice`)
    slugs.add(p.slug)
    if (percentToPpm(p.day_rate) === null || percentToPpm(p.month_rate) === null) throw new PledgeFileInvalid(`${at}: a rate is at most 100 %`)
    if (percentToPpm(p.day_rate) === 0n && (percentToPpm(p.month_rate) === 0n || p.day < 30)) throw new PledgeFileInvalid(`${at}: no mode pays (a day rate, or a month rate on a term of 30 days or more)`)
    const min = parseMoney(p.min_pledge) ?? 0n
    const total = parseMoney(p.total_pledge) ?? 0n
    if (min <= 0n) throw new PledgeFileInvalid(`${at}: min_pledge must be above 0`)
    if (total < min) throw new PledgeFileInvalid(`${at}: total_pledge is below min_pledge`)
    // Amounts are stored as 64-bit integers of 1e-8 units: ~92 billion NADI at most.
    if (total > INT64_MAX || (parseMoney(p.power_pool ?? '0') ?? 0n) > INT64_MAX) throw new PledgeFileInvalid(`${at}: total_pledge and power_pool are at most ${formatMoney(INT64_MAX)}`)
  }
  return file
}

export interface PledgeLoadSummary {
  added: number
  updated: number
}

type ProductRow = { slug: string; name: string; day: number; min: bigint | null; dayRate: bigint | null; monthRate: bigint | null; total: bigint | null; pool: bigint | null; sort: number; active: number; now: number }

const LOAD = statements({
  find: statement<{ id: bigint; pledged: bigint }, [slug: string]>('SELECT id, pledged FROM pledge_products WHERE slug = ?'),
  insert: statement<never, [ProductRow]>(
    `INSERT INTO pledge_products (slug, name, day, min_pledge, day_rate_ppm, month_rate_ppm, total_pledge, power_pool, sort, active, created_at, updated_at)
     VALUES (@slug, @name, @day, @min, @dayRate, @monthRate, @total, @pool, @sort, @active, @now, @now)`,
  ),
  update: statement<never, [ProductRow]>(
    `UPDATE pledge_products SET name = @name, day = @day, min_pledge = @min, day_rate_ppm = @dayRate, month_rate_ppm = @monthRate,
       total_pledge = @total, power_pool = @pool, sort = @sort, active = @active, updated_at = @now WHERE slug = @slug`,
  ),
})

/**
 * Loads a checked file in the caller's transaction, tx: a refusal anywhere undoes the whole file. A
 * capacity below what is pledged now is refused (the pledges already made stand), naming the product.
 */
export async function loadPledgeProducts(tx: Tx, file: PledgeProductFile, now: number): Promise<PledgeLoadSummary> {
  const sum = { added: 0, updated: 0 }
  for (const p of file.products) {
    const row: ProductRow = {
      slug: p.slug,
      name: JSON.stringify(Object.fromEntries(LANG_CODES.map((l) => [l, p.name[l]]))),
      day: p.day,
      min: parseMoney(p.min_pledge),
      dayRate: percentToPpm(p.day_rate),
      monthRate: percentToPpm(p.month_rate),
      total: parseMoney(p.total_pledge),
      pool: parseMoney(p.power_pool ?? '0'),
      sort: p.sort ?? 0,
      active: p.active === false ? 0 : 1,
      now,
    }
    const old = await tx.get(LOAD.find, p.slug)
    if (!old) {
      await tx.run(LOAD.insert, row)
      sum.added++
      continue
    }
    if ((row.total as bigint) < old.pledged) throw new PledgeFileInvalid(`${p.slug}: total_pledge ${p.total_pledge} is below what is pledged now`)
    await tx.run(LOAD.update, row)
    sum.updated++
  }
  return sum
}
