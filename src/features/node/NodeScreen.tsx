import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { OfflineReason, RecordList } from '../wallet/parts.tsx'
import { BuyButton } from './BuyButton.tsx'
import { MyNodeCard, TierFigures } from './parts.tsx'
import { nodeQueries } from './queries.ts'

/** /node: the elite, core and genesis tiers with their seats left, a buy button each, and the caller's nodes. */
export default function NodeScreen() {
  const t = useT()
  const q = useQuery(nodeQueries.config())
  const mine = useInfiniteQuery(nodeQueries.mine())
  return (
    <main className="page">
      <TopBar title={t('node.title')} back records={{ href: '/loan', label: t('loan.title') }} />
      {q.isPending ? (
        <Pending query={q} lines={8} />
      ) : q.isError && !q.data ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : (
        <>
          <Freshness updatedAt={q.dataUpdatedAt} />
          <p className="small muted">{t('node.intro', { share: q.data.fee_pool_share, dividend: q.data.dividend_pool_share })}</p>
          {q.data.tiers.length === 0 ? (
            <Empty text={t('node.noTiers')} />
          ) : (
            <ul className="records" data-testid="node-tiers">
              {q.data.tiers.map((tier) => (
                <li key={tier.id} className="card stack node-tier" data-testid="node-tier" data-type={tier.type}>
                  <Link href={`/node/detail/${tier.id}`} className="row gap node-head">
                    <strong className="grow">{t(`node.type.${tier.type}`)}</strong>
                    <span className="badge gold">T{tier.level_id}</span>
                  </Link>
                  <TierFigures tier={tier} />
                  <BuyButton tier={tier} />
                </li>
              ))}
            </ul>
          )}
          <OfflineReason />
        </>
      )}
      <h2 className="section-title">{t('node.mine')}</h2>
      <RecordList q={mine} testId="my-nodes" empty={t('node.noNodes')} row={(n) => <MyNodeCard key={n.id} n={n} />} />
    </main>
  )
}
