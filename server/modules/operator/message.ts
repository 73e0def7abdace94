// The operator's sign-in message: EIP-4361 as the app's (server/modules/auth/siwe.ts builds both), but
// naming the console's origin and a statement of its own, so a user's sign-in message and an
// operator's can never stand for each other. The server accepts only a message it issued, byte for
// byte; parsing is for the checks a stored message must still pass (its origin, its expiry).
import { buildSiweMessage } from '../auth/siwe.ts'

export const OPERATOR_STATEMENT = 'Sign in to the NADI operator console. It costs no gas and sends no transaction.'

export interface OperatorMessageFields {
  /** The console's origin, e.g. https://admin.nadi.example. */
  origin: string
  /** EIP-55 checksummed. */
  address: string
  chainId: number
  nonce: string
  issuedAt: number
  expiresAt: number
}

export function buildOperatorMessage(f: OperatorMessageFields): string {
  const u = new URL(f.origin)
  return buildSiweMessage({
    domain: u.host,
    address: f.address,
    statement: OPERATOR_STATEMENT,
    uri: u.origin,
    chainId: f.chainId,
    nonce: f.nonce,
    issuedAt: f.issuedAt,
    expiresAt: f.expiresAt,
    inviteCode: null,
  })
}

const MESSAGE = new RegExp(
  [
    '^(?<domain>[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?) wants you to sign in with your Ethereum account:',
    '(?<address>0x[0-9a-fA-F]{40})',
    '',
    escape(OPERATOR_STATEMENT),
    '',
    'URI: (?<uri>https?://[^\\s]+)',
    'Version: 1',
    'Chain ID: (?<chainId>[0-9]{1,16})',
    'Nonce: (?<nonce>[A-Za-z0-9]{8,64})',
    'Issued At: (?<issuedAt>[0-9T:.Z-]{20,30})',
    'Expiration Time: (?<expiresAt>[0-9T:.Z-]{20,30})$',
  ].join('\n'),
)

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** An operator sign-in message's fields, or null when it is not one (another statement, a line missing, a domain that is not the URI's host). */
export function parseOperatorMessage(text: string): OperatorMessageFields | null {
  const g = MESSAGE.exec(text)?.groups
  if (!g) return null
  let uri: URL
  try {
    uri = new URL(g.uri!)
  } catch {
    return null
  }
  if (uri.origin !== g.uri || uri.host !== g.domain) return null
  const issuedAt = Date.parse(g.issuedAt!)
  const expiresAt = Date.parse(g.expiresAt!)
  if (!Number.isFinite(issuedAt) || !Number.isFinite(expiresAt)) return null
  return { origin: uri.origin, address: g.address!, chainId: Number(g.chainId), nonce: g.nonce!, issuedAt, expiresAt }
}
