import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { PAGE_SIZE_DEFAULT, type LangCode } from '../../../contract/constants.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import type { Area, GoldBanner, GoldCategory, GoldGroup, GoldPrice, GoodsDetail, GoodsItem, MachineKind } from '../../../contract/goods.ts'
import { get } from '../../api/client.ts'

// The three catalogs (DESIGN §10): devices (`machine`, /shop), gold (/mall) and cars (/cars). Every
// key starts with GOODS_ROOT, which the saved cache keeps (src/data/persister.ts), so the shops open
// offline with what was last seen; texts come in the request's language, so the language is in the key.

export const GOODS_ROOT = 'goods'

/** How long catalog data counts as fresh, named once per kind of data. */
export const STALE = {
  /** Products, their texts and stock change seldom. */
  list: 60_000,
  detail: 30_000,
  categories: 10 * 60_000,
  banners: 5 * 60_000,
  /** Gold prices move with the gold price (the demo's moves every 10 s). */
  gold: 10_000,
} as const

/** While the mall is open its gold price refreshes this often. */
export const GOLD_PRICE_POLL_MS = 15_000

export const PAGE_SIZE = PAGE_SIZE_DEFAULT

/** One catalog list: devices of one kind, gold of one category, or all of an area. */
export interface ListFilter {
  kind?: MachineKind | undefined
  categoryId?: number | undefined
}

const staleOf = (area: Area, base: number) => (area === 'gold' ? STALE.gold : base)

export const goodsQueries = {
  /** Everything of an area starts with this: one invalidation refreshes its lists and details (stock). */
  area: (area: Area) => [GOODS_ROOT, area] as const,
  list: (area: Area, lang: LangCode, filter: ListFilter = {}) =>
    infiniteQueryOptions({
      queryKey: [GOODS_ROOT, area, 'list', lang, filter.kind ?? filter.categoryId ?? 'all'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) =>
        get<PagedList<GoodsItem>>(`${area}/goodsList`, { kind: filter.kind, category_id: filter.categoryId, page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: staleOf(area, STALE.list),
    }),
  detail: (area: Area, id: number, lang: LangCode) =>
    queryOptions({
      queryKey: [GOODS_ROOT, area, 'detail', id, lang],
      queryFn: ({ signal }) => get<GoodsDetail>(`${area}/goodsDetail`, { id }, signal),
      staleTime: staleOf(area, STALE.detail),
    }),
  goldCategories: (lang: LangCode) =>
    queryOptions({
      queryKey: [GOODS_ROOT, 'gold', 'categories', lang],
      queryFn: ({ signal }) => get<GoldCategory[]>('gold/categoryList', {}, signal),
      staleTime: STALE.categories,
    }),
  goldPrice: () =>
    queryOptions({
      queryKey: [GOODS_ROOT, 'gold', 'price'],
      queryFn: ({ signal }) => get<GoldPrice>('gold/price', {}, signal),
      staleTime: STALE.gold,
      refetchInterval: GOLD_PRICE_POLL_MS,
    }),
  goldGroups: (lang: LangCode) =>
    queryOptions({
      queryKey: [GOODS_ROOT, 'gold', 'groups', lang],
      queryFn: ({ signal }) => get<GoldGroup[]>('gold/group', {}, signal),
      staleTime: STALE.gold,
    }),
  goldBanners: (lang: LangCode) =>
    queryOptions({
      queryKey: [GOODS_ROOT, 'gold', 'banners', lang],
      queryFn: ({ signal }) => get<GoldBanner[]>('gold/banner', {}, signal),
      staleTime: STALE.banners,
    }),
}
