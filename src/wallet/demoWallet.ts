// The in-app "Demo wallet": a throwaway key kept in this browser, for people without a wallet
// extension. Test-only value — never fund it. Part of a lazily loaded chunk, so ethers is fine here.
// Its key is kept through src/data (kv 'demo-wallet-key'); src/data moves a key from the old
// 'nadi-wallet' database there on first use, so an existing demo user keeps their address.

import { JsonRpcApiProvider, Network, Wallet, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult, type TransactionRequest, type TypedDataDomain, type TypedDataField } from 'ethers'
import { kvDelete, kvUpdate } from '../data/index.ts'
import { createEip1193Provider, invalidTxParams, ProviderRpcError, RPC_ERROR, toProviderRpcError, type Eip1193Provider, type SignerBackend } from './eip1193.ts'
import { walletChains } from './index.ts'

/** The kv entry of the demo key: one per browser, the wallet everyone calls "demo". */
const DEMO_KEY_ID = 'demo-wallet-key'
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/

interface DemoKey {
  privateKey: string
  createdAt: number
}

function isUsableKey(v: unknown): v is string {
  if (typeof v !== 'string' || !PRIVATE_KEY_RE.test(v)) return false
  try {
    new Wallet(v) // rejects zero / out-of-range scalars
    return true
  } catch {
    return false
  }
}

/** The demo private key (0x-hex), created on first use and kept in this browser's IndexedDB. */
export async function loadOrCreateDemoKey(): Promise<string> {
  // One read-write transaction, so concurrent first calls (even from two tabs) agree on a single key.
  const stored = await kvUpdate<DemoKey>(DEMO_KEY_ID, (current) =>
    current && isUsableKey(current.privateKey) ? current : { privateKey: Wallet.createRandom().privateKey, createdAt: Date.now() },
  )
  return stored.privateKey
}

/** Deletes the demo key; the next loadOrCreateDemoKey makes a new one. */
export async function forgetDemoKey(): Promise<void> {
  await kvDelete(DEMO_KEY_ID)
}

export type DemoProvider = Eip1193Provider & { isNadiDemo: true }

/** The demo server's JSON-RPC proxy to the local dev chain with this id (demo mode only). */
export function devchainRpcUrl(chainId: number): string {
  const key = walletChains().find((c) => c.id === chainId)?.key ?? String(chainId)
  return new URL(`/api/v1/devchain/rpc/${encodeURIComponent(key)}`, window.location.origin).toString()
}

let rpcSeq = 0
/** Forwards a read or a broadcast to the dev chain through the server's proxy; errors keep their JSON-RPC code. */
export async function devchainRpc(chainId: number, method: string, params: unknown[]): Promise<unknown> {
  let res: Response
  try {
    res = await fetch(devchainRpcUrl(chainId), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcSeq, method, params }),
    })
  } catch (e) {
    throw new ProviderRpcError(RPC_ERROR.CHAIN_DISCONNECTED, 'The demo chain is not reachable', e)
  }
  const body = (await res.json().catch(() => null)) as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | null
  if (body?.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
  if (!res.ok || !body) throw new ProviderRpcError(RPC_ERROR.INTERNAL, `The demo chain answered HTTP ${res.status}`)
  return body.result ?? null
}

/** ethers over an rpc function (the proxy by default): fills nonce, gas and fees and broadcasts for the Demo wallet. */
class RpcBridge extends JsonRpcApiProvider {
  constructor(
    private readonly chainId: number,
    private readonly rpc: (chainId: number, method: string, params: unknown[]) => Promise<unknown>,
  ) {
    const network = Network.from(chainId)
    super(network, { staticNetwork: network, batchMaxCount: 1, cacheTimeout: -1 })
  }

  override _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<(JsonRpcResult | JsonRpcError)[]> {
    return Promise.all(
      (Array.isArray(payload) ? payload : [payload]).map(async (p): Promise<JsonRpcResult | JsonRpcError> => {
        try {
          return { id: p.id, result: await this.rpc(this.chainId, p.method, p.params as unknown[]) }
        } catch (e) {
          const err = toProviderRpcError(e)
          return { id: p.id, error: { code: err.code, message: err.message, data: err.data } }
        }
      }),
    )
  }
}

const HEX_QTY = /^0x[0-9a-fA-F]{1,64}$/
function qty(tx: Record<string, unknown>, field: string): bigint | undefined {
  const v = tx[field]
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string' && HEX_QTY.test(v)) return BigInt(v)
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
  throw invalidTxParams(`eth_sendTransaction: ${field} must be a hex quantity`)
}

/** An eth_sendTransaction object (hex quantities, `gas`) as an ethers request for `chainId`. */
export function txRequestOf(tx: Record<string, unknown>, chainId: number): TransactionRequest {
  const out: TransactionRequest = { chainId: BigInt(chainId) }
  const txChain = qty(tx, 'chainId')
  if (txChain !== undefined && txChain !== BigInt(chainId)) throw invalidTxParams(`eth_sendTransaction: chainId ${txChain} is not the active chain ${chainId}`)
  if (tx.to !== undefined && tx.to !== null) {
    if (typeof tx.to !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(tx.to)) throw invalidTxParams('eth_sendTransaction: to must be an address')
    out.to = tx.to
  }
  const data = tx.data ?? tx.input
  if (data !== undefined && data !== null) {
    if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(data)) throw invalidTxParams('eth_sendTransaction: data must be hex bytes')
    out.data = data
  }
  const value = qty(tx, 'value')
  if (value !== undefined) out.value = value
  const gas = qty(tx, 'gas') ?? qty(tx, 'gasLimit')
  if (gas !== undefined) out.gasLimit = gas
  const nonce = qty(tx, 'nonce')
  if (nonce !== undefined) out.nonce = Number(nonce)
  const gasPrice = qty(tx, 'gasPrice')
  const maxFee = qty(tx, 'maxFeePerGas')
  const maxPriority = qty(tx, 'maxPriorityFeePerGas')
  if (maxFee !== undefined || maxPriority !== undefined) {
    if (maxFee !== undefined) out.maxFeePerGas = maxFee
    if (maxPriority !== undefined) out.maxPriorityFeePerGas = maxPriority
  } else if (gasPrice !== undefined) out.gasPrice = gasPrice
  if (out.to === undefined && out.data === undefined) throw invalidTxParams('eth_sendTransaction: a transaction needs to or data')
  return out
}

export async function createDemoProvider(opts: {
  chainId: number
  chains: number[]
  /**
   * Where read methods (eth_call, eth_getBalance…) and transactions go. Default: the demo server's
   * proxy to its local dev chains (/api/v1/devchain/rpc/<chain>).
   */
  rpc?: (chainId: number, method: string, params: unknown[]) => Promise<unknown>
}): Promise<DemoProvider> {
  const wallet = new Wallet(await loadOrCreateDemoKey())
  const rpc = opts.rpc ?? devchainRpc
  const backend: SignerBackend = {
    address: async () => wallet.address,
    signMessage: (message) => wallet.signMessage(message),
    signTypedData: (domain, types, value) =>
      wallet.signTypedData(
        domain as TypedDataDomain,
        types as Record<string, TypedDataField[]>,
        value as Record<string, unknown>,
      ),
    // Filled (nonce, gas, fees) and broadcast through the rpc, signed here: the key never leaves the browser.
    async sendTransaction(tx, chainId) {
      const provider = new RpcBridge(chainId, rpc)
      try {
        const sent = await wallet.connect(provider).sendTransaction(txRequestOf(tx, chainId))
        return sent.hash
      } finally {
        provider.destroy()
      }
    },
  }
  const provider = createEip1193Provider(backend, { chainId: opts.chainId, chains: opts.chains, rpc })
  return Object.assign(provider, { isNadiDemo: true as const })
}
