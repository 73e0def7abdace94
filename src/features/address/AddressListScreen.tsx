import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { maskPhone } from '../../../contract/addressRules.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { confirmed } from '../../ui/confirm.tsx'
import { toast } from '../../ui/toast.ts'
import { addressQueries } from './queries.ts'
import { mergeAddresses, type AddressView } from './merge.ts'
import { useCancelQueued, useDeleteAddress, useSetDefaultAddress } from './mutations.ts'
import { failureMessage, type FailedOperation } from '../../api/failure.ts'

/** The operation a queued change was, for its failure's words. */
const FAILED: Record<NonNullable<AddressView['change']>['kind'], FailedOperation> = { add: 'addressAdd', edit: 'addressEdit', delete: 'addressDelete', setDefault: 'addressSetDefault' }

function ChangeBadge({ row }: { row: AddressView }) {
  const t = useT()
  const c = row.change
  if (!c) return null
  if (c.state === 'failed') return <span className="badge red">{t('outbox.failed')}</span>
  return <span className="badge muted-badge">{c.kind === 'delete' ? t('outbox.deleting') : t('outbox.pending')}</span>
}

export default function AddressListScreen() {
  useSignals()
  const t = useT()
  const q = useQuery(addressQueries.list())
  const queue = useOutbox(account.value)
  const rows = mergeAddresses(q.data ?? [], queue)
  const remove = useDeleteAddress()
  const setDefault = useSetDefaultAddress()
  const cancelQueued = useCancelQueued()

  // The form is the next screen a user opens; fetched now, the service worker keeps it for offline use.
  useEffect(() => {
    void import('./AddressFormScreen.tsx')
  }, [])

  const report = (r: { queued: boolean }) => toast.success(r.queued ? t('outbox.savedOffline') : t('address.saved'))

  async function onDelete(row: AddressView) {
    if (!(await confirmed({ title: t('address.deleteTitle'), body: t('address.deleteBody'), confirmText: t('address.delete'), danger: true }))) return
    // A failure is told by the mutation's own message (errors.failed.addressDelete).
    remove.mutate({ id: row.id, queuedId: row.id === undefined ? row.change?.outboxId : undefined }, { onSuccess: report })
  }

  return (
    <main className="page has-bottom-action">
      <TopBar title={t('address.title')} back />
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      {q.isPending && queue.length === 0 ? (
        <Pending query={q} lines={4} />
      ) : q.isError && !q.data && queue.length === 0 ? (
        <LoadFailed text={failureMessage('addressList', q.error, t)} onRetry={() => q.refetch()} />
      ) : rows.length === 0 ? (
        <Empty text={t('address.empty')} />
      ) : (
        <ul className="address-list" data-testid="address-list">
          {rows.map((row) => (
            <li key={row.key} className={`card address-item ${row.change ? `change-${row.change.state}` : ''}`} data-pending={row.change ? 'true' : undefined}>
              <div className="row between">
                <strong>
                  {row.name} <span className="muted mono small">{maskPhone(row.phone)}</span>
                </strong>
                <span className="row gap-s">
                  {row.is_default && <span className="badge gold">{t('address.default')}</span>}
                  <ChangeBadge row={row} />
                </span>
              </div>
              <p className="muted small address-text">
                {row.area} {row.address}
              </p>
              {row.change?.state === 'failed' && row.change.error && (
                <p className="form-error small" role="alert">
                  {t('errors.failedBecause', { what: t(`errors.failed.${FAILED[row.change.kind]}`), reason: row.change.error })}
                </p>
              )}
              <div className="row gap-s address-actions">
                {row.change && row.change.state !== 'sending' ? (
                  <button className="btn ghost small" onClick={() => cancelQueued.mutate(row.change!.outboxId)}>
                    {row.change.state === 'failed' ? t('outbox.discard') : t('outbox.cancel')}
                  </button>
                ) : null}
                {!row.is_default && row.id !== undefined && !row.change && (
                  <button className="btn ghost small" onClick={() => setDefault.mutate(row.id!, { onSuccess: report })}>
                    {t('address.setDefault')}
                  </button>
                )}
                {row.change?.kind !== 'delete' && (
                  <Link className="btn ghost small" href={row.id !== undefined ? `/address/edit?id=${row.id}` : `/address/edit?queued=${row.change!.outboxId}`}>
                    {t('address.edit')}
                  </Link>
                )}
                {row.change?.kind !== 'delete' && (
                  <button className="btn ghost small danger-text" onClick={() => onDelete(row)}>
                    {t('address.delete')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="bottom-action">
        <Link href="/address/add" className="btn primary block">
          {t('address.add')}
        </Link>
      </div>
    </main>
  )
}
