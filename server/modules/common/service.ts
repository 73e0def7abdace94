import type { Ctx } from '../../context.ts'
import type { Banner, MainInfo, PublicConfig } from '../../../contract/common.ts'
import { DEFAULT_LANG, LANG_CODES, LANG_NAME, LOCALE_FILE, type LangCode } from '../../../contract/constants.ts'
import type { NoticeService } from '../notice/service.ts'
import { formatMoney } from '../../../contract/money.ts'

const DAY_MS = 86_400_000

export type CommonService = ReturnType<typeof createCommonService>

export interface CommonOptions {
  /** The NADI/USDT market's last trade price (units of 1e-8), null before the first trade. */
  lastPrice: () => bigint | null
}

export function createCommonService(ctx: Ctx, notices: NoticeService, opts: CommonOptions) {
  const { db, config } = ctx
  const nadiPrice = (): Pick<MainInfo, 'nadi_price' | 'nadi_price_source'> => {
    const last = opts.lastPrice()
    return last !== null && last > 0n ? { nadi_price: formatMoney(last), nadi_price_source: 'market' } : { nadi_price: config.nadiReferencePrice, nadi_price_source: 'reference' }
  }
  // The home banners in the order shown: the list the app draws and the one the shell preloads agree.
  // Published and due (server/modules/notice/rules.ts): an unpublished one is gone on the next request.
  const homeBanners = () =>
    db.selectFrom('banners').where('state', '=', 'published').where('published_at', '<=', BigInt(ctx.now())).where('place', '=', 'home').orderBy('sort').orderBy('id')
  return {
    now: () => ctx.now(),

    async bannerList(lang: LangCode): Promise<Banner[]> {
      const rows = await homeBanners().selectAll().execute()
      if (rows.length === 0) return []
      const texts = await db.selectFrom('banner_texts').selectAll().where('banner_id', 'in', rows.map((r) => r.id)).execute()
      return rows.map((r) => {
        const mine = texts.filter((t) => t.banner_id === r.id)
        const t = mine.find((x) => x.lang === LOCALE_FILE[lang]) ?? mine.find((x) => x.lang === 'tw') ?? mine[0]
        return { id: Number(r.id), image: r.image, link: r.link, title: t?.title ?? '' }
      })
    },

    /** The first home banner's image, what the home shell preloads (server/http/shell.ts). */
    async firstHomeBannerImage(): Promise<string | null> {
      const row = await homeBanners().select('image').limit(1).executeTakeFirst()
      return row?.image ?? null
    },

    async mainInfo(): Promise<MainInfo> {
      const now = ctx.now()
      const dayStart = now - (now % DAY_MS)
      const members = db.selectFrom('users').where('is_root', '=', 0n)
      const { n } = await members.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      const { n: today } = await members
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where('created_at', '>=', BigInt(dayStart))
        .executeTakeFirstOrThrow()
      return {
        member_count: Number(n),
        new_members_today: Number(today),
        ...nadiPrice(),
        notice_count: await notices.count(),
        server_time: now,
      }
    },

    /** The NADI price shown on home and used to value wallets: the market's, else the reference. */
    nadiPrice,

    config(): PublicConfig {
      return {
        languages: LANG_CODES.map((code) => ({ code, name: LANG_NAME[code] })),
        default_lang: DEFAULT_LANG,
        chains: config.chains.map((c) => ({ id: c.id, key: c.key, name: c.name, native_symbol: c.nativeSymbol })),
        login_chain_id: config.login.chainId,
        limits: {
          page_size: config.limits.pageSize,
          withdraw_min: config.limits.withdrawMin,
          withdraw_confirmations: config.limits.withdrawConfirmations,
          display_decimals: config.limits.displayDecimals,
          session_idle_ms: config.session.idleMs,
        },
        chain_notice:
          config.chainNotice && config.chainNotice.endsAt > ctx.now()
            ? {
                id: config.chainNotice.id,
                countdown_seconds: config.chainNotice.countdownSeconds,
                starts_at: config.chainNotice.startsAt,
                ends_at: config.chainNotice.endsAt,
              }
            : null,
        demo: config.demo,
        envelope: config.envelope.on,
      }
    },
  }
}
