// How many decimals each kind of figure shows (issue 17: "1,009.705925 USDT" and power
// "1,082.234042" read as noise). One table, so every screen shows a USDT amount alike. SPEC §5's ceiling
// of 6 holds for all; display truncates (DESIGN §3), formatAmount does the cutting.
import { DISPLAY_DECIMALS } from '../../contract/constants.ts'
import { ASSET_DECIMALS } from '../../contract/money.ts'
import { formatAmount, groupThousands } from './format.ts'

/**
 * What a figure measures: an asset's amount (USDT is cents-minded, NADI trades in 0.01 lots but
 * earns fractions a day, so four), mining power, or a NADI/USDT price (the market's tick, 0.0001).
 */
export const DISPLAY_PRECISION = {
  // What the server prices and charges in (contract/money.ts): a price shown is the amount taken.
  USDT: ASSET_DECIMALS.USDT,
  NADI: ASSET_DECIMALS.NADI,
  MEME: 4,
  power: 2,
  price: 4,
} as const satisfies Record<string, number>

export type Measure = keyof typeof DISPLAY_PRECISION

/** The decimals a measure shows; an asset the table does not know shows SPEC's most, 6. */
export function precisionOf(measure: string): number {
  return Object.hasOwn(DISPLAY_PRECISION, measure) ? DISPLAY_PRECISION[measure as Measure] : DISPLAY_DECIMALS
}

/** A wire amount as the user reads it: truncated to its measure's decimals, thousands grouped. */
export function showFigure(wire: string | null | undefined, measure: string): string {
  return groupThousands(formatAmount(wire, precisionOf(measure)))
}

/** The decimals of a step on the wire ("0.0001" → 4, "1" → 0); null when it is not a decimal. */
export function decimalsOfStep(step: string | undefined): number | null {
  const m = step === undefined ? null : /^\d+(?:\.(\d*?))?0*$/.exec(step)
  return m ? (m[1] ?? '').length : null
}
