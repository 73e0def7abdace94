import type { BookLevel } from '../../../contract/trade.ts'
import { useT } from '../../i18n/index.ts'
import { showAmount, units } from '../wallet/amount.ts'
import { depthView, type DepthRow } from './book.ts'

interface Props {
  asks: readonly BookLevel[]
  bids: readonly BookLevel[]
  last: string | null | undefined
  /** A tapped price, as on the wire. */
  onPick: (price: string) => void
  /** Offline, and this phone never saw the book: say so rather than call it empty. */
  notSaved?: boolean
}

function Level({ row, side, onPick }: { row: DepthRow; side: 'ask' | 'bid'; onPick: (price: string) => void }) {
  return (
    <li>
      <button type="button" className={`book-row ${side}`} style={{ '--shade': `${row.shade}%` } as React.CSSProperties} onClick={() => onPick(row.price)}>
        <span className="book-price">{showAmount(units(row.price), 'price')}</span>
        <span className="book-size">{showAmount(units(row.size), 'NADI')}</span>
      </button>
    </li>
  )
}

/** Asks above, bids below, shaded by the size standing up to each level; a tap puts the price into the form. */
export function OrderBook({ asks, bids, last, onPick, notSaved }: Props) {
  const t = useT()
  const view = depthView(asks, bids)
  return (
    <section className="book" aria-label={t('trade.book.title')} data-testid="order-book">
      <div className="book-head muted small">
        <span>{t('trade.book.price')}</span>
        <span>{t('trade.book.size')}</span>
      </div>
      <ol className="book-side asks" data-testid="book-asks">
        {view.asks.map((r) => (
          <Level key={r.price} row={r} side="ask" onPick={onPick} />
        ))}
      </ol>
      <div className="book-mid mono" title={t('trade.book.last')}>
        {last ? showAmount(units(last), 'price') : '—'}
      </div>
      <ol className="book-side bids" data-testid="book-bids">
        {view.bids.map((r) => (
          <Level key={r.price} row={r} side="bid" onPick={onPick} />
        ))}
      </ol>
      {view.asks.length === 0 && view.bids.length === 0 && (
        <p className="muted small center" data-testid={notSaved ? 'not-saved' : undefined}>
          {t(notSaved ? 'net.notSaved' : 'trade.book.empty')}
        </p>
      )}
    </section>
  )
}
