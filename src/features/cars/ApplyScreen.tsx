import { useEffect, useMemo, useState } from 'react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { LANG_TAG } from '../../../contract/constants.ts'
import type { CarApplication } from '../../../contract/car.ts'
import type { GoodsItem } from '../../../contract/goods.ts'
import { account } from '../../api/session.ts'
import { failureReason } from '../../api/failure.ts'
import { online } from '../../api/online.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import type { OutboxItem } from '../../data/index.ts'
import { lang, useT } from '../../i18n/index.ts'
import { formatAmount, formatDateTime } from '../../lib/format.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Freshness } from '../../ui/Freshness.tsx'
import { Icon } from '../../ui/Icon.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { toast } from '../../ui/toast.ts'
import { carQueries } from './queries.ts'
import { applyQueries } from './applyQueries.ts'
import { useCancelQueued, useSubmitApplication } from './applyMutations.ts'
import { CAR_APPLY_ACTION } from './applyOutbox.ts'
import { statusKey, statusTone, type ShownStatus } from './applyStatus.ts'
import { MAX_MB } from './applyUpload.ts'
import { CAR_DOCUMENTS, EMPTY_FORM, LIMITS, validateApply, type ApplyForm, type CarApplyField, type CarDocument, type Problem } from './applyValidation.ts'
import { ApplyDocumentPicker } from './ApplyDocumentPicker.tsx'
import './apply.css'

type TextField = 'name' | 'phone' | 'idNumber' | 'city' | 'remark'
const FIELD_OF: Record<TextField, CarApplyField> = { name: 'name', phone: 'phone', idNumber: 'id_number', city: 'city', remark: 'remark' }

/** /apply?goods=<id>: apply for a car of the car shop with your details and documents; your applications below. */
export default function ApplyScreen() {
  useSignals()
  const t = useT()
  const search = new URLSearchParams(useSearch())
  const wanted = Number(search.get('goods')) || null
  const cars = useInfiniteQuery(carQueries.list(lang.value))
  const carList = useMemo(() => cars.data?.pages.flatMap((p) => p.list) ?? [], [cars.data])
  const [form, setForm] = useState<ApplyForm>({ ...EMPTY_FORM, goodsId: wanted })
  const [tried, setTried] = useState(false)
  const [busy, setBusy] = useState<Record<CarDocument, boolean>>({ id_front: false, id_back: false, driver_licence: false })
  const [refusal, setRefusal] = useState<string | null>(null)
  const submit = useSubmitApplication()
  // A car named by the link but not among the loaded ones (a long list): its detail gives its name.
  const missing = form.goodsId !== null && cars.isSuccess && !carList.some((c) => c.id === form.goodsId)
  const extra = useQuery({ ...carQueries.detail(form.goodsId ?? 0, lang.value), enabled: missing })
  const choices: Pick<GoodsItem, 'id' | 'name' | 'cover' | 'price_from'>[] = missing && extra.data ? [extra.data, ...carList] : carList
  const chosen = choices.find((c) => c.id === form.goodsId)

  // The car list links here with ?goods=<id>: a new link picks that car.
  useEffect(() => {
    if (wanted !== null) setForm((f) => ({ ...f, goodsId: wanted }))
  }, [wanted])

  const docName = (d: CarDocument) => t(`fields.${d}`)
  const problems = validateApply(form, docName)
  const errors: Partial<Record<CarApplyField, Problem>> = tried ? problems : {}
  const uploading = Object.values(busy).some(Boolean)

  const setText = (field: TextField) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [field]: e.target.value }))
  const setDoc = (d: CarDocument) => (key: string) => setForm((f) => ({ ...f, documents: { ...f.documents, [d]: key } }))
  const setBusyOf = (d: CarDocument) => (b: boolean) => setBusy((x) => ({ ...x, [d]: b }))

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setTried(true)
    setRefusal(null)
    if (Object.keys(problems).length > 0 || uploading) return
    try {
      const r = await submit.mutateAsync(form)
      toast.success(r.queued ? t('carApply.queued') : t('carApply.sent'))
      setForm({ ...EMPTY_FORM, goodsId: form.goodsId })
      setTried(false)
    } catch (err) {
      setRefusal(`${t('errors.carApplyFailed')}: ${failureReason(err, t)}`)
      toast.error(t('errors.carApplyFailed'))
    }
  }

  const problemText = (field: CarApplyField) => {
    const p = errors[field]
    return p ? (
      <small className="form-error" role="alert" data-field={field}>
        {t(p.key, p.params)}
      </small>
    ) : null
  }
  const text = (field: TextField, label: string, input: React.ReactNode) => (
    <label className={`field ${errors[FIELD_OF[field]] ? 'invalid' : ''}`}>
      <span>{label}</span>
      {input}
      {problemText(FIELD_OF[field])}
    </label>
  )

  return (
    <main className="page">
      <TopBar title={t('carApply.title')} back />
      <p className="muted small">{t('carApply.intro')}</p>
      <form className="stack form" onSubmit={onSubmit} noValidate data-testid="apply-form">
        <div className={`field ${errors.goods_id ? 'invalid' : ''}`}>
          <label htmlFor="apply-car">{t('carApply.car')}</label>
          {cars.isPending ? (
            <Pending query={cars} lines={1} />
          ) : cars.isError && !cars.data ? (
            <LoadFailed onRetry={() => cars.refetch()} />
          ) : choices.length === 0 ? (
            <Empty text={t('carApply.noCars')} />
          ) : (
            <div className="apply-car">
              {chosen && <img src={chosen.cover} alt="" width={56} height={56} />}
              <select id="apply-car" name="goods_id" value={form.goodsId ?? ''} onChange={(e) => setForm((f) => ({ ...f, goodsId: Number(e.target.value) || null }))}>
                <option value="">{t('carApply.chooseCar')}</option>
                {choices.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} · {t('carApply.priceFrom', { price: formatAmount(c.price_from) })}
                  </option>
                ))}
              </select>
            </div>
          )}
          {problemText('goods_id')}
        </div>
        {text('name', t('carApply.name'), <input name="name" value={form.name} onChange={setText('name')} autoComplete="name" maxLength={LIMITS.name + 10} placeholder={t('carApply.namePlaceholder')} />)}
        {text('phone', t('carApply.phone'), <input name="phone" type="tel" inputMode="tel" value={form.phone} onChange={setText('phone')} autoComplete="tel" maxLength={30} placeholder={t('carApply.phonePlaceholder')} />)}
        {text(
          'idNumber',
          t('carApply.idNumber'),
          <input name="id_number" value={form.idNumber} onChange={setText('idNumber')} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={LIMITS.idNumberMax + 10} placeholder={t('carApply.idNumberPlaceholder')} />,
        )}
        {text('city', t('carApply.city'), <input name="city" value={form.city} onChange={setText('city')} autoComplete="address-level2" maxLength={LIMITS.city + 10} placeholder={t('carApply.cityPlaceholder')} />)}

        <section className="stack" aria-labelledby="apply-docs-title">
          <div>
            <h2 id="apply-docs-title">{t('carApply.documents')}</h2>
            <p className="muted small">{t('carApply.documentsHint', { max: MAX_MB })}</p>
          </div>
          {!online.value && (
            <p className="offline-reason" role="status" data-testid="upload-offline">
              <Icon name="warning" size={18} />
              <span>{t('upload.offline')}</span>
            </p>
          )}
          <div className="apply-docs">
            {CAR_DOCUMENTS.map((d) => (
              <ApplyDocumentPicker
                key={d}
                doc={d}
                label={t(`carApply.doc.${d}`)}
                optional={d === 'id_back'}
                value={form.documents[d]}
                onChange={setDoc(d)}
                onBusy={setBusyOf(d)}
                problem={errors[d]}
              />
            ))}
          </div>
        </section>

        {text('remark', t('carApply.remark'), <textarea name="remark" rows={2} value={form.remark} onChange={setText('remark')} maxLength={LIMITS.remark + 10} placeholder={t('carApply.remarkPlaceholder')} />)}
        {refusal && (
          <p className="form-error" role="alert" data-testid="apply-refused">
            {refusal}
          </p>
        )}
        <button className="btn primary block" type="submit" disabled={submit.isPending || uploading}>
          {submit.isPending ? t('carApply.submitting') : t('carApply.submit')}
        </button>
      </form>

      <MyApplications cars={choices} />
    </main>
  )
}

/** The user's applications: queued ones first (not sent yet), then the server's, newest first. */
function MyApplications({ cars }: { cars: Pick<GoodsItem, 'id' | 'name' | 'cover'>[] }) {
  useSignals()
  const t = useT()
  const q = useInfiniteQuery(applyQueries.list())
  const queued = useOutbox(account.value === 'anon' ? null : account.value, CAR_APPLY_ACTION)
  const cancel = useCancelQueued()
  const list = q.data?.pages.flatMap((p) => p.list) ?? []
  const carOf = (id: number) => cars.find((c) => c.id === id)
  return (
    <section className="apply-section" aria-labelledby="apply-mine-title">
      <h2 id="apply-mine-title">{t('carApply.mine')}</h2>
      {q.data && <Freshness updatedAt={q.dataUpdatedAt} />}
      {q.isPending && queued.length === 0 ? (
        <Pending query={q} lines={3} />
      ) : q.isError && !q.data && queued.length === 0 ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : list.length === 0 && queued.length === 0 ? (
        <Empty text={t('carApply.none')} />
      ) : (
        <ul className="apply-list" data-testid="apply-list">
          {queued.map((item) => (
            <QueuedRow key={`q${item.id}`} item={item} car={carOf((item.payload as { goods_id: number }).goods_id)} onCancel={() => cancel.mutate(item.id)} />
          ))}
          {list.map((a) => (
            <Row key={a.id} a={a} />
          ))}
        </ul>
      )}
      {q.hasNextPage && (
        <button className="btn ghost block" onClick={() => q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {t('common.loadMore')}
        </button>
      )}
    </section>
  )
}

function Badge({ status }: { status: ShownStatus }) {
  const t = useT()
  return (
    <span className={`badge ${statusTone(status)}`} data-testid="apply-status" data-status={status}>
      {t(statusKey(status))}
    </span>
  )
}

function Row({ a }: { a: CarApplication }) {
  const t = useT()
  const docs = [a.documents.id_front, a.documents.id_back, a.documents.driver_licence].filter(Boolean).length
  return (
    <li className="apply-row" data-testid="apply-row" data-id={a.id}>
      <img src={a.cover} alt="" width={56} height={56} loading="lazy" />
      <div className="apply-row-body">
        <div className="row between gap-s">
          <strong className="grow">{a.goods_name}</strong>
          <Badge status={a.status} />
        </div>
        <span className="small muted">
          {a.name} · {a.city} · {t('carApply.documentCount', { count: docs })}
        </span>
        <small className="muted">{formatDateTime(a.created_at, LANG_TAG[lang.value])}</small>
        {a.status === 'rejected' && a.reason && <span className="small">{t('carApply.reason', { reason: a.reason })}</span>}
      </div>
    </li>
  )
}

function QueuedRow({ item, car, onCancel }: { item: OutboxItem; car: Pick<GoodsItem, 'name' | 'cover'> | undefined; onCancel: () => void }) {
  const t = useT()
  const p = item.payload as { name: string; city: string }
  return (
    <li className="apply-row" data-testid="apply-row" data-queued={item.id}>
      {car ? <img src={car.cover} alt="" width={56} height={56} loading="lazy" /> : <span className="apply-thumb" />}
      <div className="apply-row-body">
        <div className="row between gap-s">
          <strong className="grow">{car?.name ?? t('carApply.car')}</strong>
          <Badge status={item.state === 'sending' ? 'sending' : item.state === 'failed' ? 'failed' : 'pending'} />
        </div>
        <span className="small muted">
          {p.name} · {p.city}
        </span>
        <small className="muted">{formatDateTime(item.createdAt, LANG_TAG[lang.value])}</small>
        {item.state === 'failed' && item.error && <span className="small form-error">{item.error}</span>}
        {item.state !== 'sending' && (
          <div>
            <button type="button" className="btn ghost small" onClick={onCancel}>
              {item.state === 'failed' ? t('outbox.discard') : t('common.cancel')}
            </button>
          </div>
        )}
      </div>
    </li>
  )
}
