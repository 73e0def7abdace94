import fs from 'node:fs'
import path from 'node:path'
import type { Ctx } from '../context.ts'
import * as ledger from '../ledger/index.ts'
import { checkCatalog, loadCatalog } from '../modules/goods/load.ts'
import { seedGoldHistory } from '../modules/goods/goldWalk.ts'
import { atomically } from './index.ts'
import { SEED_BANNERS, SEED_NOTICES } from './seed/content.ts'

const CATALOG = path.resolve(import.meta.dirname, 'seed/catalog.json')

const DAY_MS = 86_400_000

/** Demo mode only: banners and notices in all ten languages, once, into empty tables. */
export async function seedDemo(ctx: Ctx): Promise<void> {
  const { db } = ctx
  const now = ctx.now()
  await db.transaction().execute(async (trx) => {
    const banner = await trx.selectFrom('banners').select('id').where('place', '=', 'home').limit(1).executeTakeFirst()
    if (!banner) {
      for (const b of SEED_BANNERS) {
        const { id } = await trx.insertInto('banners').values({ image: b.image, link: b.link, sort: BigInt(b.sort) }).returning('id').executeTakeFirstOrThrow()
        await trx.insertInto('banner_texts').values(Object.entries(b.title).map(([lang, title]) => ({ banner_id: id, lang, title }))).execute()
      }
    }
    const notice = await trx.selectFrom('notices').select('id').limit(1).executeTakeFirst()
    if (!notice) {
      for (const n of SEED_NOTICES) {
        const { id } = await trx
          .insertInto('notices')
          .values({ pinned: n.pinned ? 1n : 0n, published_at: BigInt(now - n.daysAgo * DAY_MS - 3_600_000) })
          .returning('id')
          .executeTakeFirstOrThrow()
        await trx
          .insertInto('notice_texts')
          .values(Object.keys(n.title).map((lang) => ({ notice_id: id, lang, title: n.title[lang as keyof typeof n.title], content: n.content[lang as keyof typeof n.content] })))
          .execute()
      }
    }
  })
}

/**
 * Demo mode only: the demo catalog (devices, gold, cars in ten languages) into an empty catalog, a day
 * of gold prices, and the release account funded from chain custody (the dev chains' hot wallet
 * holds the tokens) so paid orders' releases arrive. Production loads catalogs with `catalog load`.
 */
export async function seedDemoCatalog(ctx: Ctx): Promise<void> {
  const now = ctx.now()
  if (!ctx.sqlite.prepare('SELECT 1 FROM products LIMIT 1').get()) {
    const file = checkCatalog(JSON.parse(fs.readFileSync(CATALOG, 'utf8')))
    await atomically(ctx, () => loadCatalog(ctx.sqlite, file, now))
  }
  await seedGoldHistory(ctx)
  // The platform accounts that pay releases, mining and savings interest, funded once (DESIGN §11).
  const amount = ctx.config.commerce.demoReleaseFund
  if (amount > 0n) {
    await atomically(ctx, () => {
      for (const [account, name] of [
        [ledger.RELEASES, 'releases'],
        [ledger.MINING, 'mining'],
        [ledger.SAVINGS, 'savings'],
      ] as const) {
        const ref = `demo:${name}:NADI`
        if (ledger.findPosting(ctx.sqlite, ref)) continue
        ledger.transfer(ctx.sqlite, { ref, reason: 'release_fund', userId: null, from: ledger.custody('nadi'), to: account, asset: 'NADI', amount, at: now })
      }
    })
  }
}
