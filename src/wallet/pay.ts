// Paying from a connected wallet: switch it to the chain, check the balances, send an ERC-20
// transfer. Part of the lazy wallet chunk (ethers). Wallet and node failures become the chain
// messages of SPEC §8 (locale keys chainErrors.*).
import { BrowserProvider, Interface, isAddress, parseUnits, type Eip1193Provider } from 'ethers'
import type { ConnectedWallet } from './index.ts'
import { rpcCodeOf } from './errors.ts'

export type PayKey =
  | 'userRejected'
  | 'insufficientBalance'
  /** The wallet's own token balance on the chain, not the platform account's (SPEC §8 lists both). */
  | 'insufficientChainBalance'
  | 'insufficientGas'
  | 'insufficientAuthorization'
  | 'tooFrequent'
  | 'wrongChain'
  | 'transferFailed'

export class PayError extends Error {
  constructor(
    readonly key: PayKey,
    cause?: unknown,
  ) {
    super(`chainErrors.${key}`, cause === undefined ? undefined : { cause })
    this.name = 'PayError'
  }
}

export interface PayRequest {
  chainId: number
  /** ERC-20 contract (18 decimals). */
  token: string
  to: string
  /** Decimal amount of whole tokens, at most 8 decimals. */
  amount: string
}

const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)', 'function balanceOf(address) view returns (uint256)'])

function textOf(e: unknown): string {
  const parts: string[] = []
  const seen = new Set<unknown>()
  let cur: unknown = e
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur)
    const o = cur as { message?: unknown; shortMessage?: unknown; code?: unknown; info?: { error?: unknown }; error?: unknown; cause?: unknown }
    for (const v of [o.code, o.shortMessage, o.message]) if (typeof v === 'string') parts.push(v)
    cur = o.info?.error ?? o.error ?? o.cause
  }
  return parts.join(' ').toLowerCase()
}

/** Which SPEC §8 chain message a wallet or node failure is. Pure. */
export function payErrorKey(e: unknown): PayKey {
  if (e instanceof PayError) return e.key
  const code = rpcCodeOf(e)
  const text = textOf(e)
  if (code === 4001 || text.includes('action_rejected') || text.includes('user rejected') || text.includes('user denied')) return 'userRejected'
  if (code === 4100) return 'insufficientAuthorization'
  if (code === 4902 || code === 4901) return 'wrongChain'
  if (code === -32005 || code === 429 || text.includes('rate limit') || text.includes('too many')) return 'tooFrequent'
  if (text.includes('insufficient_funds') || text.includes('insufficient funds') || text.includes('gas required exceeds')) return 'insufficientGas'
  if (text.includes('exceeds balance') || text.includes('insufficient balance')) return 'insufficientChainBalance'
  if (text.includes('allowance')) return 'insufficientAuthorization'
  return 'transferFailed'
}

/** Sends `amount` of `token` to `to` on `chainId` from the wallet; resolves with the tx hash once the wallet sent it. */
export async function payToken(wallet: ConnectedWallet, req: PayRequest): Promise<string> {
  const eip = wallet.provider as Eip1193Provider | undefined
  if (!eip || typeof eip.request !== 'function') throw new PayError('transferFailed')
  if (!isAddress(req.to) || !isAddress(req.token)) throw new PayError('transferFailed')
  const value = parseUnits(req.amount, 18)
  try {
    await eip.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x' + req.chainId.toString(16) }] })
  } catch (e) {
    throw new PayError(rpcCodeOf(e) === 4001 ? 'userRejected' : 'wrongChain', e)
  }
  try {
    // Made after the switch: a BrowserProvider refuses to work across a chain change.
    const provider = new BrowserProvider(eip, req.chainId)
    const signer = await provider.getSigner(wallet.address)
    const [tokens, gasCoin] = await Promise.all([
      provider.call({ to: req.token, data: ERC20.encodeFunctionData('balanceOf', [wallet.address]) }),
      provider.getBalance(wallet.address),
    ])
    if (BigInt(tokens) < value) throw new PayError('insufficientChainBalance')
    if (gasCoin === 0n) throw new PayError('insufficientGas')
    return await signer.sendUncheckedTransaction({ to: req.token, data: ERC20.encodeFunctionData('transfer', [req.to, value]) })
  } catch (e) {
    throw e instanceof PayError ? e : new PayError(payErrorKey(e), e)
  }
}
