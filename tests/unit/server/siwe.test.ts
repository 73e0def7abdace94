import { describe, expect, it } from 'vitest'
import { INVITE_RESOURCE_PREFIX, buildSiweMessage, nonceOf, safeDomain, type SiweFields } from '../../../server/modules/auth/siwe.ts'

const FIELDS: SiweFields = {
  domain: 'nadi.example:5173',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  statement: 'Sign in to NADI.',
  uri: 'https://nadi.example:5173',
  chainId: 56,
  nonce: 'abcDEF0123456789',
  issuedAt: Date.UTC(2024, 0, 2, 3, 4, 5, 678),
  expiresAt: Date.UTC(2024, 0, 2, 3, 9, 5, 678),
  inviteCode: null,
}

describe('buildSiweMessage', () => {
  it('buildSiweMessage lays out the EIP-4361 lines in order, joined by \\n', () => {
    expect(buildSiweMessage(FIELDS).split('\n')).toEqual([
      'nadi.example:5173 wants you to sign in with your Ethereum account:',
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      '',
      'Sign in to NADI.',
      '',
      'URI: https://nadi.example:5173',
      'Version: 1',
      'Chain ID: 56',
      'Nonce: abcDEF0123456789',
      'Issued At: 2024-01-02T03:04:05.678Z',
      'Expiration Time: 2024-01-02T03:09:05.678Z',
    ])
  })

  it('buildSiweMessage has no trailing newline and no Resources section without an invite code', () => {
    const msg = buildSiweMessage(FIELDS)
    expect(msg.endsWith('\n')).toBe(false)
    expect(msg).not.toContain('Resources:')
    expect(msg).not.toContain('\r')
    expect(buildSiweMessage({ ...FIELDS, inviteCode: '' })).not.toContain('Resources:')
  })

  it('buildSiweMessage binds an invite code as the only Resources entry, last', () => {
    const lines = buildSiweMessage({ ...FIELDS, inviteCode: 'AB12CD' }).split('\n')
    expect(lines.slice(-3)).toEqual(['Expiration Time: 2024-01-02T03:09:05.678Z', 'Resources:', '- urn:nadi:invite:AB12CD'])
    expect(INVITE_RESOURCE_PREFIX).toBe('urn:nadi:invite:')
  })

  it('buildSiweMessage writes timestamps as UTC ISO 8601 regardless of the process time zone', () => {
    const msg = buildSiweMessage({ ...FIELDS, issuedAt: 0, expiresAt: 1 })
    expect(msg).toContain('\nIssued At: 1970-01-01T00:00:00.000Z\n')
    expect(msg).toContain('\nExpiration Time: 1970-01-01T00:00:00.001Z')
  })

  it('buildSiweMessage is deterministic: the same fields give the same bytes', () => {
    expect(buildSiweMessage({ ...FIELDS })).toBe(buildSiweMessage({ ...FIELDS }))
  })

  it('nonceOf finds the nonce of a built message', () => {
    expect(nonceOf(buildSiweMessage(FIELDS))).toBe(FIELDS.nonce)
    expect(nonceOf(buildSiweMessage({ ...FIELDS, inviteCode: 'AB12' }))).toBe(FIELDS.nonce)
  })
})

describe('nonceOf', () => {
  it('nonceOf accepts alphanumeric nonces of 8 to 64 characters', () => {
    expect(nonceOf('Nonce: abcd1234')).toBe('abcd1234')
    expect(nonceOf('Nonce: ' + 'a'.repeat(64))).toBe('a'.repeat(64))
  })

  it('nonceOf rejects nonces shorter than 8 or longer than 64 characters', () => {
    expect(nonceOf('Nonce: abc1234')).toBeNull()
    expect(nonceOf('Nonce: ' + 'a'.repeat(65))).toBeNull()
    expect(nonceOf('Nonce: ')).toBeNull()
  })

  it('nonceOf rejects nonces with odd characters or extra text on the line', () => {
    for (const line of ['Nonce: abcd-1234', 'Nonce: abcd_1234', 'Nonce: abcd 1234', 'Nonce: abcd1234 ', ' Nonce: abcd1234', 'Nonce:abcd1234', 'nonce: abcd1234', 'Nonce: äbcd1234']) {
      expect(nonceOf(line), JSON.stringify(line)).toBeNull()
    }
  })

  it('nonceOf only matches a whole line, anywhere in the message', () => {
    expect(nonceOf('first\nNonce: abcd1234\nlast')).toBe('abcd1234')
    expect(nonceOf('x Nonce: abcd1234')).toBeNull()
    expect(nonceOf('')).toBeNull()
  })

  it('nonceOf is only a lookup key: \\r also ends a line, so a CRLF copy still yields its nonce', () => {
    // The login compares the whole message with the one issued, byte for byte; nonceOf only finds it.
    expect(nonceOf('Nonce: abcd1234\r\nIssued At: x')).toBe('abcd1234')
  })
})

describe('safeDomain', () => {
  it('safeDomain accepts host names, IPv4 addresses and host:port', () => {
    for (const h of ['nadi.example', 'localhost', 'localhost:5173', '192.168.1.10:8080', 'a-b.c-d.example', 'x:1', 'x:65535']) {
      expect(safeDomain(h), h).toBe(h)
    }
  })

  it('safeDomain rejects missing and empty hosts', () => {
    expect(safeDomain(undefined)).toBeNull()
    expect(safeDomain('')).toBeNull()
  })

  it('safeDomain rejects newlines, spaces and slashes that could forge message lines', () => {
    for (const h of ['evil.example\nURI: x', 'evil.example\n', '\nevil.example', 'evil.example\r', 'evil example', ' evil.example', 'evil.example/', 'evil.example/path', 'a\\b', '\tx']) {
      expect(safeDomain(h), JSON.stringify(h)).toBeNull()
    }
  })

  it('safeDomain rejects other punctuation, credentials, empty or long ports', () => {
    for (const h of ['user@evil.example', 'evil.example:', 'evil.example:123456', 'evil.example:80:80', 'evil.example:abc', '[::1]:3000', 'évil.example', 'a;b', 'a?b', 'a#b']) {
      expect(safeDomain(h), h).toBeNull()
    }
  })

  it('safeDomain limits the host part to 253 characters', () => {
    expect(safeDomain('a'.repeat(253))).toBe('a'.repeat(253))
    expect(safeDomain('a'.repeat(253) + ':443')).toBe('a'.repeat(253) + ':443')
    expect(safeDomain('a'.repeat(254))).toBeNull()
  })
})
