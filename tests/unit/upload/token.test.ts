import { describe, expect, it } from 'vitest'
import { grantPath, signGrant, verifyGrant } from '../../../server/modules/upload/token.ts'

const SECRET = 's'.repeat(40)
const g = { key: `u/7/car_apply/${'b'.repeat(32)}.png`, userId: 7, size: 70, contentType: 'image/png', expiresAt: 1_800_000_000_000 }

describe('local upload URLs (server/modules/upload/token.ts)', () => {
  it('carry the key in the path and the expiry and signature in the query', () => {
    expect(grantPath(SECRET, g)).toBe(`/api/v1/upload/${g.key}?expires=${g.expiresAt}&signature=${signGrant(SECRET, g)}`)
    expect(verifyGrant(SECRET, g, signGrant(SECRET, g))).toBe(true)
  })

  it('a signature is of the whole grant: another key, user, size, type, expiry or secret does not verify', () => {
    const sig = signGrant(SECRET, g)
    for (const other of [{ ...g, key: g.key.replace('b', 'c') }, { ...g, userId: 8 }, { ...g, size: 71 }, { ...g, contentType: 'application/pdf' }, { ...g, expiresAt: g.expiresAt + 1 }]) {
      expect(verifyGrant(SECRET, other, sig)).toBe(false)
    }
    expect(verifyGrant('t'.repeat(40), g, sig)).toBe(false)
    expect(verifyGrant(SECRET, g, sig.slice(1))).toBe(false)
    expect(verifyGrant(SECRET, g, 'x'.repeat(43))).toBe(false)
  })
})
