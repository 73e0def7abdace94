import { afterEach, describe, expect, it, vi } from 'vitest'
import { sessionStore, storage } from '../../../src/lib/storage.ts'
import { installMemoryStorage } from './memoryStorage.ts'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('storage / sessionStore', () => {
  it('storage reads and writes localStorage, sessionStore reads and writes sessionStorage', () => {
    const { local, session } = installMemoryStorage()
    storage.set('a', '1')
    sessionStore.set('b', '2')
    expect(local.getItem('a')).toBe('1')
    expect(session.getItem('b')).toBe('2')
    expect(local.getItem('b')).toBeNull()
    expect(storage.get('a')).toBe('1')
    expect(sessionStore.get('b')).toBe('2')
    storage.remove('a')
    sessionStore.remove('b')
    expect(storage.get('a')).toBeNull()
    expect(sessionStore.get('b')).toBeNull()
  })

  it('a missing Web Storage (node, locked-down browser) reads as empty and writes are ignored', () => {
    // No globals installed here: touching localStorage throws a ReferenceError in node.
    expect(storage.get('x')).toBeNull()
    expect(() => storage.set('x', '1')).not.toThrow()
    expect(() => sessionStore.remove('x')).not.toThrow()
    expect(sessionStore.get('x')).toBeNull()
  })

  it('a storage that throws (quota, private mode) reads as empty and writes are ignored', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {
        throw new Error('SecurityError')
      },
    }
    vi.stubGlobal('localStorage', throwing)
    vi.stubGlobal('sessionStorage', throwing)
    expect(storage.get('x')).toBeNull()
    expect(() => storage.set('x', '1')).not.toThrow()
    expect(() => storage.remove('x')).not.toThrow()
    expect(sessionStore.get('x')).toBeNull()
    expect(() => sessionStore.set('x', '1')).not.toThrow()
  })
})
