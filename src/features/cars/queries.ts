import type { LangCode } from '../../../contract/constants.ts'
import { goodsQueries } from '../goods/queries.ts'

// The car shop's catalog (car/goodsList, car/goodsDetail): the shared catalog queries of the `car`
// area, so the cars share the saved cache, stale times and invalidation of the other shops.

export const carQueries = {
  /** Every car on sale, 10 at a time. */
  list: (lang: LangCode) => goodsQueries.list('car', lang),
  /** One car with its versions (specifications), price, stock and release terms. */
  detail: (id: number, lang: LangCode) => goodsQueries.detail('car', id, lang),
}
