import { useSignals } from '@preact/signals-react/runtime'
import type { PublicTrade } from '../../../contract/trade.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { formatTime } from './market.ts'

/** The public tape, newest first; the price in the taker's colour. */
export function RecentTrades({ trades }: { trades: readonly PublicTrade[] | undefined }) {
  useSignals()
  const t = useT()
  const locale = LANG_TAG[lang.value]
  return (
    <section className="card tape" aria-label={t('trade.tape.title')}>
      <h2>{t('trade.tape.title')}</h2>
      <div className="tape-row muted small">
        <span>{t('trade.tape.time')}</span>
        <span>{t('trade.book.price')}</span>
        <span>{t('trade.book.size')}</span>
      </div>
      {!trades || trades.length === 0 ? (
        <p className="muted small center">{t('trade.tape.empty')}</p>
      ) : (
        <ol className="tape-list" data-testid="recent-trades">
          {trades.map((tr) => (
            <li key={tr.trade_id} className="tape-row mono">
              <span className="muted">{formatTime(tr.ts, locale)}</span>
              <span className={`side-${tr.side}`}>{showAmount(units(tr.price), 'price')}</span>
              <span>{showAmount(units(tr.size), 'NADI')}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
