import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Skeleton } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { ApiFailure } from '../../api/client.ts'
import { noticeQueries } from './queries.ts'

export default function NoticeDetailScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  const id = Number(params.id)
  const valid = Number.isSafeInteger(id) && id > 0
  const q = useQuery({ ...noticeQueries.detail(lang.value, id), enabled: valid })
  const missing = !valid || (q.error instanceof ApiFailure && q.error.status === 404)
  return (
    <main className="page">
      <TopBar title={t('notice.detailTitle')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <article className="article">
        {missing ? (
          <Empty text={t('errors.noticeNotFound')} />
        ) : q.isPending ? (
          <Skeleton lines={8} />
        ) : q.isError ? (
          <LoadFailed onRetry={() => q.refetch()} />
        ) : (
          <>
            <h2>{q.data.title}</h2>
            <time className="muted small">{formatDateTime(q.data.published_at, LANG_TAG[lang.value])}</time>
            {q.data.content.split(/\n{2,}/).map((para, i) => (
              <p key={i}>{para}</p>
            ))}
          </>
        )}
      </article>
    </main>
  )
}
