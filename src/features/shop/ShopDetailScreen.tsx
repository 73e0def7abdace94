import { useT } from '../../i18n/index.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { GoodsDetailView } from '../goods/GoodsDetailView.tsx'

/** /shop/detail/{id}: one device, its specifications (price, stock, mining power) and "Buy now". */
export default function ShopDetailScreen({ params }: ScreenProps) {
  const t = useT()
  return <GoodsDetailView area="machine" id={Number(params.id)} title={t('shop.detailTitle')} />
}
