import { useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../../contract/constants.ts'
import type { Device } from '../../../../contract/device.ts'
import { CODE_INPUT_MAX } from '../../../../contract/deviceRules.ts'
import { failureReason } from '../../../api/failure.ts'
import { online } from '../../../api/online.ts'
import { lang, useT } from '../../../i18n/index.ts'
import { formatDate, formatDateTime } from '../../../lib/format.ts'
import { Freshness } from '../../../ui/Freshness.tsx'
import { Sheet } from '../../../ui/Sheet.tsx'
import { Empty, LoadFailed, Pending } from '../../../ui/States.tsx'
import { toast } from '../../../ui/toast.ts'
import { showAmount, units } from '../../wallet/amount.ts'
import { badgeOf, codeLooksRight, queuedActivations, type DeviceBadge, type QueuedActivation, type QueuedItem } from './activate.ts'
import { useActivateDevice, useCancelQueuedActivation } from './mutations.ts'
import { deviceQueries } from './queries.ts'

const TONE: Record<DeviceBadge, string> = { pending: 'gold', queued: 'muted-badge', success: 'teal', failed: 'red' }

/** The activation sheet: the code shipped with the device (SPEC §5: required), checked as the server checks it. */
function ActivateSheet({ device, onClose }: { device: Device; onClose: () => void }) {
  const t = useT()
  const activate = useActivateDevice()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (code.trim() === '') return setError(t('device.codeRequired'))
    if (!codeLooksRight(code)) return setError(t('errors.deviceCodeFormat'))
    setError(null)
    try {
      const r = await activate.mutateAsync({ device_id: device.id, code })
      if (r.queued) toast.info(t('device.queuedToast'))
      else if (r.result?.already) toast.info(r.result.already)
      else toast.success(t('device.activatedToast'))
      onClose()
    } catch (err) {
      // The server's own words (wrong code, used, too frequent…), shown under the field; nothing changed.
      setError(t('device.activateFailed', { reason: failureReason(err, t) }))
    }
  }

  return (
    <Sheet open title={t('device.activateTitle')} onClose={onClose} closable={!activate.isPending}>
      <form className="form" onSubmit={onSubmit} noValidate data-testid="device-activate-form">
        <p className="small muted">{t('device.activateFor', { name: device.name, spec: device.spec_name })}</p>
        <label className="field">
          <span>{t('device.codeLabel')}</span>
          <input
            className="input mono"
            name="code"
            value={code}
            maxLength={CODE_INPUT_MAX}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            aria-invalid={error !== null}
            aria-describedby="device-code-hint"
            onChange={(e) => setCode(e.target.value)}
            data-testid="device-code"
          />
          <small id="device-code-hint" className="muted">
            {t('device.codeHint')}
          </small>
        </label>
        {error && (
          <p className="form-error small" role="alert" data-testid="device-activate-error">
            {error}
          </p>
        )}
        {!online.value && <p className="small muted">{t('device.offlineNote')}</p>}
        <button type="submit" className="btn primary block" disabled={activate.isPending} data-testid="device-activate-submit">
          {activate.isPending ? t('device.activating') : t('device.activate')}
        </button>
      </form>
    </Sheet>
  )
}

function QueuedRow({ queued }: { queued: QueuedActivation }) {
  const t = useT()
  const undo = useCancelQueuedActivation()
  return (
    <div className="order-queued" data-testid="device-queued" data-state={queued.state}>
      <div className="row between gap">
        <span className="small muted">{queued.state === 'failed' ? t('device.notSent') : t('device.queued')}</span>
        {queued.state !== 'sending' && (
          <button type="button" className="btn ghost small" onClick={() => undo.mutate(queued.outboxId)} data-testid="device-undo">
            {queued.state === 'failed' ? t('outbox.discard') : t('outbox.cancel')}
          </button>
        )}
      </div>
      {queued.state === 'failed' && queued.error && (
        <p className="form-error small" role="alert">
          {queued.error}
        </p>
      )}
    </div>
  )
}

function DeviceCard({ device, queued, onActivate }: { device: Device; queued: QueuedActivation | undefined; onActivate: () => void }) {
  const t = useT()
  const tag = LANG_TAG[lang.value]
  const badge = badgeOf(device, queued)
  return (
    <li className="card device-card" data-testid="device" data-id={device.id} data-status={badge}>
      <div className="order-line">
        {device.cover ? <img className="thumb" src={device.cover} alt="" width={56} height={56} loading="lazy" /> : <span className="thumb" />}
        <div className="grow">
          <strong className="clamp-2">{device.name}</strong>
          <span className="small muted">{t('shopOrders.spec', { spec: device.spec_name })}</span>
          <span className="small">
            {t('device.power')} <strong className="amount" data-testid="device-power">{showAmount(units(device.power), 'power')}</strong>
          </span>
        </div>
        <span className={`badge ${TONE[badge]}`} data-testid="device-status">
          {t(`device.status.${badge}`)}
        </span>
      </div>
      <div className="device-meta small muted">
        <span className="mono ellipsis">{t('device.orderNo', { no: device.order_no })}</span>
        {device.activated_at !== null && <span data-testid="device-activated-at">{t('device.activatedAt', { time: formatDateTime(device.activated_at, tag) })}</span>}
        {device.mining_from !== null && <span>{t('device.miningFrom', { date: formatDate(device.mining_from, tag) })}</span>}
      </div>
      {badge === 'failed' && !queued && <p className="small form-error">{t('device.failedHint')}</p>}
      {badge === 'pending' && !device.shipped && <p className="small muted">{t('device.notShipped')}</p>}
      {queued ? (
        <QueuedRow queued={queued} />
      ) : (
        device.status !== 'success' &&
        device.shipped && (
          <div className="order-actions">
            <button type="button" className="btn primary small" onClick={onActivate} data-testid="device-activate">
              {t('device.activate')}
            </button>
          </div>
        )
      )}
    </li>
  )
}

/**
 * "My machines" on /ming (SPEC §2, §4): the caller's devices with picture, specification, power and
 * status, and the activation sheet. Shown from the saved cache at once (offline too) with when it is
 * from; an activation made offline waits in the outbox, shown on its card. `queue` is the outbox's
 * activations — the route's screen reads it, `useOutbox(account.value, ACTIVATE_ACTION)`, because the
 * Dexie live query may only be imported by a lazy screen (tests/unit/data/boundary.test.ts).
 */
export function MachinesPanel({ queue: items }: { queue: readonly QueuedItem[] }) {
  useSignals()
  const t = useT()
  const q = useQuery(deviceQueries.list())
  const queue = queuedActivations(items)
  const [activating, setActivating] = useState<Device | null>(null)
  const list = q.data?.list
  return (
    <section className="machines" data-testid="machines-panel" aria-label={t('device.title')}>
      <div className="row between gap">
        <p className="small muted">{t('device.refreshHint')}</p>
        <button type="button" className="btn ghost small" onClick={() => void q.refetch()} disabled={q.isFetching} data-testid="devices-refresh">
          {t('device.refresh')}
        </button>
      </div>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      {list ? (
        list.length === 0 ? (
          <Empty text={t('device.empty')} />
        ) : (
          <ul className="list records" data-testid="devices">
            {list.map((d) => (
              <DeviceCard key={d.id} device={d} queued={queue.get(d.id)} onActivate={() => setActivating(d)} />
            ))}
          </ul>
        )
      ) : q.isError ? (
        <LoadFailed onRetry={() => void q.refetch()} />
      ) : (
        <Pending query={q} />
      )}
      {activating && <ActivateSheet device={activating} onClose={() => setActivating(null)} />}
    </section>
  )
}
