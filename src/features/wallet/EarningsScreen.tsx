import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { ApiFailure } from '../../api/client.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { formatReleaseDay } from '../release/progress.ts'
import { lineLabelKey, targetHref } from './earnings.ts'
import { walletQueries } from './queries.ts'
import { Amount } from '../../ui/Amount.tsx'

/**
 * /wallet/earnings/{day}: what the user's positions earned on one settled UTC day — the detail of
 * that day's settlement record in the money log — each line leading to its position.
 */
export default function EarningsScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  // Asked as the route has it: the server refuses a day that is not one, in the user's words.
  const q = useQuery(walletQueries.earnings(params.day ?? ''))
  const locale = LANG_TAG[lang.value]
  const refused = q.isError && q.error instanceof ApiFailure && q.error.status >= 400 && q.error.status < 500 ? q.error.message : null
  const e = q.data
  return (
    <main className="page">
      <TopBar title={t('earnings.title')} back />
      {refused ? (
        <Empty text={refused} />
      ) : q.isPending ? (
        <Pending query={q} lines={6} />
      ) : !e ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <section className="card" data-testid="earnings-head">
            <h2 data-testid="earnings-date">{formatReleaseDay(e.date, locale)}</h2>
            <p className="muted small">{t('earnings.settledAt', { time: formatDateTime(e.settled_at, locale) })}</p>
            {e.totals.map((tot) => (
              <p key={tot.asset} className="kv" data-testid="earnings-total">
                <span className="grow">{t('earnings.total')}</span>
                <strong className="amount in">
                  +<Amount value={tot.amount} measure={tot.asset} />
                </strong>
              </p>
            ))}
          </section>
          {e.list.length === 0 ? (
            <Empty text={t('earnings.empty')} />
          ) : (
            <ul className="records" data-testid="earnings-lines">
              {e.list.map((l) => (
                <li key={`${l.reason}:${l.position_id}:${l.asset}`} className="record" data-testid="earnings-line" data-kind={l.kind} data-reason={l.reason}>
                  <Link href={targetHref(l.target)} className="grow record-link" data-testid="earnings-position" aria-label={`${t(lineLabelKey(l))} — ${t('earnings.open')}`}>
                    <strong>{t(lineLabelKey(l))}</strong>
                    <small className="muted block">{t('earnings.position', { id: l.position_id })}</small>
                  </Link>
                  <span className="amount in">
                    +<Amount value={l.amount} measure={l.asset} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </main>
  )
}
