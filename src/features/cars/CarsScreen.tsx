import { useEffect, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link, useLocation } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { GoodsItem } from '../../../contract/goods.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Sheet } from '../../ui/Sheet.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { Gallery } from '../goods/Gallery.tsx'
import { GoodsFacts } from '../goods/GoodsCard.tsx'
import { Price } from '../goods/Price.tsx'
import { SpecPicker } from '../goods/SpecPicker.tsx'
import { clampQuantity, defaultSpec, soldOut } from '../goods/price.ts'
import { confirmHref, ORDER_LIST_PATH } from '../preOrder/confirm.ts'
import { carQueries } from './queries.ts'

/** The car application for one car (src/features/cars/Apply*, another screen of this area). */
const applyHref = (id: number) => `/apply?goods=${id}`

/**
 * Buying a car: its pictures, versions and quantity in a sheet over the list, then on to the order
 * confirm screen all shops share (/shop/orderConfirm?area=car…). Cars are not shipped, so that screen
 * asks for no address; a paid car returns its value as NADI day by day (/car/carRelease).
 */
function BuyCarSheet({ car, onClose }: { car: GoodsItem; onClose: () => void }) {
  useSignals()
  const t = useT()
  const [, navigate] = useLocation()
  const q = useQuery(carQueries.detail(car.id, lang.value))
  const d = q.data
  const [specId, setSpecId] = useState<number | undefined>(undefined)
  const [quantity, setQuantity] = useState(1)
  const spec = d?.specs.find((s) => s.id === specId)
  useEffect(() => {
    if (d && !d.specs.some((s) => s.id === specId)) setSpecId(defaultSpec(d.specs)?.id)
  }, [d, specId])
  const pickSpec = (next: number) => {
    setSpecId(next)
    const s = d?.specs.find((x) => x.id === next)
    if (s) setQuantity((n) => clampQuantity(n, s.stock))
  }
  return (
    <Sheet open title={t('cars.buyTitle', { name: car.name })} onClose={onClose}>
      <div className="stack" data-testid="car-buy-sheet">
        {!d ? (
          q.isPending ? (
            <Pending query={q} lines={5} />
          ) : (
            <LoadFailed onRetry={() => q.refetch()} />
          )
        ) : (
          <>
            <Gallery images={d.images} name={d.name} />
            {d.body && <p className="muted small goods-body-text">{d.body}</p>}
            <SpecPicker specs={d.specs} specId={specId} onSpec={pickSpec} quantity={quantity} onQuantity={setQuantity} />
            <p className="callout small">{t('cars.intro')}</p>
            <button
              type="button"
              className="btn primary block"
              disabled={!spec || spec.stock <= 0}
              onClick={() => {
                if (!spec) return
                onClose()
                navigate(confirmHref({ area: 'car', goodsId: d.id, specId: spec.id, quantity }))
              }}
              data-testid="car-continue"
            >
              {t('cars.continue')}
            </button>
          </>
        )}
      </div>
    </Sheet>
  )
}

function CarCard({ car, onBuy }: { car: GoodsItem; onBuy: () => void }) {
  const t = useT()
  const out = soldOut(car)
  return (
    <li className="card car-card" data-testid="car-card" data-id={car.id}>
      <img className="car-cover" src={car.cover} alt="" width={600} height={600} loading="lazy" decoding="async" />
      <div className="stack-s">
        <h2 className="goods-title">{car.name}</h2>
        {car.summary && <p className="muted small">{car.summary}</p>}
        <Price value={car.price_from} from className="goods-price big-price" />
        <GoodsFacts item={car} />
        <span className="muted small">{out ? t('goods.soldOut') : t('goods.stock', { stock: car.stock })}</span>
      </div>
      <div className="row gap car-actions">
        <Link href={applyHref(car.id)} className="btn ghost grow" data-testid="car-apply">
          {t('cars.apply')}
        </Link>
        <button type="button" className="btn primary grow" disabled={out} onClick={onBuy} data-testid="car-buy">
          {t('cars.buy')}
        </button>
      </div>
    </li>
  )
}

/** /cars: the car shop (SPEC §2): every car with its pictures, price, release terms; buy one, or apply for one. */
export default function CarsScreen() {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(carQueries.list(lang.value))
  const [buying, setBuying] = useState<GoodsItem | null>(null)
  const cars = q.data?.pages.flatMap((p) => p.list) ?? []

  return (
    <main className="page cars">
      <TopBar title={t('cars.title')} back records={{ href: ORDER_LIST_PATH.car, label: t('cars.releases') }} />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <p className="muted small cars-intro">{t('cars.intro')}</p>
      {q.isPending ? (
        <Pending query={q} lines={6} />
      ) : q.isError && cars.length === 0 ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : cars.length === 0 ? (
        <Empty text={t('cars.empty')} />
      ) : (
        <ul className="car-list" data-testid="car-list">
          {cars.map((car) => (
            <CarCard key={car.id} car={car} onBuy={() => setBuying(car)} />
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <button type="button" className="btn ghost block" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
          {q.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      )}
      {buying && <BuyCarSheet key={buying.id} car={buying} onClose={() => setBuying(null)} />}
    </main>
  )
}
