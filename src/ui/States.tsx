import type { FetchStatus } from '@tanstack/react-query'
import { useT } from '../i18n/index.ts'

export function Empty({ text }: { text?: string }) {
  const t = useT()
  return <div className="empty">{text ?? t('common.empty')}</div>
}

/** A load that failed, with a retry; `text` names what failed and why when the screen knows (SPEC §8). */
export function LoadFailed({ onRetry, text }: { onRetry: () => void; text?: string }) {
  const t = useT()
  return (
    <div className="empty">
      <p role="alert" data-testid="load-failed">
        {text ?? t('errors.loadFailedRetry')}
      </p>
      <button className="btn ghost small" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  )
}

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton" aria-hidden>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} />
      ))}
    </div>
  )
}

/** Offline, with nothing saved on this phone for what the screen shows: says so, instead of loading forever. */
export function NotSaved() {
  const t = useT()
  return (
    <div className="empty" data-testid="not-saved">
      {t('net.notSaved')}
    </div>
  )
}

/**
 * A query with no data yet: a skeleton while it loads, or, when it waits for a network there is not
 * (TanStack pauses it offline), the words that its data is not saved on this phone yet.
 */
export function Pending({ query, lines }: { query: { fetchStatus: FetchStatus }; lines?: number }) {
  return query.fetchStatus === 'paused' ? <NotSaved /> : <Skeleton lines={lines} />
}
