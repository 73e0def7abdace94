import { describe, expect, it } from 'vitest'
import { OPERATOR_ROLES, type OperatorRole } from '../../../contract/operator.ts'
import { isRole, permits } from '../../../server/modules/operator/roles.ts'

/** Who may make a call needing each role: the table of issue 35, written out. */
const EXPECTED: Record<OperatorRole, OperatorRole[]> = {
  viewer: ['viewer', 'support', 'finance', 'admin'],
  support: ['support', 'admin'],
  finance: ['finance', 'admin'],
  admin: ['admin'],
}

describe('operator roles', () => {
  it('every role reads; support and finance each do their own work only; admin does everything', () => {
    for (const need of OPERATOR_ROLES) {
      expect(OPERATOR_ROLES.filter((role) => permits(role, need)), need).toEqual(EXPECTED[need])
    }
  })

  it('support may not do finance work, nor finance support work, nor either an admin call', () => {
    expect(permits('support', 'finance')).toBe(false)
    expect(permits('finance', 'support')).toBe(false)
    expect(permits('support', 'admin')).toBe(false)
    expect(permits('finance', 'admin')).toBe(false)
    expect(permits('viewer', 'support')).toBe(false)
  })

  it('a role is one of the four names, spelled exactly', () => {
    expect(OPERATOR_ROLES.every(isRole)).toBe(true)
    for (const text of ['Admin', 'root', '', 'admin ', 'viewers']) expect(isRole(text), text).toBe(false)
  })
})
