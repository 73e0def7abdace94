import type { Ticker } from '../../../contract/trade.ts'
import { useT } from '../../i18n/index.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { changeView } from './market.ts'

const dash = (v: string | null | undefined) => (v ? showAmount(units(v), 'price') : '—')

/** Last price, 24 h change in its colour, high, low and volume. */
export function TickerHeader({ ticker }: { ticker: Ticker | undefined }) {
  const t = useT()
  // No ticker (offline, never seen): a dash, not a 0.00 % nobody measured.
  const change = ticker ? changeView(ticker.change24h) : { text: '—', tone: 'flat' as const }
  return (
    <section className="card ticker-head" aria-label={t('trade.ticker.label')} data-testid="ticker">
      <div className="ticker-main">
        <span className="muted small">NADI / USDT</span>
        <strong className={`ticker-last tone-${change.tone}`} data-testid="ticker-last">
          {dash(ticker?.last)}
        </strong>
        <span className={`ticker-change tone-${change.tone}`} data-testid="ticker-change">
          {change.text}
        </span>
      </div>
      <dl className="ticker-stats">
        <div>
          <dt className="muted">{t('trade.ticker.high')}</dt>
          <dd className="mono">{dash(ticker?.high24h)}</dd>
        </div>
        <div>
          <dt className="muted">{t('trade.ticker.low')}</dt>
          <dd className="mono">{dash(ticker?.low24h)}</dd>
        </div>
        <div>
          <dt className="muted">{t('trade.ticker.volume')}</dt>
          <dd className="mono">{ticker ? showAmount(units(ticker.vol24h), 'NADI') : '—'}</dd>
        </div>
      </dl>
    </section>
  )
}
