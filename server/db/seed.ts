import fs from 'node:fs'
import path from 'node:path'
import type { Ctx } from '../context.ts'
import * as ledger from '../ledger/index.ts'
import { checkCatalog, loadCatalog } from '../modules/goods/load.ts'
import { seedGoldHistory } from '../modules/goods/goldWalk.ts'
import { statement, statements } from './query/types.ts'
import { SEED_BANNERS, SEED_NOTICES } from './seed/content.ts'
import { checkBannerFile, checkNoticeFile, loadBanners, loadNotices } from '../modules/notice/contentFile.ts'
import { LANG_CODES, LOCALE_FILE } from '../../contract/constants.ts'

const CATALOG = path.resolve(import.meta.dirname, 'seed/catalog.json')

const DAY_MS = 86_400_000

/** Whether a table the demo fills is still empty: each seed adds only to an empty one. */
const ANY = statements({
  homeBanner: statement<{ one: bigint }, []>("SELECT 1 AS one FROM banners WHERE place = 'home' LIMIT 1"),
  notice: statement<{ one: bigint }, []>('SELECT 1 AS one FROM notices LIMIT 1'),
  product: statement<{ one: bigint }, []>('SELECT 1 AS one FROM products LIMIT 1'),
})

/** The seed's texts (keyed by locale file) as a content file's (keyed by language code). */
const asFileTexts = (t: Record<string, string>) => Object.fromEntries(LANG_CODES.map((l) => [l, t[LOCALE_FILE[l]]]))

/**
 * Demo mode only: banners and notices in all ten languages, once, into empty tables, through the
 * loader and its checks that `notice load` and `banner load` use (server/modules/notice/contentFile.ts).
 */
export async function seedDemo(ctx: Ctx): Promise<void> {
  const now = ctx.now()
  await ctx.sql.transaction(async (tx) => {
    if (!(await tx.get(ANY.homeBanner))) {
      const file = { banners: SEED_BANNERS.map((b) => ({ key: b.key, image: b.image, link: b.link, sort: b.sort, title: asFileTexts(b.title) })) }
      await loadBanners(tx, checkBannerFile(file, now), now)
    }
    if (!(await tx.get(ANY.notice))) {
      const file = {
        notices: SEED_NOTICES.map((n) => ({
          key: n.key,
          title: asFileTexts(n.title),
          content: asFileTexts(n.content),
          pinned: n.pinned,
          state: 'published',
          publish_at: new Date(now - n.daysAgo * DAY_MS - 3_600_000).toISOString(),
        })),
      }
      await loadNotices(tx, checkNoticeFile(file, now), now)
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
  if (!(await ctx.sql.get(ANY.product))) {
    const file = checkCatalog(JSON.parse(fs.readFileSync(CATALOG, 'utf8')))
    await ctx.sql.transaction((tx) => loadCatalog(ctx, tx, file, now))
  }
  await seedGoldHistory(ctx)
  // The platform accounts that pay releases, mining and savings interest, funded once (DESIGN §11).
  const amount = ctx.config.commerce.demoReleaseFund
  if (amount > 0n) {
    await ctx.sql.transaction(async (tx) => {
      for (const [account, name] of [
        [ledger.RELEASES, 'releases'],
        [ledger.MINING, 'mining'],
        [ledger.SAVINGS, 'savings'],
      ] as const) {
        const ref = `demo:${name}:NADI`
        if (await ledger.findPosting(tx, ref)) continue
        await ledger.transfer(tx, { ref, reason: 'release_fund', userId: null, from: ledger.custody('nadi'), to: account, asset: 'NADI', amount, at: now })
      }
    })
  }
}
