/** Spaces, dashes, dots and brackets people type in phone numbers; the digits are what count. */
export function normalizePhone(raw: string): string {
  return raw.trim().replace(/[\s\-().]/g, '')
}

/** An optional + and 6–20 digits, as the server accepts. */
export function isValidPhone(raw: string): boolean {
  return /^\+?\d{6,20}$/.test(normalizePhone(raw))
}

/** SPEC §3: lists show the phone with its middle four digits masked, e.g. 138****5678. */
export function maskPhone(phone: string): string {
  const p = normalizePhone(phone)
  const plus = p.startsWith('+') ? '+' : ''
  const digits = p.slice(plus.length)
  if (digits.length < 6) return p
  const start = Math.floor((digits.length - 4) / 2)
  return `${plus}${digits.slice(0, start)}****${digits.slice(start + 4)}`
}
