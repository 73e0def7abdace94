import { useQuery } from '@tanstack/react-query'
import { ApiFailure } from '../../api/client.ts'
import { useT } from '../../i18n/index.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { showAmount, units } from '../wallet/amount.ts'
import { pledgeQueries } from './queries.ts'
import { PledgeSummary, termDay } from './parts.tsx'

/** /pledge/releaseLog/{id}: one pledge, the release of its principal and its income day by day. */
export default function ReleaseLogScreen({ params }: ScreenProps) {
  const t = useT()
  const id = Number(params.id)
  const q = useQuery(pledgeQueries.releaseLog(id))
  const notFound = q.isError && q.error instanceof ApiFailure && (q.error.status === 404 || q.error.status === 400)
  const log = q.data
  return (
    <main className="page">
      <TopBar title={t('pledge.releaseLogTitle')} back />
      {notFound || !(id > 0) ? (
        <Empty text={t('pledge.pledgeNotFound')} />
      ) : q.isPending ? (
        <Pending query={q} lines={8} />
      ) : !log ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <section className="card pledge-item" data-testid="pledge-log-head" data-status={log.pledge.status}>
            <PledgeSummary g={log.pledge} />
          </section>
          <h2 className="pledge-section">{t('pledge.releases')}</h2>
          {log.releases.length === 0 ? (
            <p className="muted small card" data-testid="pledge-release-pending">
              {t('pledge.releasePending', { date: termDay(log.pledge.release_time), amount: showAmount(units(log.pledge.release_amount), 'NADI') })}
            </p>
          ) : (
            <ul className="records" data-testid="pledge-releases">
              {log.releases.map((r) => (
                <li key={r.day} className="card kv pledge-kv">
                  <span className="grow">
                    {t('pledge.principalReleased')}
                    <small className="muted">{termDay(r.day)}</small>
                  </span>
                  <strong>{showAmount(units(r.amount), 'NADI')} NADI</strong>
                </li>
              ))}
            </ul>
          )}
          <h2 className="pledge-section">{t('pledge.incomeTitle')}</h2>
          {log.income.length === 0 ? (
            <Empty text={t('pledge.noIncome')} />
          ) : (
            <ul className="records" data-testid="pledge-log-income">
              {log.income.map((l) => (
                <li key={l.day} className="card kv pledge-kv" data-testid="pledge-income-row">
                  <span className="grow">{termDay(l.day)}</span>
                  <strong className="pledge-gain">+{showAmount(units(l.amount), 'NADI')} NADI</strong>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </main>
  )
}
