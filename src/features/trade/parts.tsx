// Pieces the trade screens share: the side word in its colour, a label/value cell.
import type { ReactNode } from 'react'
import type { Side } from '../../../contract/trade.ts'
import { useT } from '../../i18n/index.ts'

export function SideText({ side }: { side: Side }) {
  const t = useT()
  return <span className={`side-${side}`}>{t(`trade.side.${side}`)}</span>
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
