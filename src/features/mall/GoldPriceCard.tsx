import type { GoldPrice } from '../../../contract/goods.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import { showMoney } from '../goods/price.ts'
import { signedPercent, sparkline, toneOf } from './goldChart.ts'

const W = 120
const H = 44

/** The gold reference price per gram, its 24 h change and a sparkline of the last day. */
export function GoldPriceCard({ price }: { price: GoldPrice | undefined }) {
  const t = useT()
  if (!price) return <section className="card gold-price skeleton-card" aria-hidden />
  const tone = toneOf(price.change_24h)
  const chart = sparkline(price.history, W, H)
  return (
    <section className="card gold-price" aria-label={t('mall.goldPrice')} data-testid="gold-price">
      <div className="gold-price-main">
        <span className="muted small">{t('mall.goldPrice')}</span>
        <strong className="gold-price-value">
          {showMoney(price.price)} <small>{t('mall.perGram')}</small>
        </strong>
        <span className="small">
          <span className={`tone-${tone} gold-change`} data-testid="gold-change">
            {signedPercent(price.change_24h)}
          </span>{' '}
          <span className="muted">{t('mall.change24h')}</span>
        </span>
        <span className="muted small">{t('mall.asOf', { time: formatDateTime(price.at, LANG_TAG[lang.value]) })}</span>
      </div>
      {chart.line && (
        <svg className={`sparkline tone-${tone}`} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={t('mall.chartLabel')} data-testid="gold-sparkline">
          <path d={chart.area} className="spark-area" />
          <path d={chart.line} className="spark-line" />
          {chart.last && <circle cx={chart.last.x} cy={chart.last.y} r={2.5} className="spark-dot" />}
        </svg>
      )}
    </section>
  )
}
