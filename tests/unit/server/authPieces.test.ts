import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashToken, randomInviteCode } from '../../../server/modules/auth/service.ts'
import { summarize } from '../../../server/modules/notice/service.ts'

describe('randomInviteCode', () => {
  it('is 8 capital letters and digits without look-alikes (0, O, 1, I)', () => {
    for (let i = 0; i < 500; i++) {
      const code = randomInviteCode()
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/)
    }
    expect(randomInviteCode(12)).toHaveLength(12)
  })
})

describe('hashToken', () => {
  it('is the hex SHA-256 of the token', () => {
    expect(hashToken('abc')).toBe(crypto.createHash('sha256').update('abc').digest('hex'))
    expect(hashToken('abc')).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('notice summary', () => {
  it('keeps short content whole, on one line', () => {
    expect(summarize('  One.\n\nTwo.  ')).toBe('One. Two.')
  })

  it('cuts long content at 120 characters and adds an ellipsis', () => {
    const s = summarize('a'.repeat(300))
    expect(s).toBe(`${'a'.repeat(120)}…`)
  })

  it('never splits a character made of two UTF-16 units', () => {
    const s = summarize('😀'.repeat(200))
    expect(Array.from(s)).toHaveLength(121)
    expect(s.endsWith('😀…')).toBe(true)
  })
})
