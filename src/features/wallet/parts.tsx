// Pieces the money screens share: choice chips, the amount field with its "all" shortcut, the
// offline reason, a summary row and a clock for countdowns.
import type { FetchStatus } from '@tanstack/react-query'
import { useId, type ReactNode } from 'react'
import { useSignals } from '@preact/signals-react/runtime'
import { online } from '../../api/online.ts'
import { useT } from '../../i18n/index.ts'
import { Icon } from '../../ui/Icon.tsx'
import { Empty, LoadFailed, Pending } from '../../ui/States.tsx'
import { amountText, sanitizeAmountInput, showAmount, type Problem } from './amount.ts'

export function Chips<V extends string>({ label, options, value, onPick, name }: { label: string; options: readonly V[]; value: V | undefined; onPick: (v: V) => void; name?: (v: V) => string }) {
  return (
    <div className="field">
      <span>{label}</span>
      <div className="chips" role="group" aria-label={label}>
        {options.map((o) => (
          <button key={o} type="button" className={`chip pick ${o === value ? 'gold' : ''}`} aria-pressed={o === value} onClick={() => onPick(o)}>
            {name ? name(o) : o}
          </button>
        ))}
      </div>
    </div>
  )
}

export function ProblemText({ problem, field }: { problem: Problem | undefined; field: string }) {
  const t = useT()
  if (!problem) return null
  return (
    <small className="form-error" role="alert" data-field={field}>
      {t(problem.key, problem.params)}
    </small>
  )
}

interface NumberFieldProps {
  label: string
  name: string
  value: string
  onChange: (v: string) => void
  /** The asset or unit shown inside the field. */
  unit: string
  problem: Problem | undefined
  placeholder?: string
  /** The trade form's smaller look. */
  compact?: boolean
  /** Inside the field, after the unit (e.g. an "all" shortcut). */
  inside?: ReactNode
  /** Under the field, above the problem text (e.g. the available balance). */
  hint?: ReactNode
}

/** A labelled decimal amount input: digits and one point only, at most 8 decimals kept by the sanitizer. */
export function NumberField({ label, name, value, onChange, unit, problem, placeholder, compact, inside, hint }: NumberFieldProps) {
  const id = useId()
  return (
    <div className={`field ${problem ? 'invalid' : ''}`}>
      <label htmlFor={id} className={compact ? 'small muted' : undefined}>
        {label}
      </label>
      <span className={compact ? 'amount-input trade-input' : 'amount-input'}>
        <input
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(sanitizeAmountInput(e.target.value))}
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={placeholder}
        />
        <span className="unit">{unit}</span>
        {inside}
      </span>
      {hint}
      <ProblemText problem={problem} field={name} />
    </div>
  )
}

interface AmountFieldProps {
  label: string
  value: string
  onChange: (v: string) => void
  asset: string
  /** What the "all" shortcut fills in, in units; the shortcut is hidden while unknown. */
  max: bigint | undefined
  /** The available balance shown under the field. */
  available: bigint | undefined
  problem: Problem | undefined
  name?: string
}

/** An amount of one of the user's assets, with the "all" shortcut and the available balance. */
export function AmountField({ label, value, onChange, asset, max, available, problem, name = 'amount' }: AmountFieldProps) {
  const t = useT()
  return (
    <NumberField
      label={label}
      name={name}
      value={value}
      onChange={onChange}
      unit={asset}
      problem={problem}
      placeholder={t('money.amountPlaceholder')}
      inside={
        max !== undefined && (
          <button type="button" className="all-btn" onClick={() => onChange(amountText(max))}>
            {t('money.all')}
          </button>
        )
      }
      hint={<small className="muted">{t('money.available', { amount: available === undefined ? '—' : showAmount(available, asset), asset })}</small>}
    />
  )
}

/** DESIGN §6: money movements are disabled offline, and the user is told why. */
export function OfflineReason() {
  useSignals()
  const t = useT()
  if (online.value) return null
  return (
    <p className="offline-reason" role="status" data-testid="offline-reason">
      <Icon name="warning" size={18} />
      <span>{t('common.offlineDisabled')}</span>
    </p>
  )
}

export function SummaryRow({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={`kv summary-row ${strong ? 'strong' : ''}`}>
      <span className="muted">{label}</span>
      <span className="right">{children}</span>
    </div>
  )
}

/** A chain's name in the user's language. */
export function useChainName(): (key: string) => string {
  const t = useT()
  return (key) => {
    const k = `chains.${key}`
    const s = t(k)
    return s === k ? key.toUpperCase() : s
  }
}

interface PagedQuery<T> {
  /** 'paused': offline with nothing saved (ui/States Pending). */
  fetchStatus: FetchStatus
  data: { pages: { list: T[] }[] } | undefined
  isPending: boolean
  isError: boolean
  hasNextPage: boolean
  isFetchingNextPage: boolean
  refetch: () => unknown
  fetchNextPage: () => unknown
}

/** A paged record list: skeleton, failure with retry, empty text, rows, and "load more". */
export function RecordList<T>({ q, empty, row, testId }: { q: PagedQuery<T>; empty: string; row: (item: T) => ReactNode; testId: string }) {
  const t = useT()
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  return (
    <section className="list">
      {q.isPending ? (
        <Pending query={q} lines={6} />
      ) : q.isError && items.length === 0 ? (
        <LoadFailed onRetry={() => q.refetch()} />
      ) : items.length === 0 ? (
        <Empty text={empty} />
      ) : (
        <ul className="records" data-testid={testId}>
          {items.map(row)}
        </ul>
      )}
      {q.hasNextPage && (
        <button className="btn ghost block" disabled={q.isFetchingNextPage} onClick={() => q.fetchNextPage()}>
          {q.isFetchingNextPage ? t('common.loading') : t('common.loadMore')}
        </button>
      )}
    </section>
  )
}
