import { describe, expect, it } from 'vitest'
import { ATTEMPT_LIMIT, ATTEMPT_WINDOW_MS, CODE_ALPHABET, CODE_LENGTH, attemptAllowed, formatCode, makeCode, normalizeCode } from '../../../contract/deviceRules.ts'

const bytes = (seq: number[]) => {
  let i = 0
  return (n: number) => Uint8Array.from({ length: n }, () => seq[i++ % seq.length]!)
}

describe('activation codes', () => {
  it('has no symbol read or typed for another', () => {
    for (const ch of '01OIL') expect(CODE_ALPHABET).not.toContain(ch)
    expect(new Set(CODE_ALPHABET).size).toBe(CODE_ALPHABET.length)
  })

  it('makes 16 symbols of the alphabet, skipping bytes that would bias it', () => {
    const code = makeCode(bytes([255, 254, 0, 1, 30, 31]))
    expect(code).toHaveLength(CODE_LENGTH)
    // 248 = 8 × 31: bytes 248..255 are dropped, 31 wraps to the first symbol.
    expect(code.startsWith('AB9AAB9A')).toBe(true)
    for (let i = 0; i < 200; i++) expect(normalizeCode(makeCode((n) => crypto.getRandomValues(new Uint8Array(n))))).not.toBeNull()
  })

  it('prints 4 groups of 4 and reads back whatever case, spaces or dashes', () => {
    expect(formatCode('ABCDEFGHJKMNPQRS')).toBe('ABCD-EFGH-JKMN-PQRS')
    for (const typed of ['ABCD-EFGH-JKMN-PQRS', 'abcdefghjkmnpqrs', ' abcd efgh  jkmn-pqrs ', 'AbCd-EfGh-JkMn-PqRs', 'ABCD--EFGH\tJKMN PQRS']) {
      expect(normalizeCode(typed)).toBe('ABCDEFGHJKMNPQRS')
    }
  })

  it('refuses a wrong length or a symbol never issued', () => {
    for (const bad of ['', 'ABCD-EFGH-JKMN-PQR', 'ABCD-EFGH-JKMN-PQRST', 'ABCD-EFGH-JKMN-PQR0', 'ABCD-EFGH-JKMN-PQRO', 'ABCD-EFGH-JKMN-PQR1', 'ABCD_EFGH_JKMN_PQRS', 'ÄBCD-EFGH-JKMN-PQRS']) {
      expect(normalizeCode(bad), bad).toBeNull()
    }
  })
})

describe('wrong codes in a row', () => {
  const now = 10 * ATTEMPT_WINDOW_MS
  const recent = (n: number) => Array.from({ length: n }, (_, i) => now - 1000 * (i + 1))

  it(`allows ${ATTEMPT_LIMIT - 1} recent failures and refuses at ${ATTEMPT_LIMIT}`, () => {
    expect(attemptAllowed(recent(ATTEMPT_LIMIT - 1), null, now)).toBe(true)
    expect(attemptAllowed(recent(ATTEMPT_LIMIT), null, now)).toBe(false)
  })

  it('forgets failures older than the window', () => {
    const old = recent(ATTEMPT_LIMIT).map((t) => t - ATTEMPT_WINDOW_MS)
    expect(attemptAllowed(old, null, now)).toBe(true)
    // Exactly at the window's edge it no longer counts.
    expect(attemptAllowed(Array(ATTEMPT_LIMIT).fill(now - ATTEMPT_WINDOW_MS), null, now)).toBe(true)
  })

  it('counts only since the last success ("in a row")', () => {
    const f = recent(ATTEMPT_LIMIT)
    expect(attemptAllowed(f, now - 3500, now)).toBe(true) // 3 failures after the success
    expect(attemptAllowed(f, now - 60_000, now)).toBe(false)
  })
})
