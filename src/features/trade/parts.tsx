// Pieces the trade screens share: the side word in its colour, a labelled number field, a label/value cell.
import { useId, type ReactNode } from 'react'
import type { Side } from '../../../contract/trade.ts'
import { useT } from '../../i18n/index.ts'
import type { Problem } from '../wallet/amount.ts'
import { sanitizeAmountInput } from '../wallet/amount.ts'
import { ProblemText } from '../wallet/parts.tsx'

export function SideText({ side }: { side: Side }) {
  const t = useT()
  return <span className={`side-${side}`}>{t(`trade.side.${side}`)}</span>
}

interface NumFieldProps {
  label: string
  name: string
  value: string
  onChange: (v: string) => void
  unit: string
  problem: Problem | undefined
  placeholder?: string
}

export function NumField({ label, name, value, onChange, unit, problem, placeholder }: NumFieldProps) {
  const id = useId()
  return (
    <div className={`field ${problem ? 'invalid' : ''}`}>
      <label htmlFor={id} className="small muted">
        {label}
      </label>
      <span className="amount-input trade-input">
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
      </span>
      <ProblemText problem={problem} field={name} />
    </div>
  )
}

export function Cell({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="trade-cell">
      <span className="muted small">{label}</span>
      <span className="mono" data-testid={testId}>
        {children}
      </span>
    </div>
  )
}
