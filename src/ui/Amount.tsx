import { showFigure } from '../lib/precision.ts'

/**
 * A figure as the user reads it: its measure's decimals (src/lib/precision.ts), then its unit, the two
 * kept on one line (.amount) so a narrow screen never breaks a number or leaves its unit behind.
 */
export function Amount({ value, measure, unit = measure }: { value: string | null | undefined; measure: string; unit?: string }) {
  return (
    <span className="amount">
      {showFigure(value, measure)} <small className="muted">{unit}</small>
    </span>
  )
}
