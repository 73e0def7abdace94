import { signal } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import { useT } from '../i18n/index.ts'
import { Sheet } from './Sheet.tsx'

export class ConfirmCancelled extends Error {
  constructor() {
    super('cancelled')
  }
}

/** One term of what is about to happen (an amount, a rate, a due date), shown as a labelled row. */
export interface ConfirmTerm {
  label: string
  value: string
  /** Names the row for tests and screen readers' "data-term" lookups. */
  id?: string
}

interface Pending {
  title: string
  body?: string
  /** What the user agrees to, row by row, above the body. */
  terms?: ConfirmTerm[]
  confirmText?: string
  /** What declining does, when "Cancel" would be read as the action itself ("Keep order" beside "Cancel order"). */
  cancelText?: string
  danger?: boolean
  resolve: (v: true) => void
  reject: (e: ConfirmCancelled) => void
}

const pending = signal<Pending | null>(null)

/** SPEC §2: resolves true on confirm, rejects on cancel or a tap on the overlay. */
export function confirm(opts: Omit<Pending, 'resolve' | 'reject'>): Promise<true> {
  pending.value?.reject(new ConfirmCancelled())
  return new Promise<true>((resolve, reject) => {
    pending.value = { ...opts, resolve, reject }
  })
}

/** confirm() for a caller that only needs the answer: true on confirm, false on cancel or a tap outside. */
export async function confirmed(opts: Omit<Pending, 'resolve' | 'reject'>): Promise<boolean> {
  try {
    return await confirm(opts)
  } catch (e) {
    if (e instanceof ConfirmCancelled) return false
    throw e
  }
}

export function ConfirmHost() {
  useSignals()
  const t = useT()
  const p = pending.value
  const close = (ok: boolean) => {
    pending.value = null
    if (!p) return
    if (ok) p.resolve(true)
    else p.reject(new ConfirmCancelled())
  }
  return (
    <Sheet open={!!p} onClose={() => close(false)} title={p?.title ?? ''} center>
      {p?.terms && (
        <dl className="confirm-terms" data-testid="confirm-terms">
          {p.terms.map((term) => (
            <div key={term.label} className="kv summary-row" data-term={term.id}>
              <dt className="muted">{term.label}</dt>
              <dd className="right">{term.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {p?.body && <p className="muted">{p.body}</p>}
      <div className="row gap">
        <button className="btn ghost grow" onClick={() => close(false)}>
          {p?.cancelText ?? t('common.cancel')}
        </button>
        <button className={`btn grow ${p?.danger ? 'danger' : 'primary'}`} onClick={() => close(true)}>
          {p?.confirmText ?? t('common.confirm')}
        </button>
      </div>
    </Sheet>
  )
}
