import type { MarketStatus } from '../../../contract/trade.ts'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'

/** The market is halted after a fault: why nothing can be placed or cancelled, and since when. */
export function HaltedNote({ status }: { status: MarketStatus }) {
  const t = useT()
  return (
    <section className="callout halted" role="alert" data-testid="market-halted">
      <strong className="block">{t('trade.halted.title')}</strong>
      <p>{t('trade.halted.body')}</p>
      {status.since !== null && <small className="muted">{t('trade.halted.since', { time: formatDateTime(status.since, LANG_TAG[lang.value]) })}</small>}
    </section>
  )
}
