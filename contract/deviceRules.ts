// Activation codes and the wrong-code rate limit (issue 11 part 2): pure rules shared by the server
// (issuing, checking) and the app (the code field accepts what the server accepts).

/** 31 symbols: letters and digits without the ones read or typed for each other (0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
/** 16 symbols, printed in 4 groups of 4: ~79 bits, far beyond guessing under the rate limit. */
export const CODE_LENGTH = 16
export const CODE_GROUP = 4
/** What the field accepts before normalizing: the code with spaces or dashes anywhere. */
export const CODE_INPUT_MAX = 40

/**
 * The code as compared: upper case, without spaces and dashes (people copy it as printed, or type
 * it without the separators); null when what is left is not 16 symbols of the alphabet.
 */
export function normalizeCode(raw: string): string | null {
  const s = raw.toUpperCase().replace(/[\s-]+/g, '')
  if (s.length !== CODE_LENGTH) return null
  for (const ch of s) if (!CODE_ALPHABET.includes(ch)) return null
  return s
}

/** The code as printed and shown: XXXX-XXXX-XXXX-XXXX. */
export function formatCode(code: string): string {
  const groups: string[] = []
  for (let i = 0; i < code.length; i += CODE_GROUP) groups.push(code.slice(i, i + CODE_GROUP))
  return groups.join('-')
}

/**
 * A new code from random bytes (one byte per symbol, rejection-sampled so every symbol is equally
 * likely). `random(n)` returns n random bytes (crypto on the server).
 */
export function makeCode(random: (n: number) => Uint8Array): string {
  const n = CODE_ALPHABET.length
  const limit = 256 - (256 % n)
  let out = ''
  while (out.length < CODE_LENGTH) {
    for (const b of random(CODE_LENGTH * 2)) {
      if (b >= limit) continue
      out += CODE_ALPHABET[b % n]
      if (out.length === CODE_LENGTH) break
    }
  }
  return out
}

/** Wrong codes in a row allowed within the window before activation answers 429. */
export const ATTEMPT_LIMIT = 5
export const ATTEMPT_WINDOW_MS = 15 * 60_000

/**
 * Whether a user may try a code now: refused after ATTEMPT_LIMIT wrong codes within the window, "in a
 * row" meaning counted since their last successful activation. `failures` are the times of wrong
 * attempts, `lastSuccess` of the latest success (null: none).
 */
export function attemptAllowed(failures: readonly number[], lastSuccess: number | null, now: number): boolean {
  const since = Math.max(now - ATTEMPT_WINDOW_MS, lastSuccess ?? -Infinity)
  return failures.filter((t) => t > since).length < ATTEMPT_LIMIT
}
