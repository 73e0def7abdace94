import { verifyMessage } from 'ethers'
import { badRequest } from '../../http/errors.ts'

// EIP-4361 (Sign-In with Ethereum) messages. The server only ever accepts a message it issued itself,
// byte for byte, so it builds messages but never needs to parse one beyond finding its nonce.

export interface SiweFields {
  domain: string
  /** EIP-55 checksummed. */
  address: string
  statement: string
  uri: string
  chainId: number
  nonce: string
  issuedAt: number
  expiresAt: number
  /** Bound into the signed text so a referral cannot be swapped after signing. */
  inviteCode: string | null
}

export const INVITE_RESOURCE_PREFIX = 'urn:nadi:invite:'

export function buildSiweMessage(f: SiweFields): string {
  const lines = [
    `${f.domain} wants you to sign in with your Ethereum account:`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    'Version: 1',
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${new Date(f.issuedAt).toISOString()}`,
    `Expiration Time: ${new Date(f.expiresAt).toISOString()}`,
  ]
  if (f.inviteCode) lines.push('Resources:', `- ${INVITE_RESOURCE_PREFIX}${f.inviteCode}`)
  return lines.join('\n')
}

/** The nonce line of a message, or null. Used only to find which issued message a login refers to. */
export function nonceOf(message: string): string | null {
  const m = /^Nonce: ([A-Za-z0-9]{8,64})$/m.exec(message)
  return m ? (m[1] as string) : null
}

/** Refuses a signature of `message` that is not `address`'s (lower case): the app's sign-in and the operators' alike. */
export function checkSignedBy(message: string, signature: string, address: string): void {
  let signer: string
  try {
    signer = verifyMessage(message, signature).toLowerCase()
  } catch {
    throw badRequest('errors.invalidSignature')
  }
  if (signer !== address) throw badRequest('errors.invalidSignature')
}

/** A host[:port] that is safe to put on the first line of a message. */
export function safeDomain(host: string | undefined): string | null {
  return host && /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/.test(host) ? host : null
}
