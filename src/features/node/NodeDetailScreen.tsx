import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import type { ScreenProps } from '../../app/routes.ts'
import { failureMessage } from '../../api/failure.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { OfflineReason, RecordList } from '../wallet/parts.tsx'
import { BuyButton } from './BuyButton.tsx'
import { Grants, MyNodeCard, TierFigures } from './parts.tsx'
import { nodeQueries } from './queries.ts'

/** /node/detail/{id}: one tier (its grants, seats, buy) and the caller's nodes of it, with the way to /loan. */
export default function NodeDetailScreen({ params }: ScreenProps) {
  const t = useT()
  const id = Number(params.id)
  const q = useQuery(nodeQueries.config())
  const mine = useInfiniteQuery({ ...nodeQueries.mine(id), enabled: id > 0 })
  const tier = q.data?.tiers.find((x) => x.id === id)
  const holds = (mine.data?.pages[0]?.list ?? []).some((n) => n.status === 'active')
  return (
    <main className="page">
      <TopBar title={tier ? t(`node.type.${tier.type}`) : t('node.detailTitle')} back />
      {q.isPending ? (
        <Pending query={q} lines={8} />
      ) : q.isError && !q.data ? (
        <LoadFailed text={failureMessage('nodeDetail', q.error, t)} onRetry={() => q.refetch()} />
      ) : !tier ? (
        <Empty text={t('node.notFound')} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <section className="card stack" data-testid="node-detail" data-type={tier.type}>
            <div className="row gap">
              <strong className="grow">{t(`node.type.${tier.type}`)}</strong>
              <span className="badge gold">T{tier.level_id}</span>
            </div>
            <TierFigures tier={tier} />
          </section>
          <section className="card stack">
            <strong>{t('node.grants')}</strong>
            <Grants tier={tier} dividendShare={q.data.dividend_pool_share} />
            <p className="small muted">{t('node.stakeBack', { days: tier.days })}</p>
          </section>
          <BuyButton tier={tier} />
          <OfflineReason />
          <h2 className="section-title">{t('node.mineOfTier')}</h2>
          <RecordList q={mine} testId="my-nodes" empty={t('node.noNodes')} row={(n) => <MyNodeCard key={n.id} n={n} />} />
          <Link href="/loan" className="btn ghost block" data-testid="node-loan-link">
            {holds ? t('node.borrow') : t('node.loanPlans')}
          </Link>
        </>
      )}
    </main>
  )
}
