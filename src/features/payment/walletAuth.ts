// Step 4 of the payment flow, "confirm authorization": the wallet's own prompts for account access
// and for switching to the payment's chain. Only raw EIP-1193 requests, so nothing heavy loads here.
import type { ConnectedWallet } from '../../wallet/index.ts'
import { FlowFailure } from './paymentFlow.ts'

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

function codeOf(e: unknown): number | undefined {
  const o = e as { code?: unknown; cause?: unknown; error?: unknown } | null
  if (!o || typeof o !== 'object') return undefined
  if (o.code === 'ACTION_REJECTED') return 4001
  if (typeof o.code === 'number') return o.code
  return codeOf(o.error ?? o.cause)
}

const fail = (key: string, e: unknown) => new FlowFailure({ key: `chainErrors.${key}` }, e)

/** Asks the wallet for its account and to switch to `chainId`; resolves with where it stands after. */
export async function authorizeWallet(wallet: ConnectedWallet, chainId: number): Promise<{ address: string; chainId: number }> {
  const eip = wallet.provider as Eip1193 | undefined
  if (!eip || typeof eip.request !== 'function') throw fail('insufficientAuthorization', undefined)
  let accounts: unknown
  try {
    accounts = await eip.request({ method: 'eth_requestAccounts' })
  } catch (e) {
    throw fail(codeOf(e) === 4001 ? 'userRejected' : 'insufficientAuthorization', e)
  }
  const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : null
  if (!address) throw fail('insufficientAuthorization', undefined)
  try {
    await eip.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x' + chainId.toString(16) }] })
  } catch (e) {
    const code = codeOf(e)
    throw fail(code === 4001 ? 'userRejected' : code === 4100 ? 'insufficientAuthorization' : 'wrongChain', e)
  }
  let now = chainId
  try {
    const hex = await eip.request({ method: 'eth_chainId' })
    const n = typeof hex === 'string' ? Number.parseInt(hex, 16) : NaN
    if (Number.isSafeInteger(n) && n > 0) now = n
  } catch {
    // A wallet that switched without complaint but cannot say its chain is taken at its word.
  }
  return { address, chainId: now }
}
