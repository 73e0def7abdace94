// The delivery-address rules (SPEC §3, §5), pure and shared: the app checks a form before sending,
// the server enforces the same rules. No imports, so the app may import it by value.

/** Lengths count characters (code points) after trimming, as people count them. */
export const ADDRESS_LIMITS = {
  name: 40,
  area: 100,
  address: 200,
  /** Digits in a phone number once spaces, dashes, dots and brackets are removed; a leading + is allowed. */
  phoneDigitsMin: 6,
  phoneDigitsMax: 20,
  /** What a phone may measure as typed, separators included. */
  phoneRaw: 40,
  /** Addresses one user may keep. */
  perUser: 20,
} as const

export const textLength = (s: string): number => Array.from(s).length

/** The phone as stored: full-width digits and signs folded to ASCII, separators people type removed. */
export function normalizePhone(raw: string): string {
  return raw.normalize('NFKC').trim().replace(/[\s\-().]/g, '')
}

const PHONE_RE = new RegExp(`^\\+?[0-9]{${ADDRESS_LIMITS.phoneDigitsMin},${ADDRESS_LIMITS.phoneDigitsMax}}$`)

export function isValidPhone(raw: string): boolean {
  return textLength(raw.trim()) <= ADDRESS_LIMITS.phoneRaw && PHONE_RE.test(normalizePhone(raw))
}

/** SPEC §3: lists show a phone with its middle four digits masked, e.g. 138****5678. */
export function maskPhone(phone: string): string {
  const p = normalizePhone(phone)
  const plus = p.startsWith('+') ? '+' : ''
  const digits = p.slice(plus.length)
  if (digits.length < 6) return p
  const start = Math.floor((digits.length - 4) / 2)
  return `${plus}${digits.slice(0, start)}****${digits.slice(start + 4)}`
}

/**
 * Characters an address never holds: control characters (C0, DEL, C1: a newline or tab too, every
 * field is one line) and the bidirectional overrides, isolates and marks that can make text display
 * in another order than it is stored (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u
/** Whitespace and the zero-width characters: a field made only of these is empty. */
const INVISIBLE = '\\s\\u200b-\\u200d\\u2060\\ufeff'
const EDGES = new RegExp(`^[${INVISIBLE}]+|[${INVISIBLE}]+$`, 'gu')

/** The text as stored: whitespace and zero-width characters trimmed from both ends. */
export const trimText = (raw: string): string => raw.replace(EDGES, '')

export type TextProblem = 'required' | 'invalid' | 'tooLong'

/** One address text field (name, area, detail): empty once trimmed, a forbidden character, or too long. */
export function checkText(raw: string, max: number): TextProblem | null {
  const t = trimText(raw)
  if (!t) return 'required'
  if (FORBIDDEN.test(t)) return 'invalid'
  if (textLength(t) > max) return 'tooLong'
  return null
}
