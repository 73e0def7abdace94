import { Link } from 'wouter'
import type { GoodsItem } from '../../../contract/goods.ts'
import { useT } from '../../i18n/index.ts'
import { Price } from './Price.tsx'
import { hasPower, showMoney, soldOut } from './price.ts'

/** The tags a product may carry that have words (others are for shelves only). */
const TAG_KEYS: Record<string, string> = { hot: 'goods.tagHot', new: 'goods.tagNew' }

/** The lines a product card or row shows under its name: power (devices) and the release plan (gold, cars). */
export function GoodsFacts({ item }: { item: Pick<GoodsItem, 'power' | 'release'> }) {
  const t = useT()
  return (
    <>
      {hasPower(item.power) && <span className="small goods-fact">{t('goods.powerUpTo', { power: showMoney(item.power, 'power') })}</span>}
      {item.release && <span className="small goods-fact release">{t('goods.release', { percent: item.release.percent, days: item.release.days })}</span>}
    </>
  )
}

/** One product in a list or on a shelf: picture, name, summary, lowest price; the whole card opens its detail. */
export function GoodsCard({ item, href }: { item: GoodsItem; href: string }) {
  const t = useT()
  const out = soldOut(item)
  return (
    <Link href={href} className={`goods-card ${out ? 'sold-out' : ''}`} data-testid="goods-card" data-id={item.id}>
      <span className="goods-cover">
        <img src={item.cover} alt="" width={300} height={300} loading="lazy" decoding="async" />
        {out ? (
          <span className="badge muted-badge goods-badge">{t('goods.soldOut')}</span>
        ) : (
          item.tags
            .filter((tag) => TAG_KEYS[tag])
            .slice(0, 1)
            .map((tag) => (
              <span key={tag} className="badge gold goods-badge">
                {t(TAG_KEYS[tag]!)}
              </span>
            ))
        )}
      </span>
      <span className="goods-body">
        <strong className="clamp-2 goods-name">{item.name}</strong>
        {item.summary && <span className="muted small clamp-2">{item.summary}</span>}
        <GoodsFacts item={item} />
        <Price value={item.price_from} from className="goods-price" />
      </span>
    </Link>
  )
}

/** Products in two columns. */
export function GoodsGrid({ items, hrefOf, testId }: { items: GoodsItem[]; hrefOf: (item: GoodsItem) => string; testId?: string }) {
  return (
    <div className="goods-grid" data-testid={testId}>
      {items.map((item) => (
        <GoodsCard key={item.id} item={item} href={hrefOf(item)} />
      ))}
    </div>
  )
}
