import { useEffect, useRef } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatDateTime } from '../../lib/format.ts'
import type { ScreenProps } from '../../app/routes.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { ApiFailure } from '../../api/client.ts'
import { noticeQueries } from './queries.ts'
import { account } from '../../api/session.ts'
import { listOutbox } from '../../data/index.ts'
import { useMarkNoticeRead } from './mutations.ts'
import { NOTICE_READ_ACTION, queuedReads, shouldMark } from './read.ts'

export default function NoticeDetailScreen({ params }: ScreenProps) {
  useSignals()
  const t = useT()
  const id = Number(params.id)
  const valid = Number.isSafeInteger(id) && id > 0
  const q = useQuery({ ...noticeQueries.detail(lang.value, id), enabled: valid })
  const missing = !valid || (q.error instanceof ApiFailure && q.error.status === 404)
  useMarkOnOpen(valid && !missing ? id : null)
  return (
    <main className="page">
      <TopBar title={t('notice.detailTitle')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      <article className="article">
        {missing ? (
          <Empty text={t('errors.noticeNotFound')} />
        ) : q.isPending ? (
          <Pending query={q} lines={8} />
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

/**
 * Opening a notice marks it read, once per visit: at once online, through the outbox offline (DESIGN
 * §6). Skipped when the server already counts it read or a mark waits in the outbox.
 */
function useMarkOnOpen(id: number | null) {
  const acct = account.value
  const unread = useQuery({ ...noticeQueries.unread(), enabled: acct !== 'anon' })
  const mark = useMarkNoticeRead()
  const done = useRef<number | null>(null)
  // Waits for the unread list unless it cannot come (offline, no saved copy): then marks anyway.
  const settled = !unread.isPending || unread.fetchStatus === 'paused' || unread.isError
  useEffect(() => {
    if (id === null || acct === 'anon' || !settled || done.current === id) return
    done.current = id
    void listOutbox(acct, NOTICE_READ_ACTION).then((items) => {
      if (shouldMark(id, unread.data, queuedReads(items))) mark.mutate(id)
    })
  }, [id, acct, settled, unread.data, mark])
}
