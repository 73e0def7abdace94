import { useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { BannerCarousel } from '../home/BannerCarousel.tsx'
import { GoodsGrid } from '../goods/GoodsCard.tsx'
import { GoodsList } from '../goods/GoodsList.tsx'
import { goodsQueries } from '../goods/queries.ts'
import { DETAIL_PATH, ORDER_LIST_PATH } from '../preOrder/confirm.ts'
import { GoldPriceCard } from './GoldPriceCard.tsx'
import { categoryOfShelf } from './shelves.ts'

const detailOf = (item: { id: number }) => DETAIL_PATH.gold(item.id)

/** The shelves: hot, new, then each category, each leading to its whole category. */
function Shelves({ onCategory }: { onCategory: (id: number) => void }) {
  useSignals()
  const t = useT()
  const q = useQuery(goodsQueries.goldGroups(lang.value))
  if (q.isPending) return <Pending query={q} lines={6} />
  if (q.isError && !q.data) return <LoadFailed onRetry={() => q.refetch()} />
  if (!q.data.length) return <Empty text={t('goods.empty')} />
  return (
    <>
      {q.data.map((g) => {
        const category = categoryOfShelf(g.key)
        return (
          <section key={g.key} className="shelf" data-testid="mall-shelf" data-key={g.key}>
            <div className="row between shelf-head">
              <h2>{g.title}</h2>
              {category !== null && (
                <button type="button" className="link-btn small" onClick={() => onCategory(category)}>
                  {t('mall.seeAll')}
                </button>
              )}
            </div>
            <GoodsGrid items={g.list} hrefOf={detailOf} />
          </section>
        )
      })}
    </>
  )
}

function CategoryList({ categoryId }: { categoryId: number }) {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(goodsQueries.list('gold', lang.value, { categoryId }))
  return <GoodsList q={q} hrefOf={detailOf} empty={t('goods.empty')} testId={`mall-list-${categoryId}`} />
}

/** /mall: the gold mall (SPEC §2): banners, the gold price per gram, category tabs, the shelves. */
export default function MallScreen() {
  useSignals()
  const t = useT()
  const [category, setCategory] = useState<number | null>(null)
  const banners = useQuery(goodsQueries.goldBanners(lang.value))
  const price = useQuery(goodsQueries.goldPrice())
  const categories = useQuery(goodsQueries.goldCategories(lang.value))

  return (
    <main className="page mall">
      <TopBar title={t('mall.title')} back records={{ href: ORDER_LIST_PATH.gold, label: t('mall.orders') }} />
      {price.data && <Freshness updatedAt={price.dataUpdatedAt} />}
      <BannerCarousel banners={banners.data} loading={banners.isPending} />
      <GoldPriceCard price={price.data} />
      <div className="chips filter-row" role="tablist" aria-label={t('mall.categories')}>
        <button type="button" role="tab" aria-selected={category === null} className={`chip ${category === null ? 'gold' : ''}`} onClick={() => setCategory(null)} data-testid="mall-tab-featured">
          {t('mall.featured')}
        </button>
        {categories.data?.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={category === c.id}
            className={`chip ${category === c.id ? 'gold' : ''}`}
            onClick={() => setCategory(c.id)}
            data-testid={`mall-tab-${c.id}`}
          >
            {c.name}
          </button>
        ))}
      </div>
      {category === null ? <Shelves onCategory={setCategory} /> : <CategoryList categoryId={category} />}
    </main>
  )
}
