import { describe, expect, it } from 'vitest'
import { Wallet, verifyMessage } from 'ethers'
import { buildOperatorMessage, OPERATOR_STATEMENT, parseOperatorMessage } from '../../../server/modules/operator/message.ts'
import { buildSiweMessage } from '../../../server/modules/auth/siwe.ts'

const wallet = new Wallet('0x'.padEnd(66, '7'))
const fields = {
  origin: 'https://admin.nadi.example',
  address: wallet.address,
  chainId: 92025,
  nonce: '0123456789abcdef0123456789abcdef',
  issuedAt: Date.UTC(2026, 11, 3, 8, 0, 0),
  expiresAt: Date.UTC(2026, 11, 3, 8, 5, 0),
}

describe('the operator sign-in message', () => {
  it("names the console's origin as domain and URI, the operators' statement, the nonce and both moments", () => {
    const text = buildOperatorMessage(fields)
    expect(text.split('\n')).toEqual([
      'admin.nadi.example wants you to sign in with your Ethereum account:',
      wallet.address,
      '',
      OPERATOR_STATEMENT,
      '',
      'URI: https://admin.nadi.example',
      'Version: 1',
      'Chain ID: 92025',
      `Nonce: ${fields.nonce}`,
      'Issued At: 2026-12-03T08:00:00.000Z',
      'Expiration Time: 2026-12-03T08:05:00.000Z',
    ])
  })

  it('parses back to the fields it was built from, a port in the origin included', async () => {
    expect(parseOperatorMessage(buildOperatorMessage(fields))).toEqual(fields)
    const local = { ...fields, origin: 'http://localhost:5173' }
    expect(parseOperatorMessage(buildOperatorMessage(local))).toEqual(local)
    // What is signed is the text itself: the wallet's signature recovers its address.
    const text = buildOperatorMessage(fields)
    expect(verifyMessage(text, await wallet.signMessage(text))).toBe(wallet.address)
  })

  it("a user's sign-in message is not an operator's: another statement, and invite resources", () => {
    const user = buildSiweMessage({ domain: 'admin.nadi.example', address: wallet.address, statement: 'Welcome to NADI! Sign this message to log in. It costs no gas and sends no transaction.', uri: 'https://admin.nadi.example', chainId: 92025, nonce: fields.nonce, issuedAt: fields.issuedAt, expiresAt: fields.expiresAt, inviteCode: null })
    expect(parseOperatorMessage(user)).toBeNull()
    expect(parseOperatorMessage(`${buildOperatorMessage(fields)}\nResources:\n- urn:nadi:invite:ABCD`)).toBeNull()
  })

  it('a domain that is not the URI’s host, a missing line or a bad moment is no operator message', () => {
    const text = buildOperatorMessage(fields)
    expect(parseOperatorMessage(text.replace('admin.nadi.example wants', 'evil.example wants'))).toBeNull()
    expect(parseOperatorMessage(text.replace('Version: 1\n', ''))).toBeNull()
    expect(parseOperatorMessage(text.replace('2026-12-03T08:05:00.000Z', '2026-13-45T99:99:99.000Z'))).toBeNull()
    expect(parseOperatorMessage(text.replace('https://admin.nadi.example', 'https://admin.nadi.example/path'))).toBeNull()
  })
})
