import type { Ctx } from '../context.ts'
import { SEED_BANNERS, SEED_NOTICES } from './seed/content.ts'

const DAY_MS = 86_400_000

/** Demo mode only: banners and notices in all ten languages, once, into empty tables. */
export async function seedDemo(ctx: Ctx): Promise<void> {
  const { db } = ctx
  const now = ctx.now()
  await db.transaction().execute(async (trx) => {
    const banner = await trx.selectFrom('banners').select('id').limit(1).executeTakeFirst()
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
