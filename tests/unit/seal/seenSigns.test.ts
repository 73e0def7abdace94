import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SeenSigns, fingerprint } from '../../../server/http/seenSigns.ts'

const sign = () => crypto.randomBytes(32).toString('base64url')
/** n signs from one draw of random bytes: a draw per sign is most of the time of the large tests. */
const signs = (n: number) => {
  const bytes = crypto.randomBytes(32 * n)
  return Array.from({ length: n }, (_, i) => bytes.subarray(32 * i, 32 * i + 32).toString('base64url'))
}
const KEEP = 120_000

describe('seen signs (the replay store of a server writing alone)', () => {
  it('a sign is fresh once, then seen, for as long as it must be kept', () => {
    const seen = new SeenSigns(KEEP)
    const s = sign()
    expect(seen.fresh(s, 1_000)).toBe(true)
    expect(seen.fresh(s, 1_001)).toBe(false)
    // Other signs, and time passing just short of the keep, do not forget it.
    for (let t = 1_000; t < 1_000 + KEEP; t += 997) expect(seen.fresh(sign(), t)).toBe(true)
    expect(seen.fresh(s, 1_000 + KEEP - 1)).toBe(false)
  })

  it('a sign is remembered at least keepMs whenever it came, and forgotten by twice that', () => {
    const seen = new SeenSigns(KEEP)
    const at = new Map<string, number>()
    for (let t = 0; t < 5 * KEEP; t += 1_013) {
      const s = sign()
      expect(seen.fresh(s, t)).toBe(true)
      at.set(s, t)
      for (const [old, when] of at) {
        if (t - when < KEEP) expect(seen.fresh(old, t)).toBe(false)
        if (t - when > 2 * KEEP) at.delete(old)
      }
    }
    // After a quiet spell longer than twice the keep, everything is forgotten.
    const s = sign()
    expect(seen.fresh(s, 10 * KEEP)).toBe(true)
    expect(seen.fresh(s, 13 * KEEP)).toBe(true)
  })

  it('holds hundreds of thousands of signs, growing as it fills, and finds every one', () => {
    const seen = new SeenSigns(KEEP)
    const all = signs(250_000)
    let fresh = 0
    for (const s of all) if (seen.fresh(s, 5)) fresh++
    expect(fresh).toBe(all.length)
    let again = 0
    for (const s of all) if (!seen.fresh(s, 6)) again++
    expect(again).toBe(all.length)
  })

  it('a fingerprint is 63 bits of the sign: the same text the same, one letter changed another; not base64url is none', () => {
    const s = sign()
    expect(fingerprint(s)).toEqual(fingerprint(s))
    const other = (s[3] === 'A' ? 'B' : 'A')
    expect(fingerprint(s.slice(0, 3) + other + s.slice(4))).not.toEqual(fingerprint(s))
    const [hi, lo] = fingerprint(s)!
    expect(hi).toBeGreaterThanOrEqual(0)
    expect(hi).toBeLessThan(2 ** 32)
    expect(lo % 2).toBe(1)
    expect(fingerprint('short')).toBeNull()
    expect(fingerprint('abc+def/ghijk')).toBeNull()
    expect(fingerprint('abcdefghij\u00e9k')).toBeNull()
  })

  it('fingerprints of 250,000 random signs do not collide', () => {
    const seen = new Set<string>()
    for (const s of signs(250_000)) {
      const [hi, lo] = fingerprint(s)!
      seen.add(`${hi}:${lo}`)
    }
    expect(seen.size).toBe(250_000)
  })
})
