import type { GoodsDetail, GoodsSpec } from '../../../contract/goods.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { useT } from '../../i18n/index.ts'
import { GoodsDetailView } from '../goods/GoodsDetailView.tsx'
import { GoldBreakdownCard } from './GoldBreakdown.tsx'

/** /mall/detail/{id}: one gold product; its price is weight × the gold price now + the craft fee, shown in parts. */
export default function MallDetailScreen({ params }: ScreenProps) {
  const t = useT()
  return (
    <GoodsDetailView
      area="gold"
      id={Number(params.id)}
      title={t('mall.detailTitle')}
      extra={(d: GoodsDetail, spec: GoodsSpec | undefined) => spec && <GoldBreakdownCard spec={spec} perGram={d.gold_price} />}
    />
  )
}
