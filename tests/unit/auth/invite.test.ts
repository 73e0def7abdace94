import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { installMemoryStorage } from '../lib/memoryStorage.ts'

// invite.ts reads localStorage at import time (pendingInvite), so storage goes on globalThis first.
const { local } = installMemoryStorage()
local.setItem('invite_code', 'STORED1')
const invite = await import('../../../src/features/auth/invite.ts')
const { normalizeInviteCode, isValidInviteCode, captureInviteCode, forgetInviteCode, pendingInvite, signInOpen } = invite

afterAll(() => {
  vi.unstubAllGlobals()
})

describe('normalizeInviteCode', () => {
  it('normalizeInviteCode trims and upper-cases', () => {
    expect(normalizeInviteCode('  ab12cd  ')).toBe('AB12CD')
    expect(normalizeInviteCode('Ab12')).toBe('AB12')
    expect(normalizeInviteCode('')).toBe('')
  })
})

describe('isValidInviteCode', () => {
  it('isValidInviteCode accepts 4 to 16 upper-case letters and digits', () => {
    expect(isValidInviteCode('AB12')).toBe(true)
    expect(isValidInviteCode('0000')).toBe(true)
    expect(isValidInviteCode('ABCDEFGHIJKLMNOP')).toBe(true)
  })

  it('isValidInviteCode rejects codes shorter than 4 or longer than 16', () => {
    expect(isValidInviteCode('')).toBe(false)
    expect(isValidInviteCode('AB1')).toBe(false)
    expect(isValidInviteCode('ABCDEFGHIJKLMNOPQ')).toBe(false)
  })

  it('isValidInviteCode rejects lower case, punctuation and whitespace (normalise first)', () => {
    for (const c of ['ab12', 'AB-12', 'AB_12', 'AB 12', ' AB12', 'AB12\n', 'ÄB12']) {
      expect(isValidInviteCode(c), JSON.stringify(c)).toBe(false)
    }
    expect(isValidInviteCode(normalizeInviteCode(' ab12 '))).toBe(true)
  })
})

describe('pendingInvite', () => {
  it('pendingInvite starts from the code kept in localStorage', () => {
    // Set before the module was imported, above.
    expect(pendingInvite.value).toBe('STORED1')
  })
})

describe('captureInviteCode', () => {
  beforeEach(() => {
    forgetInviteCode()
    signInOpen.value = false
  })

  it('captureInviteCode reads ?code=, normalises it, keeps it and opens the sign-in sheet', () => {
    captureInviteCode('?code=ab12cd')
    expect(pendingInvite.value).toBe('AB12CD')
    expect(local.getItem('invite_code')).toBe('AB12CD')
    expect(signInOpen.value).toBe(true)
  })

  it('captureInviteCode accepts a search string without the leading "?" and among other params', () => {
    captureInviteCode('utm=x&code=%20zz99%20&lang=en')
    expect(pendingInvite.value).toBe('ZZ99')
    expect(signInOpen.value).toBe(true)
  })

  it('captureInviteCode ignores an invalid code and leaves everything unchanged', () => {
    for (const search of ['?code=ab', '?code=AB-12', '?code=' + 'A'.repeat(17), '?code=%3Cscript%3E']) {
      captureInviteCode(search)
      expect(pendingInvite.value, search).toBe('')
      expect(local.getItem('invite_code'), search).toBeNull()
      expect(signInOpen.value, search).toBe(false)
    }
  })

  it('captureInviteCode does nothing without a code param or with an empty one', () => {
    for (const search of ['', '?', '?other=AB12', '?code=', '?CODE=AB12']) {
      captureInviteCode(search)
      expect(pendingInvite.value, search).toBe('')
      expect(signInOpen.value, search).toBe(false)
    }
  })

  it('an invalid code does not replace a previously captured valid one', () => {
    captureInviteCode('?code=GOOD1')
    signInOpen.value = false
    captureInviteCode('?code=x')
    expect(pendingInvite.value).toBe('GOOD1')
    expect(local.getItem('invite_code')).toBe('GOOD1')
    expect(signInOpen.value).toBe(false)
  })

  it('forgetInviteCode clears both the signal and localStorage', () => {
    captureInviteCode('?code=KEEPME')
    forgetInviteCode()
    expect(pendingInvite.value).toBe('')
    expect(local.getItem('invite_code')).toBeNull()
  })
})
