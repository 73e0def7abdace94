import type { Ctx } from '../../context.ts'
import type { NoticeDetail, NoticeItem } from '../../../contract/notice.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { LOCALE_FILE, type LangCode } from '../../../contract/constants.ts'
import { notFound } from '../../http/errors.ts'

const SUMMARY_CHARS = 120

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
      const live = db.selectFrom('notices').where('active', '=', 1n).where('published_at', '<=', BigInt(ctx.now()))
      const [{ n }] = (await live.select((eb) => eb.fn.countAll<bigint>().as('n')).execute()) as [{ n: bigint }]
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
        .where('active', '=', 1n)
        .where('published_at', '<=', BigInt(ctx.now()))
        .executeTakeFirst()
      if (!r) throw notFound('errors.noticeNotFound')
      const t = pickText(await texts([r.id]), lang)
      return { id: Number(r.id), title: t?.title ?? '', content: t?.content ?? '', pinned: r.pinned === 1n, published_at: Number(r.published_at) }
    },

    async count(): Promise<number> {
      const { n } = await db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where('active', '=', 1n)
        .where('published_at', '<=', BigInt(ctx.now()))
        .executeTakeFirstOrThrow()
      return Number(n)
    },
  }
}
