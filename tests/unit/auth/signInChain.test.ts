import { describe, expect, it } from 'vitest'
import { signInChainId } from '../../../src/features/auth/signInChain.ts'

describe('signInChainId', () => {
  const chains = [{ id: 56 }, { id: 92025 }]
  it('names the wallet’s chain when the platform runs on it', () => {
    expect(signInChainId(92025, chains, 56)).toBe(92025)
    expect(signInChainId(56, chains, 92025)).toBe(56)
  })
  it('names the login chain for a wallet on any other network', () => {
    expect(signInChainId(1, chains, 56)).toBe(56)
    expect(signInChainId(137, chains, 92025)).toBe(92025)
  })
})
