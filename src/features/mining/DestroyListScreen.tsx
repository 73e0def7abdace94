import { useInfiniteQuery } from '@tanstack/react-query'
import { useT } from '../../i18n/index.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { RecordList } from '../wallet/parts.tsx'
import { DestroyRow } from './parts.tsx'
import { miningQueries } from './queries.ts'

/** /destoryList (SPEC §2, §3, §4): destroy, joint and trial records, newest first, 10 at a time. */
export default function DestroyListScreen() {
  const t = useT()
  const q = useInfiniteQuery(miningQueries.destroyList())
  return (
    <main className="page">
      <TopBar title={t('mining.destroyList')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <RecordList q={q} testId="destroy-list" empty={t('mining.emptyDestroy')} row={(r) => <DestroyRow key={r.id} r={r} />} />
    </main>
  )
}
