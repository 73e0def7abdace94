import { useInfiniteQuery } from '@tanstack/react-query'
import type { Area } from '../../../contract/goods.ts'
import { useT } from '../../i18n/index.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { RecordList } from '../wallet/parts.tsx'
import { releaseQueries } from './queries.ts'
import { ReleaseCard } from './ReleaseCard.tsx'

/** One shop's release plans, paged, from the saved cache at once, with when that data is from. */
export function ReleaseList({ area }: { area: Area }) {
  const t = useT()
  const q = useInfiniteQuery(releaseQueries.list(area))
  return (
    <>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId={`release-list-${area}`} empty={t(`release.empty.${area}`)} row={(p) => <ReleaseCard key={p.id} plan={p} />} />
    </>
  )
}
