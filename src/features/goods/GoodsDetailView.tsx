import { useEffect, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import type { Area, GoodsDetail, GoodsSpec } from '../../../contract/goods.ts'
import { ApiFailure } from '../../api/client.ts'
import { lang, useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { confirmHref } from '../preOrder/confirm.ts'
import { Gallery } from './Gallery.tsx'
import { GoodsFacts } from './GoodsCard.tsx'
import { Price } from './Price.tsx'
import { SpecPicker } from './SpecPicker.tsx'
import { clampQuantity, defaultSpec } from './price.ts'
import { goodsQueries } from './queries.ts'

interface Props {
  area: Area
  id: number
  title: string
  /** Under the specification picker: what the picked specification is made of (gold's breakdown). */
  extra?: (detail: GoodsDetail, spec: GoodsSpec | undefined) => ReactNode
}

/**
 * A product detail (SPEC §2 /shop/detail/{id}, /mall/detail/{id}): pictures, name, price, the
 * specification and quantity to buy, the description, and "Buy now" to the order confirm screen.
 */
export function GoodsDetailView({ area, id, title, extra }: Props) {
  useSignals()
  const t = useT()
  const q = useQuery({ ...goodsQueries.detail(area, id, lang.value), enabled: Number.isSafeInteger(id) && id > 0 })
  const d = q.data
  const [specId, setSpecId] = useState<number | undefined>(undefined)
  const [quantity, setQuantity] = useState(1)
  const spec = d?.specs.find((s) => s.id === specId)

  // The first specification that can be bought is picked once the product is known.
  useEffect(() => {
    if (d && !d.specs.some((s) => s.id === specId)) setSpecId(defaultSpec(d.specs)?.id)
  }, [d, specId])

  const pickSpec = (next: number) => {
    setSpecId(next)
    const s = d?.specs.find((x) => x.id === next)
    if (s) setQuantity((n) => clampQuantity(n, s.stock))
  }

  const notFound = q.isError && q.error instanceof ApiFailure && (q.error.status === 404 || q.error.status === 400)
  const canBuy = spec !== undefined && spec.stock > 0

  return (
    <main className="page has-bottom-action goods-detail">
      <TopBar title={title} back />
      {d && <Freshness updatedAt={q.dataUpdatedAt} />}
      {!d ? (
        notFound || !(id > 0) ? (
          <Empty text={t('goods.notFound')} />
        ) : q.isPending ? (
          <Pending query={q} lines={8} />
        ) : (
          <LoadFailed onRetry={() => q.refetch()} />
        )
      ) : (
        <>
          <Gallery images={d.images} name={d.name} />
          <section className="card goods-head stack-s">
            <h2 className="goods-title" data-testid="goods-name">
              {d.name}
            </h2>
            {d.summary && <p className="muted small">{d.summary}</p>}
            <Price value={spec?.price ?? d.price_from} from={!spec} className="goods-price big-price" />
            <GoodsFacts item={d} />
            {d.ships && <span className="small muted">{t('goods.ships')}</span>}
          </section>
          <SpecPicker specs={d.specs} specId={specId} onSpec={pickSpec} quantity={quantity} onQuantity={setQuantity} />
          {extra?.(d, spec)}
          {d.body && (
            <section className="card">
              <h2>{t('goods.details')}</h2>
              <p className="goods-body-text">{d.body}</p>
            </section>
          )}
          <div className="bottom-action">
            {/* A link while an order can be placed: the confirm screen is a page of its own, opened like any other. */}
            {canBuy ? (
              <Link href={confirmHref({ area, goodsId: d.id, specId: spec.id, quantity })} className="btn primary block" data-testid="buy-now">
                {t('goods.buyNow')}
              </Link>
            ) : (
              <button type="button" className="btn primary block" disabled data-testid="buy-now">
                {spec && spec.stock <= 0 ? t('goods.soldOut') : t('goods.buyNow')}
              </button>
            )}
          </div>
        </>
      )}
    </main>
  )
}
