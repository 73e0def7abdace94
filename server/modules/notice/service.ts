import type { Ctx } from '../../context.ts'
import type { NoticeDetail, NoticeItem, NoticeRead, NoticeUnread } from '../../../contract/notice.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { LOCALE_FILE, type LangCode } from '../../../contract/constants.ts'
import { notFound } from '../../http/errors.ts'

const SUMMARY_CHARS = 120
/** Unread ids answered at most: more than a few pages of the list, bounded for a user who never reads. */
export const UNREAD_IDS = 100

/** A notice missing in the asked language falls back to the default language, then English. */
function pickText<T extends { lang: string }>(texts: T[], lang: LangCode): T | undefined {
  for (const l of [LOCALE_FILE[lang], 'tw', 'en']) {
    const t = texts.find((x) => x.lang === l)
    if (t) return t
  }
  return texts[0]
}

export function summarize(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim()
  const chars = Array.from(flat)
  return chars.length <= SUMMARY_CHARS ? flat : `${chars.slice(0, SUMMARY_CHARS).join('').trimEnd()}…`
}

export type NoticeService = ReturnType<typeof createNoticeService>

export function createNoticeService(ctx: Ctx) {
  const { db } = ctx

  async function texts(ids: bigint[]) {
    if (ids.length === 0) return []
    return db.selectFrom('notice_texts').selectAll().where('notice_id', 'in', ids).execute()
  }

  return {
    async list(lang: LangCode, page: number, pageSize: number): Promise<PagedList<NoticeItem>> {
      const live = db.selectFrom('notices').where('state', '=', 'published').where('published_at', '<=', BigInt(ctx.now()))
      const { n } = await live.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const rows = await live
        .select(['id', 'pinned', 'published_at'])
        .orderBy('pinned', 'desc')
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute()
      const all = await texts(rows.map((r) => r.id))
      return {
        total: Number(n),
        list: rows.map((r) => {
          const t = pickText(all.filter((x) => x.notice_id === r.id), lang)
          return {
            id: Number(r.id),
            title: t?.title ?? '',
            summary: summarize(t?.content ?? ''),
            pinned: r.pinned === 1n,
            published_at: Number(r.published_at),
          }
        }),
      }
    },

    async detail(lang: LangCode, id: number): Promise<NoticeDetail> {
      const r = await db
        .selectFrom('notices')
        .select(['id', 'pinned', 'published_at'])
        .where('id', '=', BigInt(id))
        .where('state', '=', 'published')
        .where('published_at', '<=', BigInt(ctx.now()))
        .executeTakeFirst()
      if (!r) throw notFound('errors.noticeNotFound')
      const t = pickText(await texts([r.id]), lang)
      return { id: Number(r.id), title: t?.title ?? '', content: t?.content ?? '', pinned: r.pinned === 1n, published_at: Number(r.published_at) }
    },

    /**
     * The caller's unread live notices: how many, and the ids of the newest UNREAD_IDS of them (what a
     * list page marks). Per user, so never in the public list's cache.
     */
    async unread(userId: number): Promise<NoticeUnread> {
      const unread = db
        .selectFrom('notices')
        .where('state', '=', 'published')
        .where('published_at', '<=', BigInt(ctx.now()))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('notice_reads as r').select('r.notice_id').whereRef('r.notice_id', '=', 'notices.id').where('r.user_id', '=', BigInt(userId)))),
        )
      const { n } = await unread.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const rows = await unread.select('id').orderBy('published_at', 'desc').orderBy('id', 'desc').limit(UNREAD_IDS).execute()
      return { count: Number(n), ids: rows.map((r) => Number(r.id)) }
    },

    /**
     * Marks a live notice read for the caller. Idempotent by nature as well as by the request's key: a
     * second mark (a replayed outbox item, another phone) changes nothing and answers the same.
     */
    async markRead(userId: number, id: number): Promise<NoticeRead> {
      const live = await db
        .selectFrom('notices')
        .select('id')
        .where('id', '=', BigInt(id))
        .where('state', '=', 'published')
        .where('published_at', '<=', BigInt(ctx.now()))
        .executeTakeFirst()
      if (!live) throw notFound('errors.noticeNotFound')
      await db
        .insertInto('notice_reads')
        .values({ user_id: BigInt(userId), notice_id: BigInt(id), read_at: BigInt(ctx.now()) })
        .onConflict((oc) => oc.doNothing())
        .execute()
      return { id, read: true }
    },

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where('state', '=', 'published')
        .where('published_at', '<=', BigInt(ctx.now()))
        .executeTakeFirstOrThrow()
      return Number(n)
    },
  }
}
