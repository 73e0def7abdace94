import { useInfiniteQuery } from '@tanstack/react-query'
import { useT } from '../../i18n/index.ts'
import { Freshness } from '../../ui/Freshness.tsx'
import { TopBar } from '../../ui/TopBar.tsx'
import { PowerList } from './parts.tsx'
import { miningQueries } from './queries.ts'

/** /mingLog (SPEC §2, §3): every power position — type, bought, gift, released, remaining, daily, status. */
export default function PowerLogScreen() {
  const t = useT()
  const q = useInfiniteQuery(miningQueries.powerLog())
  return (
    <main className="page">
      <TopBar title={t('mining.powerLog')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <PowerList q={q} />
    </main>
  )
}
