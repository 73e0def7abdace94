import type { GoodsSpec } from '../../../contract/goods.ts'
import { useT } from '../../i18n/index.ts'
import { goldBreakdown, showMoney } from '../goods/price.ts'
import { SummaryRow } from '../wallet/parts.tsx'

/** What one unit of a gold specification costs, in parts: weight × gold price per gram + craft fee = price. */
export function GoldBreakdownCard({ spec, perGram }: { spec: Pick<GoodsSpec, 'price' | 'weight' | 'craft_fee'>; perGram: string | null }) {
  const t = useT()
  const b = goldBreakdown(spec, perGram)
  if (!b) return null
  return (
    <section className="card gold-breakdown" data-testid="gold-breakdown">
      <h2>{t('mall.breakdown')}</h2>
      <SummaryRow label={t('mall.weight')}>
        <span data-testid="breakdown-weight">{t('mall.grams', { weight: b.weight })}</span>
      </SummaryRow>
      <SummaryRow label={t('mall.goldPerGram')}>
        <span data-testid="breakdown-per-gram">{showMoney(b.perGram)} USDT</span>
      </SummaryRow>
      <SummaryRow label={t('mall.metalValue')}>
        <span data-testid="breakdown-metal">{showMoney(b.metal)} USDT</span>
      </SummaryRow>
      <SummaryRow label={t('mall.craftFee')}>
        <span data-testid="breakdown-craft">{showMoney(b.craftFee)} USDT</span>
      </SummaryRow>
      <SummaryRow label={t('goods.unitPrice')} strong>
        <span data-testid="breakdown-price">{showMoney(b.price)} USDT</span>
      </SummaryRow>
      <p className="muted small breakdown-note">{t('mall.priceNote')}</p>
    </section>
  )
}
