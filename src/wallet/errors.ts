// Wallet failures mapped to the messages of SPEC §8. Pure, so the mapping is unit-tested.

export type WalletErrorKey =
  | 'install'
  | 'connectFailed'
  | 'userRejected'
  | 'signCancelled'
  | 'signParamError'
  | 'internalError'
  | 'signFailed'

export class WalletError extends Error {
  constructor(readonly key: WalletErrorKey, cause?: unknown) {
    super(`wallet.${key}`, cause === undefined ? undefined : { cause })
    this.name = 'WalletError'
  }
}

/** The EIP-1193 / JSON-RPC code inside whatever a wallet or ethers threw. */
export function rpcCodeOf(e: unknown): number | undefined {
  const seen = new Set<unknown>()
  let cur: unknown = e
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur)
    const o = cur as { code?: unknown; info?: { error?: unknown }; error?: unknown; cause?: unknown }
    if (o.code === 'ACTION_REJECTED') return 4001 // ethers v6 wraps a wallet's 4001 this way
    if (typeof o.code === 'number') return o.code
    cur = o.info?.error ?? o.error ?? o.cause
  }
  return undefined
}

export function walletErrorKey(e: unknown, phase: 'connect' | 'sign'): WalletErrorKey {
  if (e instanceof WalletError) return e.key
  const code = rpcCodeOf(e)
  if (code === 4001) return phase === 'connect' ? 'userRejected' : 'signCancelled'
  if (phase === 'connect') return 'connectFailed'
  if (code === -32602) return 'signParamError'
  if (code === -32603) return 'internalError'
  return 'signFailed'
}
