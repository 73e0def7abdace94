import { DISPLAY_DECIMALS } from '../../contract/constants.ts'

/**
 * SPEC §5: numbers show at most 6 decimals, truncated (never rounded up: a balance must not look
 * larger than it is); empty shows 0. Works on the decimal string so no float ever touches money.
 */
export function formatAmount(value: string | number | null | undefined, decimals = DISPLAY_DECIMALS): string {
  if (value === null || value === undefined || value === '') return '0'
  const text = typeof value === 'number' ? (Number.isFinite(value) ? numberToPlain(value) : '0') : value.trim()
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (!m) return '0'
  const [, sign, whole = '', frac = ''] = m
  const w = whole.replace(/^0+(?=\d)/, '') || '0'
  const f = frac.slice(0, decimals).replace(/0+$/, '')
  const out = f ? `${w}.${f}` : w
  return out === '0' ? '0' : `${sign}${out}`
}

function numberToPlain(n: number): string {
  // The shortest decimal that reads back as n, without exponent notation (0.3 stays "0.3").
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
}

/** Groups the integer part by thousands, keeping the fraction as is. */
export function groupThousands(amount: string): string {
  const [w, f] = amount.split('.')
  const g = (w ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return f ? `${g}.${f}` : g
}

/** 0x1234…abcd */
export function shortAddress(address: string, head = 6, tail = 4): string {
  return address.length <= head + tail + 1 ? address : `${address.slice(0, head)}…${address.slice(-tail)}`
}

export function formatDateTime(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(ms)
}

export function formatDate(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms)
}
