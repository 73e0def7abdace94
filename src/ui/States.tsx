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

/**
 * Offline, with nothing saved on this phone for what the screen shows: says the phone is offline and
 * that this is not saved here yet, instead of loading forever, with a retry. The queries behind it are
 * paused by TanStack while offline and resume by themselves when the connection returns; the retry is
 * for a user who does not wait for that (or whose network came back without the phone noticing).
 */
export function NotSaved({ onRetry }: { onRetry?: () => void }) {
  const t = useT()
  return (
    <div className="empty stack" role="status" data-testid="offline-unsaved">
      <strong>{t('net.offline')}</strong>
      <p data-testid="not-saved">{t('net.notSaved')}</p>
      <p className="small">{t('net.retryOnReturn')}</p>
      {onRetry && (
        <button type="button" className="btn ghost small" onClick={onRetry} data-testid="offline-retry">
          {t('common.retry')}
        </button>
      )}
    </div>
  )
}

/** What `Pending` needs of a query (or of several, combined with `pendingOf`). */
export interface PendingQuery {
  fetchStatus: FetchStatus
  refetch: () => unknown
}

/**
 * Several queries a screen needs all of, as one: paused if any waits for the network, and a retry of
 * those still without data.
 */
export function pendingOf(...qs: (PendingQuery & { data: unknown })[]): PendingQuery {
  return {
    fetchStatus: qs.some((q) => q.fetchStatus === 'paused') ? 'paused' : qs.some((q) => q.fetchStatus === 'fetching') ? 'fetching' : 'idle',
    refetch: () => Promise.all(qs.filter((q) => q.data === undefined).map((q) => q.refetch())),
  }
}

/**
 * A query with no data yet: a skeleton while it loads, or, when it waits for a network there is not
 * (TanStack pauses it offline), the words that the phone is offline and its data is not saved here yet.
 */
export function Pending({ query, lines }: { query: PendingQuery; lines?: number }) {
  return query.fetchStatus === 'paused' ? <NotSaved onRetry={() => void query.refetch()} /> : <Skeleton lines={lines} />
}
