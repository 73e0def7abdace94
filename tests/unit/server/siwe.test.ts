import { describe, expect, it } from 'vitest'
import { INVITE_RESOURCE_PREFIX, buildSiweMessage, nonceOf, safeDomain, type SiweFields } from '../../../server/modules/auth/siwe.ts'

const fields: SiweFields = {
  domain: 'nadi.example',
  address: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  statement: 'Welcome to NADI!',
  uri: 'https://nadi.example',
  chainId: 56,
  nonce: 'abcdef0123456789',
  issuedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
  expiresAt: Date.UTC(2026, 0, 2, 3, 9, 5),
  inviteCode: 'ROOT0001',
}

describe('buildSiweMessage', () => {
  it('writes the EIP-4361 lines in order, with the invite code as the only resource', () => {
    expect(buildSiweMessage(fields)).toBe(
      [
        'nadi.example wants you to sign in with your Ethereum account:',
        '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
        '',
        'Welcome to NADI!',
        '',
        'URI: https://nadi.example',
        'Version: 1',
        'Chain ID: 56',
        'Nonce: abcdef0123456789',
        'Issued At: 2026-01-02T03:04:05.000Z',
        'Expiration Time: 2026-01-02T03:09:05.000Z',
        'Resources:',
        `- ${INVITE_RESOURCE_PREFIX}ROOT0001`,
      ].join('\n'),
    )
  })

  it('has no Resources section without an invite code', () => {
    const text = buildSiweMessage({ ...fields, inviteCode: null })
    expect(text).not.toContain('Resources:')
    expect(text.endsWith('Expiration Time: 2026-01-02T03:09:05.000Z')).toBe(true)
  })
})

describe('nonceOf', () => {
  it('finds the nonce line of a built message', () => {
    expect(nonceOf(buildSiweMessage(fields))).toBe('abcdef0123456789')
  })

  it('answers null when there is no whole, 8–64 character alphanumeric nonce line', () => {
    expect(nonceOf('no nonce here')).toBeNull()
    expect(nonceOf('Nonce: short')).toBeNull()
    expect(nonceOf(`Nonce: ${'a'.repeat(65)}`)).toBeNull()
    expect(nonceOf('Nonce: abc-def-123456')).toBeNull()
    expect(nonceOf('X Nonce: abcdef0123456789')).toBeNull()
    expect(nonceOf('Nonce: abcdef0123456789 trailing')).toBeNull()
  })
})

describe('safeDomain', () => {
  it('accepts a plain host with an optional port', () => {
    expect(safeDomain('localhost')).toBe('localhost')
    expect(safeDomain('nadi.example:8443')).toBe('nadi.example:8443')
    expect(safeDomain('127.0.0.1:8080')).toBe('127.0.0.1:8080')
  })

  it('refuses anything that could add text to the message', () => {
    for (const host of [undefined, '', 'a b', 'evil.example\nURI: x', 'evil.example/path', 'user@host', 'host:port', 'x'.repeat(254)]) {
      expect(safeDomain(host), String(host)).toBeNull()
    }
  })
})
