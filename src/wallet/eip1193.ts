// EIP-1193 provider core shared by the Demo wallet and the end-to-end test wallet.
// Dependency-free on purpose (no ethers): the signing itself is delegated to a SignerBackend,
// so this file can be unit-tested and imported from Node test support without pulling a bundle.

export interface Eip1193Request {
  method: string
  params?: unknown[] | Record<string, unknown>
}

/** What signs. Implemented over an ethers Wallet by the Demo wallet and the test wallet. */
export interface SignerBackend {
  /** Checksummed address. */
  address(): Promise<string>
  /** EIP-191 personal_sign of a UTF-8 string or raw bytes. */
  signMessage(message: string | Uint8Array): Promise<string>
  /** EIP-712 signature; `types` never contains `EIP712Domain`. */
  signTypedData?(domain: unknown, types: unknown, value: unknown): Promise<string>
  /** Signs and broadcasts; returns the transaction hash. */
  sendTransaction?(tx: Record<string, unknown>, chainId: number): Promise<string>
}

export type Eip1193Listener = (...args: unknown[]) => void

export interface Eip1193Provider {
  request(args: Eip1193Request): Promise<unknown>
  on(ev: string, fn: Eip1193Listener): void
  removeListener(ev: string, fn: Eip1193Listener): void
  isNadiDemo?: boolean
}

export interface Eip1193ProviderOptions {
  /** Chain selected at start. */
  chainId: number
  /** Chains the wallet knows (switch/add succeed for these). `chainId` is always included. */
  chains?: number[]
  /** Where methods the wallet does not answer itself go (eth_call, eth_getBalance…). */
  rpc?: (chainId: number, method: string, params: unknown[]) => Promise<unknown>
}

/** EIP-1193 and JSON-RPC error codes used here. */
export const RPC_ERROR = {
  USER_REJECTED: 4001,
  UNAUTHORIZED: 4100,
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900,
  CHAIN_DISCONNECTED: 4901,
  UNRECOGNIZED_CHAIN: 4902,
  INVALID_REQUEST: -32600,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
} as const

export class ProviderRpcError extends Error {
  code: number
  data?: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'ProviderRpcError'
    this.code = code
    if (data !== undefined) this.data = data
  }
}

/** Normalizes anything thrown by a backend or the rpc into a ProviderRpcError, keeping a numeric code. */
export function toProviderRpcError(err: unknown): ProviderRpcError {
  if (err instanceof ProviderRpcError) return err
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown }
    const message = typeof e.message === 'string' && e.message ? e.message : 'Internal error'
    if (typeof e.code === 'number' && Number.isInteger(e.code)) return new ProviderRpcError(e.code, message, e.data)
    return new ProviderRpcError(RPC_ERROR.INTERNAL, message, err)
  }
  return new ProviderRpcError(RPC_ERROR.INTERNAL, typeof err === 'string' && err ? err : 'Internal error')
}

export function toHexChainId(chainId: number): string {
  return '0x' + chainId.toString(16)
}

/** Parses '0x…' or a decimal number/string into a positive safe integer chain id, else undefined. */
export function parseChainId(v: unknown): number | undefined {
  let n: number | undefined
  if (typeof v === 'number') n = v
  else if (typeof v === 'string') {
    if (/^0x[0-9a-f]+$/i.test(v)) n = Number.parseInt(v.slice(2), 16)
    else if (/^[0-9]+$/.test(v)) n = Number(v)
  }
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/**
 * MetaMask convention for personal_sign: a 0x-prefixed even-length hex string is the raw bytes
 * of the message; anything else is signed as its UTF-8 text.
 */
export function decodePersonalMessage(data: string): string | Uint8Array {
  if (!/^0x([0-9a-f]{2})*$/i.test(data)) return data
  const hex = data.slice(2)
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/

function paramsArray(params: Eip1193Request['params']): unknown[] {
  if (params === undefined || params === null) return []
  return Array.isArray(params) ? params : [params]
}

function invalidParams(message: string): ProviderRpcError {
  return new ProviderRpcError(RPC_ERROR.INVALID_PARAMS, message)
}

/** An invalid transaction parameter (-32602), for backends that check a transaction's fields. */
export const invalidTxParams = invalidParams

export function createEip1193Provider(backend: SignerBackend, opts: Eip1193ProviderOptions): Eip1193Provider {
  if (parseChainId(opts.chainId) !== opts.chainId) throw new TypeError(`Invalid chainId: ${String(opts.chainId)}`)
  const known = new Set<number>([opts.chainId, ...(opts.chains ?? [])])
  let chainId = opts.chainId
  let connected = false
  // The wallet starts authorized (it is a test/demo wallet); wallet_revokePermissions hides the account
  // until the next eth_requestAccounts.
  let authorized = true
  let requested = false
  let cachedAddress: string | undefined
  const listeners = new Map<string, Set<Eip1193Listener>>()

  function emit(ev: string, ...args: unknown[]): void {
    const set = listeners.get(ev)
    if (!set) return
    for (const fn of [...set]) {
      try {
        fn(...args)
      } catch (err) {
        // A listener's failure must not fail the request that triggered the event.
        console.error(`[eip1193] ${ev} listener threw`, err)
      }
    }
  }

  async function address(): Promise<string> {
    cachedAddress ??= await backend.address()
    return cachedAddress
  }

  async function accounts(): Promise<string[]> {
    return authorized ? [await address()] : []
  }

  /** Checks a signer-address parameter against the wallet's account (4100 on mismatch). */
  async function assertOwnAddress(v: unknown): Promise<void> {
    if (typeof v !== 'string' || !ADDRESS_RE.test(v)) throw invalidParams('Expected an address parameter')
    const own = await address()
    if (!authorized || v.toLowerCase() !== own.toLowerCase()) {
      throw new ProviderRpcError(RPC_ERROR.UNAUTHORIZED, 'The requested account has not been authorized by the user')
    }
  }

  function requestedChain(params: unknown[], method: string): number {
    const arg = params[0]
    const id = typeof arg === 'object' && arg !== null ? parseChainId((arg as { chainId?: unknown }).chainId) : undefined
    if (id === undefined) throw invalidParams(`${method} expects [{ chainId: '0x…' }]`)
    return id
  }

  async function handle(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts': {
        const wasAuthorized = authorized && requested
        authorized = true
        requested = true
        const list = await accounts()
        if (!wasAuthorized) emit('accountsChanged', list)
        return list
      }
      case 'eth_accounts':
        return accounts()
      case 'eth_coinbase':
        return (await accounts())[0] ?? null
      case 'eth_chainId':
        return toHexChainId(chainId)
      case 'net_version':
        return String(chainId)
      case 'wallet_switchEthereumChain': {
        const id = requestedChain(params, method)
        if (!known.has(id)) {
          throw new ProviderRpcError(RPC_ERROR.UNRECOGNIZED_CHAIN, `Unrecognized chain ID "${toHexChainId(id)}". Try adding the chain using wallet_addEthereumChain first.`)
        }
        if (id !== chainId) {
          chainId = id
          emit('chainChanged', toHexChainId(id))
        }
        return null
      }
      case 'wallet_addEthereumChain': {
        const id = requestedChain(params, method)
        if (!known.has(id)) {
          throw new ProviderRpcError(RPC_ERROR.UNRECOGNIZED_CHAIN, `Chain "${toHexChainId(id)}" is not supported by this wallet`)
        }
        return null
      }
      case 'wallet_getPermissions':
        return authorized && requested ? [{ parentCapability: 'eth_accounts' }] : []
      case 'wallet_requestPermissions':
        await handle('eth_requestAccounts', [])
        return [{ parentCapability: 'eth_accounts' }]
      case 'wallet_revokePermissions':
        if (authorized) {
          authorized = false
          requested = false
          emit('accountsChanged', [])
        }
        return null
      case 'personal_sign': {
        const [data, addr] = params
        if (typeof data !== 'string') throw invalidParams('personal_sign expects [data, address]')
        await assertOwnAddress(addr)
        return backend.signMessage(decodePersonalMessage(data))
      }
      case 'eth_sign':
        throw new ProviderRpcError(RPC_ERROR.UNSUPPORTED_METHOD, 'eth_sign is not supported; use personal_sign')
      case 'eth_signTypedData_v4': {
        if (!backend.signTypedData) throw new ProviderRpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Unsupported method: ${method}`)
        const [addr, raw] = params
        await assertOwnAddress(addr)
        let typed: unknown = raw
        if (typeof raw === 'string') {
          try {
            typed = JSON.parse(raw)
          } catch {
            throw invalidParams('eth_signTypedData_v4 expects typed data JSON')
          }
        }
        if (typeof typed !== 'object' || typed === null) throw invalidParams('eth_signTypedData_v4 expects typed data')
        const { domain, types, message } = typed as { domain?: unknown; types?: unknown; message?: unknown }
        if (typeof types !== 'object' || types === null || typeof message !== 'object' || message === null) {
          throw invalidParams('eth_signTypedData_v4 expects { domain, types, primaryType, message }')
        }
        // ethers derives the primary type itself and rejects an explicit EIP712Domain entry.
        const rest: Record<string, unknown> = { ...(types as Record<string, unknown>) }
        delete rest.EIP712Domain
        const domainChain = parseChainId((domain as { chainId?: unknown } | undefined)?.chainId)
        if (domainChain !== undefined && domainChain !== chainId) {
          throw invalidParams(`Typed data domain chainId ${domainChain} does not match the active chain ${chainId}`)
        }
        return backend.signTypedData(domain ?? {}, rest, message)
      }
      case 'eth_sendTransaction': {
        if (!backend.sendTransaction) throw new ProviderRpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Unsupported method: ${method}`)
        const tx = params[0]
        if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) throw invalidParams('eth_sendTransaction expects [transaction]')
        const from = (tx as { from?: unknown }).from
        if (from !== undefined) await assertOwnAddress(from)
        else if (!authorized) throw new ProviderRpcError(RPC_ERROR.UNAUTHORIZED, 'No account has been authorized by the user')
        return backend.sendTransaction({ ...(tx as Record<string, unknown>), from: await address() }, chainId)
      }
      default:
        if (opts.rpc) return opts.rpc(chainId, method, params)
        throw new ProviderRpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Unsupported method: ${method}`)
    }
  }

  return {
    async request(args: Eip1193Request): Promise<unknown> {
      if (typeof args !== 'object' || args === null || typeof args.method !== 'string' || !args.method) {
        throw new ProviderRpcError(RPC_ERROR.INVALID_REQUEST, 'Expected a request of the form { method, params }')
      }
      if (!connected) {
        connected = true
        emit('connect', { chainId: toHexChainId(chainId) })
      }
      try {
        return await handle(args.method, paramsArray(args.params))
      } catch (err) {
        throw toProviderRpcError(err)
      }
    },
    on(ev: string, fn: Eip1193Listener): void {
      let set = listeners.get(ev)
      if (!set) listeners.set(ev, (set = new Set()))
      set.add(fn)
    },
    removeListener(ev: string, fn: Eip1193Listener): void {
      listeners.get(ev)?.delete(fn)
    },
  }
}
