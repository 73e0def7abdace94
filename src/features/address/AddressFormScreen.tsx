import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useLocation, useSearch } from 'wouter'
import { useSignals } from '@preact/signals-react/runtime'
import { account } from '../../api/session.ts'
import { ApiFailure } from '../../api/client.ts'
import { useOutbox } from '../../data/useOutbox.ts'
import { useT } from '../../i18n/index.ts'
import { TopBar } from '../../ui/TopBar.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { failureMessage } from '../../api/failure.ts'
import { toast } from '../../ui/toast.ts'
import { addressQueries } from './queries.ts'
import { ACTION } from './merge.ts'
import { useSaveAddress } from './mutations.ts'
import { LIMITS, validateAddress, type AddressField, type AddressForm } from './validation.ts'
import { useDraft } from '../../app/drafts.ts'

const EMPTY: AddressForm = { name: '', phone: '', area: '', address: '', is_default: false }

const isForm = (v: unknown): v is AddressForm => {
  const o = v as Partial<AddressForm> | null
  return !!o && typeof o === 'object' && [o.name, o.phone, o.area, o.address].every((x) => typeof x === 'string') && typeof o.is_default === 'boolean'
}
/** An address being typed, with whether the user has changed it (a saved address still loading must not overwrite their typing). */
interface Draft {
  form: AddressForm
  touched: boolean
}
const isDraft = (v: unknown): v is Draft => !!v && typeof v === 'object' && isForm((v as Draft).form) && typeof (v as Draft).touched === 'boolean'
const UNTOUCHED: Draft = { form: EMPTY, touched: false }

/** Where a saved form returns: the screen that sent the user here (`?back=`, an order being confirmed), an app path only; else the list. */
const backTo = (back: string | null): string => (back && back.startsWith('/') && !back.startsWith('//') && !back.startsWith('/\\') ? back : '/address')

/** /address/add, and /address/edit?id=… (a saved address) or ?queued=… (one still waiting to sync). */
export default function AddressFormScreen() {
  useSignals()
  const t = useT()
  const [location, navigate] = useLocation()
  const search = new URLSearchParams(useSearch())
  const editing = location === '/address/edit'
  const id = Number(search.get('id')) || undefined
  const queuedId = Number(search.get('queued')) || undefined
  // A saved address comes from address/addressDetail (a link opened before any list was loaded works);
  // the list's copy, if saved (offline too), shows until it answers. The list is only read here, not fetched.
  const detail = useQuery({ ...addressQueries.detail(id ?? 0), enabled: editing && id !== undefined })
  const list = useQuery({ ...addressQueries.list(), enabled: false })
  const queue = useOutbox(account.value)
  const save = useSaveAddress(editing)

  const existing: AddressForm | undefined = editing
    ? id !== undefined
      ? (detail.data ?? list.data?.find((a) => a.id === id))
      : (queue.find((i) => i.id === queuedId && i.action === ACTION.add)?.payload as AddressForm | undefined)
    : undefined
  // Kept through an expired login (and a screen evicted from the kept ones): signing in again brings it back as typed.
  const [draft, setDraft, clearDraft] = useDraft<Draft>(editing ? (id !== undefined ? `address.edit.${id}` : `address.queued.${queuedId}`) : 'address.add', UNTOUCHED, isDraft)
  const form = draft.form
  const [errors, setErrors] = useState<Partial<Record<AddressField, string>>>({})
  const [loadedFrom, setLoadedFrom] = useState<AddressForm | undefined>(undefined)

  useEffect(() => {
    if (existing && existing !== loadedFrom) {
      if (!draft.touched) setDraft({ form: { name: existing.name, phone: existing.phone, area: existing.area, address: existing.address, is_default: existing.is_default }, touched: false })
      setLoadedFrom(existing)
    }
  }, [existing, loadedFrom, draft.touched, setDraft])

  // Nothing to edit: an id the server does not know, or a queued address that has since synced.
  if (editing && !existing) {
    const gone = id === undefined || (detail.error instanceof ApiFailure && detail.error.status === 404)
    return (
      <main className="page">
        <TopBar title={t('address.editTitle')} back />
        {gone ? (
          <Empty text={t('address.notFound')} />
        ) : detail.isError ? (
          <LoadFailed text={failureMessage('addressDetail', detail.error, t)} onRetry={() => detail.refetch()} />
        ) : (
          <Pending query={detail} lines={4} />
        )}
      </main>
    )
  }

  const set = (field: keyof AddressForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = field === 'is_default' ? (e.target as HTMLInputElement).checked : e.target.value
    setDraft((d) => ({ form: { ...d.form, [field]: value }, touched: true }))
    if (field in errors) setErrors((x) => ({ ...x, [field]: undefined }))
  }

  function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const problems = validateAddress(form)
    setErrors(problems)
    if (Object.keys(problems).length > 0) return
    // A refusal is told by the mutation's own message and leaves the form as typed.
    save.mutate(
      { form, ...(id !== undefined ? { id } : {}), ...(queuedId !== undefined ? { queuedId } : {}) },
      {
        onSuccess: (r) => {
          clearDraft()
          toast.success(r.queued ? t('outbox.savedOffline') : t('address.saved'))
          navigate(backTo(search.get('back')), { replace: true })
        },
      },
    )
  }

  const field = (name: AddressField, label: string, input: React.ReactNode) => (
    <label className={`field ${errors[name] ? 'invalid' : ''}`}>
      <span>{label}</span>
      {input}
      {errors[name] && (
        <small className="form-error" role="alert" data-field={name}>
          {t(errors[name]!)}
        </small>
      )}
    </label>
  )

  return (
    <main className="page">
      <TopBar title={editing ? t('address.editTitle') : t('address.addTitle')} back />
      <form className="stack form" onSubmit={onSubmit} noValidate>
        {field('name', t('address.name'), <input name="name" value={form.name} onChange={set('name')} maxLength={LIMITS.name + 10} autoComplete="name" placeholder={t('address.namePlaceholder')} />)}
        {field('phone', t('address.phone'), <input name="phone" value={form.phone} onChange={set('phone')} inputMode="tel" type="tel" autoComplete="tel" maxLength={30} placeholder={t('address.phonePlaceholder')} />)}
        {field('area', t('address.area'), <input name="area" value={form.area} onChange={set('area')} maxLength={LIMITS.area + 10} autoComplete="address-level1" placeholder={t('address.areaPlaceholder')} />)}
        {field('address', t('address.detail'), <textarea name="address" value={form.address} onChange={set('address')} maxLength={LIMITS.address + 10} rows={3} autoComplete="street-address" placeholder={t('address.detailPlaceholder')} />)}
        <label className="switch-row">
          <span>{t('address.makeDefault')}</span>
          <input type="checkbox" name="is_default" checked={form.is_default} onChange={set('is_default')} />
        </label>
        <button className="btn primary block" type="submit" disabled={save.isPending}>
          {save.isPending ? t('common.saving') : t('common.save')}
        </button>
      </form>
    </main>
  )
}
